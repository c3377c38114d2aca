/* SPDX-License-Identifier: GPL-2.0 */
/*
 * annotate: the engine of `jrec annotate`. A consumer of the report's one
 * pass over the samples (samples.h): each sample's own function, resolved
 * once, counts into that function's per-address histogram. Then, for each
 * function, the exact code that ran: a jitdump LOAD's bytes, a perf-map
 * symbol's bytes the recorder copied (JREC_FEAT_CODE), the build the
 * mapping's cookie names (the build-id cache's copy of a replaced library,
 * through dso.c) or what jrec archive stored of it (JREC_FEAT_ARCHIVE_CODE),
 * the running kernel's /proc/kcore or the vmlinux with its build-id;
 * cmd-annotate.c disassembles and prints.
 */
#ifndef JREC_ANNOTATE_H
#define JREC_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "ko-code.h"
#include "resolve.h"

struct samples;
struct sample;
struct filters;

/* One instruction address's samples. */
struct ann_hit {
	uint64_t addr, period, samples;
};

struct ann_sym {
	struct resolved res; /* how the first sample resolved: dso, jit, level, names */
	const char *name;
	uint64_t start, end; /* [start, end) in the symbol's own addresses (a file's vaddrs) */
	uint32_t pid;        /* a process it ran in */
	bool shown;          /* passes the filters */
	uint64_t period, samples;
	struct ann_hit *hits; /* by address once annotate__finish() ran */
	size_t nr_hits, cap_hits;
	size_t merged; /* hits after the last merge */
};

/* A function's key beside its index, so that a lookup reads one line of the table. */
struct ann_memo;

struct ann_slot {
	const void *owner; /* NULL: empty */
	uint64_t start;
	uint32_t idx; /* into syms */
	char level;
	bool shown;
};

struct annotate {
	struct session *s;
	const struct filters *f; /* --dsos, --symbol and the SYMBOL arguments, or NULL */
	struct ann_sym *syms;    /* hottest first once finished */
	size_t nr, cap;
	struct ann_slot *slots; /* open addressing into syms, by (owner, start, level) */
	size_t nr_slots;
	/* the event annotated: the first one with samples */
	bool have_event;
	size_t event;
	const char *event_name;
	uint64_t total_period, total_samples; /* that event's, every function's */
	uint64_t weight; /* the samples one call stands for (presum.h); 0 is 1 */
	struct ann_memo *memo; /* functions by sample address */
};

void annotate__init(struct annotate *a, struct session *s, const struct filters *f);
/* A samples__for_each() callback: count the sample. 0 or -ENOMEM. */
int annotate__sample(struct samples *it, const struct sample *smp, void *ctx);
/* Merge each function's hits by address and order the functions, hottest first. 0 or -ENOMEM. */
int annotate__finish(struct annotate *a);
void annotate__release(struct annotate *a);

/* The code of one function, and where it came from. */
struct ann_code {
	uint8_t *bytes; /* malloc'd */
	size_t len;
	uint16_t machine; /* EM_* of the code */
	const char *source; /* "jitdump", "elf", "kcore", "vmlinux", "module file", "perf-map copy", "archive" */
	char from[512];     /* the file or section read */
	char note[256];     /* a caveat about the bytes ("" when none) */
	/*
	 * Code from a module's object file: its relocations in the function
	 * (ko-code.h); those not applied leave their instructions' operands
	 * (a call's target, an address) as the file has them.
	 */
	struct ko_code ko;
};

/* @r's address in its function's own addresses (ann_sym's start and end): a file's vaddr. */
uint64_t annotate__addr_of(const struct resolved *r);
/* @r's function, for annotate__code(), without counting it. */
void annotate__sym_of(struct annotate *a, const struct resolved *r, struct ann_sym *out);
/*
 * Find @sym's code. 0; -ENOENT with the reason in @why (@whylen bytes)
 * when it cannot be had; -ENOMEM.
 */
int annotate__code(struct annotate *a, const struct ann_sym *sym, struct ann_code *out, char *why,
		   size_t whylen);
void ann_code__release(struct ann_code *c);
/*
 * jrec archive: a JREC_FEAT_ARCHIVE_CODE section into @sec (empty when no
 * function's code was found) with the code of every counted function of a
 * file or of the kernel; *@nr how many. @on_target hears of each direct jump
 * or call target outside its function (in the function's address space, as
 * @in's), whose symbol the archive must name too. 0, -ENOMEM or what
 * @on_target returned.
 */
typedef int (*ann_target_fn)(void *ctx, const struct resolved *in, uint64_t target);
int annotate__archive_section(struct annotate *a, struct buf *sec, size_t *nr,
			      ann_target_fn on_target, void *ctx);

#endif
