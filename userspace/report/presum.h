/* SPDX-License-Identifier: GPL-2.0 */
/*
 * presum: the samples of a flat report summed while the first pass reads
 * the recording, so that the report needs no second pass over it.
 *
 * A flat report's entry for a sample depends only on its event, mode,
 * process, thread, CPU and address, and on its time only through what the
 * history says that address was when it ran. The first pass groups samples
 * by the first six, in the order each group's first sample comes in the
 * file, with its count, summed period and first and last times. A group
 * counts as one sample standing for them all (hist's weight) once its
 * address resolves the same over its whole time span: report__count()
 * checks every group and reads the samples again when one does not.
 * A recording with more groups than PRESUM_MAX is read again too, and for
 * the flame graphs (which count a sample by its chain) one with chains.
 */
#ifndef JREC_PRESUM_H
#define JREC_PRESUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf-reader.h"
#include "samples.h"

#define PRESUM_MAX 16384 /* groups; 2 MiB of table at most */

/* One cache line. */
struct presum_group {
	const struct pr_attr *attr;
	uint64_t ip;
	uint32_t pid, tid, cpu;
	uint16_t misc; /* the cpumode bits */
	uint64_t n, period; /* n = 0: a free slot */
	uint64_t first, last; /* the times of its earliest and latest sample */
};

struct presum {
	struct presum_group *slots; /* open addressing, nr_slots a power of two */
	size_t nr_slots;
	uint32_t *order; /* the groups' slots, in the order of each one's first sample */
	size_t nr;
	bool over;	/* given up: more than PRESUM_MAX groups, or no memory */
	bool chainless; /* give up at a sample with a call chain or a stack copy */
};

struct session;

/* Sample @ev, at @time, into its group: 0 (over set when it gives up). */
int presum__add(struct presum *p, const struct pr_event *ev, uint64_t time);
/*
 * Before session__load(): @s's first pass sums its samples into @p, unless
 * JREC_REPORT_SECOND_PASS is set (then @p stays unusable).
 */
void presum__attach(struct presum *p, struct session *s);
/* Whether the groups hold every sample of the pass. */
bool presum__usable(const struct presum *p);
/* Group @i (< nr) in the order of the groups' first samples. */
const struct presum_group *presum__group(const struct presum *p, size_t i);
/*
 * Each group given to @fn as one sample (samples__feed(), at its first time,
 * its period the sum), @weight(@ctx, n) told how many it stands for before
 * and 0 after: once every group's address resolves the same over its times
 * and, with @comm, each thread keeps one name over them. 0, 1 when one does
 * not hold (then none was given), or what @fn returned.
 */
int presum__feed(const struct presum *p, struct samples *it, bool comm, sample_fn fn,
		 void (*weight)(void *ctx, uint64_t n), void *ctx);
void presum__release(struct presum *p);

#endif
