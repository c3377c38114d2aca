// SPDX-License-Identifier: GPL-2.0
/* perf report's IPC column of the branch view (branch-ipc.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "array.h"
#include "branch-ipc.h"
#include "branch-view.h"
#include "disasm.h"
#include "perf-reader.h"

/* A function some branch with cycles left. */
struct bipc_fn {
	struct resolved res;   /* the first such branch's source */
	struct hist_side side; /* as the branch view's entries name it */
	struct bipc_figures fig;
};

void branch_ipc__init(struct branch_ipc *b, struct session *s)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
}

void branch_ipc__reset(struct branch_ipc *b)
{
	b->nr_fns = b->nr_blocks = 0;
	b->computed = false;
	if (b->fn_slots)
		memset(b->fn_slots, 0, b->nr_fn_slots * sizeof(*b->fn_slots));
	if (b->block_slots)
		memset(b->block_slots, 0, b->nr_block_slots * sizeof(*b->block_slots));
}

void branch_ipc__release(struct branch_ipc *b)
{
	if (!b)
		return;
	free(b->fns);
	free(b->blocks);
	free(b->fn_slots);
	free(b->block_slots);
	memset(b, 0, sizeof(*b));
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint64_t side_hash(const struct hist_side *sd)
{
	return mix((uint64_t)(uintptr_t)sd->dso ^ mix((uint64_t)(uintptr_t)sd->sym) ^
		   sd->sym_start * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uint8_t)sd->level);
}

static bool same_fn(const struct hist_side *a, const struct hist_side *b)
{
	return a->dso == b->dso && a->anon == b->anon && a->sym == b->sym &&
	       a->sym_start == b->sym_start && a->level == b->level;
}

