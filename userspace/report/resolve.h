/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resolve: what a sample address is (resolve.c): the file or anonymous
 * memory that held it, the function, where that starts, and over which
 * sample times the answer holds. What the outputs see of a session; the
 * session itself is opaque here.
 */
#ifndef JREC_RESOLVE_H
#define JREC_RESOLVE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dso.h"

struct session;
struct jit_sym;
struct pr_attr;

enum res_kind { RES_USER = '.', RES_KERNEL = 'k' };

struct resolved {
	struct dso *dso;       /* NULL for anonymous memory without a file */
	const char *sym;       /* NULL when unresolved */
	bool plt;              /* print sym with "@plt" */
	bool inlined;          /* sym was inlined into the function at addr (a chain's frame) */
	uint64_t addr;         /* the address shown when unresolved */
	uint64_t sym_start;    /* where sym starts, in the same space as addr */
	char level;            /* enum res_kind */
	const struct jit_sym *jit;
	uint64_t vaddr;        /* for srcline in dso->img */
	uint64_t map_addr;     /* perf's map-relative address: the file offset in a file's
				* mapping, the address itself elsewhere */
	enum dso_status why;   /* when sym is NULL */
	const char *anon_name; /* "//anon", "[heap]"... when dso is NULL */
	/* the sample times over which this address resolves the same; until 0: only now */
	uint64_t valid_from, valid_until;
};

/* perf's name for an address no mapping covers */
#define RES_UNMAPPED "[unknown]"

/* Whether no mapping covered the address: neither a file nor anonymous memory. */
static inline bool resolved__unmapped(const struct resolved *res)
{
	return !res->dso && res->anon_name && !strcmp(res->anon_name, RES_UNMAPPED);
}

/* The name of the memory of a frame without a file: "//anon", "[heap]", RES_UNMAPPED... */
static inline const char *resolved__anon_name(const struct resolved *res)
{
	return res->anon_name ? res->anon_name : RES_UNMAPPED;
}

/* Whether session__resolve() takes @ip in the mode of @misc for a kernel address. */
static inline bool session__kernel_mode(uint16_t misc, uint64_t ip)
{
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	return mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       (mode == PERF_RECORD_MISC_CPUMODE_UNKNOWN && ip >= 0xffff800000000000ULL);
}

/*
 * Address @ip of process @pid at @time, in the mode of @misc
 * (PERF_RECORD_MISC_KERNEL or _USER), into @out.
 */
void session__resolve(struct session *s, uint32_t pid, uint64_t ip, uint64_t time, uint16_t misc,
		      struct resolved *out);
/*
 * session__resolve() for the address the user registers held (a sample's
 * ip, the first user frame of its chain): one that no mapping covers is
 * looked up in the image the process's last exec replaced, as inside execve
 * the registers still point into it (perf keeps the old mappings alike).
 */
void session__resolve_regs(struct session *s, uint32_t pid, uint64_t ip, uint64_t time,
			   uint16_t misc, struct resolved *out);
/*
 * Whether the data addresses of event @a's samples are named, perf's
 * sample_addr_correlates_sym(): its samples carry one (PERF_SAMPLE_ADDR) and
 * it is a page-fault event (perf record -d -e page-faults, minor-faults,
 * major-faults) or BTS (branches sampled at each one, whose addr is the
 * target).
 */
bool resolve__names_data_addr(const struct pr_attr *a);
/*
 * A sample's data address @addr of @pid at @time, as perf names it: in the
 * mapping that held it then, of code or of data (perf record -d), the one
 * mapped last; a file's symbol of any kind (functions, objects: the file's
 * data table, elf_image__data_symtab()) at the address's offset in the
 * file (into addr and sym_start, as perf counts symoff), else [unknown] in
 * that file, or the mapping's name ("//anon", "[stack]"); anonymous code as
 * a sample's ip there; "[unknown]" where nothing was mapped; kernel
 * addresses among the kernel's symbols.
 */
void session__resolve_data(struct session *s, uint32_t pid, uint64_t addr, uint64_t time,
			   struct resolved *out);
/*
 * The functions inlined at frame @res of a call chain, innermost first, from
 * its file's DWARF: their names into @names, at most @max; how many. @ret:
 * the frame's address is a return address, which is looked up one byte
 * before (in the call). 0 for frames without a file with DWARF.
 */
size_t session__inlines(struct session *s, const struct resolved *res, bool ret,
			const char **names, size_t max);
/* "file.c:12" for a resolved sample (interned), or a "dso[+addr]" fallback. */
const char *session__srcline(struct session *s, uint32_t pid, const struct resolved *res);
/* "file.c:12" for a resolved sample (interned), or NULL when no line table names it. */
const char *session__srcline_found(struct session *s, const struct resolved *res);

#endif
