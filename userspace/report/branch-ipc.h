/* SPDX-License-Identifier: GPL-2.0 */
/*
 * branch-ipc: perf report's "IPC   [IPC Coverage]" column of the branch
 * view, counted as perf counts it. Each sample whose newest branch has
 * cycles gives, for each branch with cycles, the basic block that ends at
 * the branch's source: it starts at the previous (older) branch's target
 * when that is in the same function (and before the source), and the
 * longest block seen for a source is the one counted. Once the samples are
 * counted, each function's code is read and decoded: a block's
 * instructions are those of the function between its start and its source
 * (both counted), and a block counts when its source is one of them. The
 * function's IPC is the counted blocks' instructions (times how often each
 * ran) over their cycles; its coverage, as perf 7.2 prints it, the counted
 * blocks' sources over all of the function's instructions (perf 6.1's
 * source marked every instruction of the blocks covered; perf's refactor of
 * its per-line cycles since keeps that mark on the branch sources only).
 */
#ifndef JREC_BRANCH_IPC_H
#define JREC_BRANCH_IPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "samples.h"

struct bipc_fn;

/* The basic blocks ending at one branch source of a function (perf's cyc_hist). */
struct bipc_block {
	uint32_t fn;	 /* the function's index (branch_ipc's fns) */
	uint64_t end;	 /* the source's offset in the function */
	uint64_t start;	 /* the counted blocks' first offset, when have_start */
	uint64_t cycles; /* theirs, summed */
	uint64_t num;	 /* how many */
	uint32_t reset;	 /* how often a longer block started the count again */
	bool have_start;
};

/* perf's bound on @reset, and the count past which the source's blocks are not shown */
#define BIPC_RESET_MAX	0xffff
#define BIPC_RESET_HIDE 0x7fff

/* A function's figures: IPC hit_insn / hit_cycles, coverage cover_insn / total_insn. */
struct bipc_figures {
	uint64_t hit_cycles, hit_insn, cover_insn, total_insn;
};

/*
 * One more block with @cycles ending at @x's source, from offset @start
 * when @have_start: the longest start seen wins (a shorter one is dropped,
 * a longer one starts the count again); one without a start counts only
 * while none with a start was seen.
 */
void bipc_block__count(struct bipc_block *x, bool have_start, uint64_t start, unsigned int cycles);
/*
 * The figures of a function whose @n instructions are at offsets @offs (in
 * order), from its @nblk blocks, into @fig.
 */
void bipc__figures(const struct bipc_block *blk, size_t nblk, const uint64_t *offs, size_t n,
		   struct bipc_figures *fig);

struct branch_ipc {
	struct session *s;
	struct bipc_fn *fns; /* the functions a branch with cycles left */
	size_t nr_fns, cap_fns;
	struct bipc_block *blocks; /* by (function, source) */
	size_t nr_blocks, cap_blocks;
	uint32_t *fn_slots, *block_slots; /* open addressing: index + 1, 0 empty */
	size_t nr_fn_slots, nr_block_slots;
	bool computed; /* the functions' counts are made (branch_ipc__fill()) */
};

void branch_ipc__init(struct branch_ipc *b, struct session *s);
/* Forget what was counted (a new count of the same recording). */
void branch_ipc__reset(struct branch_ipc *b);
/* @smp's branch stack's blocks with cycles. 0 or -ENOMEM. */
int branch_ipc__sample(struct branch_ipc *b, struct samples *it, const struct sample *smp);
/*
 * Each function's IPC and coverage, from its code, into the branch view's
 * entries of @h that name it as their target (hist_entry's ipc fields).
 * The first call computes them: count no more samples after it. 0 or -ENOMEM.
 */
int branch_ipc__fill(struct branch_ipc *b, struct hist *h);
void branch_ipc__release(struct branch_ipc *b);

#endif
