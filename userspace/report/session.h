/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session: one recording opened for reporting. session__load() reads every
 * record that is not a sample (mappings, process tree, comms) and jrec's
 * private features, and builds the address spaces and JIT symbol tables;
 * samples are then resolved one by one with session__resolve().
 */
#ifndef JREC_SESSION_H
#define JREC_SESSION_H

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>

#include "addrspace.h"
#include "archive-syms.h"
#include "dso.h"
#include "file-cookies.h"
#include "jit-symbols.h"
#include "kernel-syms.h"
#include "perf-reader.h"
#include "pidmap.h"
#include "proc-history.h"
#include "stored-syms.h"
#include "strpool.h"

/* Symbol lookups by (file, address): a direct-mapped cache. */
#define SYM_CACHE_SIZE 65536
struct sym_cache_ent {
	const void *owner; /* the dso, or the kernel table */
	uint64_t addr;
	const struct sym *sym;
};

struct res_cache_ent;
struct unwinder;

struct session {
	struct perf_reader *r;
	struct sym_cache_ent *sym_cache;
	struct res_cache_ent *res_cache;
	const char *path;
	struct addrspace as;
	struct jit_symbols jit;
	struct dso_set dsos;
	struct stored_syms stored; /* JREC_FEAT_SYMTAB, the dsos' last source */
	struct archive_syms archive; /* JREC_FEAT_ARCHIVE, tried before it */
	struct strpool strings;
	struct proc_history procs;   /* threads, names, forks, execs; as and jit subscribe */
	struct file_cookies cookies; /* cookies of mapped files their records lack */
	/* kernel */
	struct kernel_syms ksyms;
	struct kernel_syms ksyms_mods; /* module symbols from the recorded kallsyms */
	struct elf_image *vmlinux;     /* owns the names in ksyms when it came from a vmlinux */
	bool ksyms_tried, have_ksyms;
	bool ksyms_loading;      /* ksyms_thread runs the loading; nothing else touches ksyms */
	pthread_t ksyms_thread;
	const char *ksyms_source;
	uint64_t kernel_text; /* recorded runtime _text, 0 if unknown */
	char kernel_release[128];
	struct jrec_cookie kernel_bid;
	/* the recording */
	bool is_jrec;
	char mode[32];
	bool monotonic; /* sample times are CLOCK_MONOTONIC, comparable with jitdump */
	uint64_t nr_samples, nr_lost, nr_mmap_events;
	uint64_t first_time, last_time;
	uint64_t jitdump_truncated;
	bool jmmap_bad; /* the module's records ended in a corrupt one */
	/* call chains (callchain.c) */
	struct unwinder *unwinder; /* made for the first sample with a user stack copy */
	uint64_t *chain;	   /* the last chain session__callchain() gave */
	size_t chain_cap;
	uint64_t nr_unwound;	   /* samples whose user stack was unwound */
	/*
	 * The data section's MMAP2s of the processes the module traced copy
	 * the JMMAP section's MMAP3s (INFO mmap_records=jmmap), and that
	 * section was read whole: they are skipped (Documentation/jrec-data.rst).
	 */
	bool skip_traced_mmaps;
};

int session__open(struct session *s, const char *path, char *err, size_t errlen);
/* Pass 1. 0 or -errno. */
int session__load(struct session *s);
void session__close(struct session *s);

/* The comm of @tid at @time (interned), never NULL. */
const char *session__comm(struct session *s, uint32_t tid, uint32_t pid, uint64_t time);

enum res_kind { RES_USER = '.', RES_KERNEL = 'k' };

struct resolved {
	struct dso *dso;       /* NULL for anonymous memory without a file */
	const char *sym;       /* NULL when unresolved */
	bool plt;              /* print sym with "@plt" */
	uint64_t addr;         /* the address shown when unresolved */
	uint64_t sym_start;    /* where sym starts, in the same space as addr */
	char level;            /* enum res_kind */
	const struct jit_sym *jit;
	uint64_t vaddr;        /* for srcline in dso->img */
	enum dso_status why;   /* when sym is NULL */
	const char *anon_name; /* "//anon", "[heap]"... when dso is NULL */
	/* the sample times over which this address resolves the same; until 0: only now */
	uint64_t valid_from, valid_until;
};

/*
 * Load the kernel symbols on another thread while the first pass goes on
 * (once, and only when the kernel's reference address is known);
 * session__kernel_wait() collects it before anything reads them.
 */
void session__kernel_prefetch(struct session *s);
void session__kernel_wait(struct session *s);
/* Load the kernel symbols now, on this thread (kernel-symbols.c). */
void session__kernel_load(struct session *s);

/*
 * Files of this machine that the recording only names (machine-files.c):
 * the jitdump @pid mapped at @path, when it is one and the recording has no
 * copy; then, after pass 1, the perf maps of processes without timed lines.
 */
void session__machine_jitdump(struct session *s, uint32_t pid, const char *path);
void session__machine_perfmaps(struct session *s);
/* The lookup caches of session__resolve(); session__close() calls it. */
void session__free_caches(struct session *s);
void session__resolve(struct session *s, uint32_t pid, uint64_t ip, uint64_t time, uint16_t misc,
		      struct resolved *out);
/* "file.c:12" for a resolved sample (interned), or a "dso[+addr]" fallback. */
const char *session__srcline(struct session *s, uint32_t pid, const struct resolved *res);
/*
 * The call chain of sample @ev in host byte order, context markers
 * (PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER) included, innermost first: the
 * chain the kernel recorded (-g), or for a sample that carries a copy of its
 * user stack (--call-graph dwarf), the recorded kernel part followed by the
 * user frames unwound from the copy (unwind.c). Every output that shows
 * call chains takes them from here. Valid until the next call; 0 or -ENOMEM.
 */
void session__free_callchains(struct session *s);
int session__callchain(struct session *s, const struct pr_event *ev, const uint64_t **ips,
		       uint64_t *nr);
/* The sample's time, or its file offset when the recording has no times. */
static inline uint64_t session__time(const struct pr_event *ev)
{
	return ev->id.has_time ? ev->id.time : ev->offset;
}

#endif