/* Re-index @n entries into @slots (@nr_slots, a power of two) by @hash_of. */
static int grow(uint32_t **slots, size_t *nr_slots, size_t n, uint64_t (*hash_of)(void *, size_t),
		void *ctx)
{
	size_t cap = *nr_slots ? *nr_slots * 2 : 256, i;
	uint32_t *s;

	while (cap < 2 * (n + 1))
		cap *= 2;
	s = calloc(cap, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		size_t k = hash_of(ctx, i) & (cap - 1);

		while (s[k])
			k = (k + 1) & (cap - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(*slots);
	*slots = s;
	*nr_slots = cap;
	return 0;
}

static uint64_t fn_hash_at(void *ctx, size_t i)
{
	return side_hash(&((struct branch_ipc *)ctx)->fns[i].side);
}

static uint64_t block_hash(uint32_t fn, uint64_t end)
{
	return mix((uint64_t)fn * 0x9e3779b97f4a7c15ULL ^ mix(end));
}

static uint64_t block_hash_at(void *ctx, size_t i)
{
	const struct bipc_block *x = &((struct branch_ipc *)ctx)->blocks[i];

	return block_hash(x->fn, x->end);
}

/* The index of the function named @sd, or -1 when none is known. */
static long find_fn(const struct branch_ipc *b, const struct hist_side *sd)
{
	size_t k;

	if (!b->nr_fn_slots)
		return -1;
	for (k = side_hash(sd) & (b->nr_fn_slots - 1); b->fn_slots[k];
	     k = (k + 1) & (b->nr_fn_slots - 1))
		if (same_fn(&b->fns[b->fn_slots[k] - 1].side, sd))
			return (long)b->fn_slots[k] - 1;
	return -1;
}

/* The index of @res's function, added when new; -ENOMEM. */
static long fn_of(struct branch_ipc *b, const struct resolved *res, const struct hist_side *sd)
{
	long i = find_fn(b, sd);
	size_t k;

	if (i >= 0)
		return i;
	if ((b->nr_fns + 1) * 2 > b->nr_fn_slots &&
	    grow(&b->fn_slots, &b->nr_fn_slots, b->nr_fns, fn_hash_at, b))
		return -ENOMEM;
	if (array_grow(&b->fns, &b->cap_fns, b->nr_fns + 1))
		return -ENOMEM;
	memset(&b->fns[b->nr_fns], 0, sizeof(b->fns[0]));
	b->fns[b->nr_fns].res = *res;
	b->fns[b->nr_fns].side = *sd;
	for (k = side_hash(sd) & (b->nr_fn_slots - 1); b->fn_slots[k];)
		k = (k + 1) & (b->nr_fn_slots - 1);
	b->fn_slots[k] = (uint32_t)++b->nr_fns;
	return (long)b->nr_fns - 1;
}

/* The blocks ending at @end of function @fn, added empty when new; NULL on -ENOMEM. */
static struct bipc_block *block_of(struct branch_ipc *b, uint32_t fn, uint64_t end)
{
	struct bipc_block *x;
	size_t k;

	if (b->nr_block_slots)
		for (k = block_hash(fn, end) & (b->nr_block_slots - 1); b->block_slots[k];
		     k = (k + 1) & (b->nr_block_slots - 1)) {
			x = &b->blocks[b->block_slots[k] - 1];
			if (x->fn == fn && x->end == end)
				return x;
		}
	if ((b->nr_blocks + 1) * 2 > b->nr_block_slots &&
	    grow(&b->block_slots, &b->nr_block_slots, b->nr_blocks, block_hash_at, b))
		return NULL;
	if (array_grow(&b->blocks, &b->cap_blocks, b->nr_blocks + 1))
		return NULL;
	x = &b->blocks[b->nr_blocks];
	memset(x, 0, sizeof(*x));
	x->fn = fn;
	x->end = end;
	for (k = block_hash(fn, end) & (b->nr_block_slots - 1); b->block_slots[k];)
		k = (k + 1) & (b->nr_block_slots - 1);
	b->block_slots[k] = (uint32_t)++b->nr_blocks;
	return x;
}

void bipc_block__count(struct bipc_block *x, bool have_start, uint64_t start, unsigned int cycles)
{
	if (!have_start && x->have_start)
		return;
	if (x->num && have_start) {
		if (!x->have_start || x->start > start) {
			x->have_start = false;
			x->cycles = 0;
			x->num = 0;
			if (x->reset < BIPC_RESET_MAX)
				x->reset++;
		} else if (x->start < start) {
			return;
		}
	}
	x->have_start = have_start;
	x->start = have_start ? start : 0;
	x->cycles += cycles;
	x->num++;
}

int branch_ipc__sample(struct branch_ipc *b, struct samples *it, const struct sample *smp)
{
	const struct pr_sample *ps = &smp->ev->sample;
	const struct pr_attr *attr = samples__event(it, smp->event);
	/* a stack of branches of some kinds only: its blocks have no known start */
	bool any = attr && (attr->branch_sample_type & PERF_SAMPLE_BRANCH_ANY);
	struct resolved from, prev_to;
	struct hist_side fs, ps_side;
	bool have_prev = false;
	uint64_t i, a, t;
	uint16_t cycles;

	if (!ps->nr_branches)
		return 0;
	pr_branch_at(ps, 0, &a, &t, &cycles);
	if (!cycles) /* as perf: the stack's cycles are read when its newest branch has them */
		return 0;
	/* oldest first: each block runs from the older branch's target to this one's source */
	for (i = ps->nr_branches; i-- > 0;) {
		struct bipc_block *x;
		uint64_t start = 0, end;
		bool have_start = false;
		long fn;

		pr_branch_at(ps, i, &a, &t, &cycles);
		if (cycles) {
			branch_view__resolve_end(it, smp, a, &from);
			if (from.sym) {
				hist_side__set(&fs, &from);
				end = annotate__addr_of(&from) - from.sym_start;
				if (have_prev && any && prev_to.sym) {
					hist_side__set(&ps_side, &prev_to);
					if (same_fn(&ps_side, &fs) ||
					    (prev_to.dso == from.dso &&
					     annotate__addr_of(&prev_to) == from.sym_start)) {
						start =
						    annotate__addr_of(&prev_to) - from.sym_start;
						have_start = start < end;
					}
				}
				fn = fn_of(b, &from, &fs);
				if (fn < 0)
					return (int)fn;
				x = block_of(b, (uint32_t)fn, end);
				if (!x)
					return -ENOMEM;
				bipc_block__count(x, have_start, start, cycles);
			}
		}
		branch_view__resolve_end(it, smp, t, &prev_to);
		have_prev = true;
	}
	return 0;
}

static int cmp_block(const void *x, const void *y)
{
	const struct bipc_block *a = x, *b = y;

	if (a->fn != b->fn)
		return a->fn < b->fn ? -1 : 1;
	return a->end > b->end ? -1 : a->end < b->end; /* the last source first */
}

/* The first of @n sorted offsets at or after @off. */
static size_t first_at(const uint64_t *offs, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (offs[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Function @f's instructions' offsets (in order) into *@offs, *@n of them;
 * none when its code cannot be had or decoded (perf shows it uncovered).
 */
static int fn_insns(struct annotate *an, struct disasm **dis, uint16_t *dis_machine,
		    const struct bipc_fn *f, uint64_t **offs, size_t *n)
{
	struct ann_code code;
	struct ann_sym y;
	struct disasm_insn in;
	size_t off = 0, cap = 0, sz;
	char why[256];
	int err;

	*n = 0;
	annotate__sym_of(an, &f->res, &y);
	err = annotate__code(an, &y, &code, why, sizeof(why));
	if (err)
		return err == -ENOMEM ? err : 0;
	if (*dis && *dis_machine != code.machine) {
		disasm__delete(*dis);
		*dis = NULL;
	}
	if (!*dis &&
	    (!disasm__supported(code.machine) || disasm__new(code.machine, DISASM_ATT, dis))) {
		ann_code__release(&code);
		return 0;
	}
	*dis_machine = code.machine;
	if (code.len > y.end - y.start) /* the symbol's bytes only, as objdump is asked for them */
		code.len = (size_t)(y.end - y.start);
	while ((sz = disasm__one(*dis, code.bytes + off, code.len - off, y.start + off, &in))) {
		if (array_grow(offs, &cap, *n + 1)) {
			ann_code__release(&code);
			return -ENOMEM;
		}
		(*offs)[(*n)++] = off;
		off += sz;
	}
	ann_code__release(&code);
	return 0;
}

void bipc__figures(const struct bipc_block *blk, size_t nblk, const uint64_t *offs, size_t n,
		   struct bipc_figures *fig)
{
	size_t i;

	memset(fig, 0, sizeof(*fig));
	fig->total_insn = n;
	for (i = 0; i < nblk; i++) {
		const struct bipc_block *x = &blk[i];
		size_t lo, hi;

		if (!x->have_start || !x->cycles || !x->num || x->reset >= BIPC_RESET_HIDE)
			continue;
		lo = first_at(offs, n, x->start);
		hi = first_at(offs, n, x->end + 1); /* the source's instruction is the block's */
		if (lo >= hi || offs[hi - 1] != x->end)
			continue;
		fig->hit_cycles += x->cycles;
		fig->hit_insn += (hi - lo) * x->num;
		fig->cover_insn++;
	}
}

/* Each function's counts, from its code. 0 or -ENOMEM. */
static int compute(struct branch_ipc *b)
{
	struct annotate an;
	struct disasm *dis = NULL;
	uint16_t dis_machine = 0;
	uint64_t *offs = NULL;
	size_t i = 0, j, n;
	int err = 0;

	qsort(b->blocks, b->nr_blocks, sizeof(*b->blocks), cmp_block);
	/* (the index by source is stale from here: a new count resets it) */
	if (b->block_slots)
		memset(b->block_slots, 0, b->nr_block_slots * sizeof(*b->block_slots));
	annotate__init(&an, b->s, NULL);
	while (i < b->nr_blocks && !err) {
		struct bipc_fn *f = &b->fns[b->blocks[i].fn];

		for (j = i; j < b->nr_blocks && b->blocks[j].fn == b->blocks[i].fn; j++)
			;
		err = fn_insns(&an, &dis, &dis_machine, f, &offs, &n);
		if (!err)
			bipc__figures(&b->blocks[i], j - i, offs, n, &f->fig);
		i = j;
	}
	free(offs);
	disasm__delete(dis);
	annotate__release(&an);
	return err;
}

int branch_ipc__fill(struct branch_ipc *b, struct hist *h)
{
	size_t i;
	int err;

	if (!b->computed) {
		err = compute(b);
		if (err)
			return err;
		b->computed = true;
	}
	for (i = 0; i < h->nr; i++) {
		struct hist_entry *e = &h->e[i];
		long fi;

		if (!e->k.to.level || !e->k.to.sym || (fi = find_fn(b, &e->k.to)) < 0)
			continue;
		const struct bipc_figures *g = &b->fns[fi].fig;

		if (g->hit_cycles)
			e->ipc = (double)g->hit_insn / (double)g->hit_cycles;
		if (g->total_insn)
			e->ipc_cover = (double)g->cover_insn * 100.0 / (double)g->total_insn;
	}
	return 0;
}
