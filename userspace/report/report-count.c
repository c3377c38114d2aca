// SPDX-License-Identifier: GPL-2.0
/*
 * jrec report's counting (report.h): each sample the filters keep into its
 * event's histogram, by its own entry, its call chain's entries (--children),
 * its entry's call tree (-g), the flame graph outputs' tree, or the branch
 * view's entries.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "branch-view.h"
#include "report.h"

double report__elapsed(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The first frame of the chain whose function matches -p's pattern (perf's parent), or NULL. */
static const char *find_parent(struct report *r, const struct sample_frames *fr)
{
	size_t i;

	for (i = 0; i < fr->nr; i++)
		if (fr->res[i].sym && !regexec(&r->parent_re, fr->res[i].sym, 0, NULL, 0))
			return fr->res[i].sym;
	return NULL;
}

static void fill_key(struct report *r, const struct sample *smp, const char *comm,
		     const struct resolved *res, struct hist_key *k)
{
	hist_key__set(k, comm, smp->pid, smp->tid, res);
	k->cpu = r->have_cpu ? (int32_t)smp->cpu : -1;
	k->parent = r->parent;
	if (r->need_srcline)
		k->srcline = samples__srcline(&r->it, res);
	if (r->need_srcfile) {
		const char *line = samples__srcline_found(&r->it, res), *colon;
		char file[512];

		/* perf's srcfile: the file of the line, empty when no line table has it */
		colon = line ? strrchr(line, ':') : NULL;
		snprintf(file, sizeof(file), "%.*s", colon ? (int)(colon - line) : 0, line ? line : "");
		k->srcfile = strpool__str(&r->s.strings, file);
	}
	if (r->need_state)
		k->state = samples__state(&r->it);
}

/* The entry of frame @res of the current sample into @k, when the filters keep it. */
static bool frame_key(struct report *r, const struct sample *smp, const char *comm,
		      const struct resolved *res, struct hist_key *k)
{
	if (!filters__dso(&r->f, res->dso, res->anon_name) || !filters__sym(&r->f, res->sym) ||
	    !browser_zoom__keeps_dso(&r->zoom, res))
		return false;
	fill_key(r, smp, comm, res, k);
	return true;
}

/*
 * --children: the entry of each frame, remembered per (process, thread,
 * comm, event, address, level) for as long as the address resolves the same
 * (its validity span), so that a frame seen before costs one look here
 * instead of a key and a lookup. What the memo holds is what frame_key() and
 * the lookup would give; a slot taken by another frame is only computed again.
 */
#define CHAIN_MEMO_SIZE 4096 /* a power of two */
#define MEMO_SKIP UINT32_MAX /* the frame's entry is filtered out */

struct chain_memo {
	uint64_t ip, from, until; /* until 0: empty */
	const char *comm;
	const char *sym; /* an address's inlined functions are frames of their own */
	const struct hist *h;
	uint32_t pid, tid;
	uint32_t idx; /* the hist entry, or MEMO_SKIP */
	char level;
};

static int add_frame(struct report *r, struct hist *h, const struct sample *smp, const char *comm,
		     uint64_t ip, const struct resolved *res, uint32_t depth)
{
	uint64_t hash = (ip ^ (uint64_t)smp->tid << 32 ^ (uint64_t)res->level) * 0x9e3779b97f4a7c15ULL;
	struct chain_memo *m = &r->memo[hash >> 52 & (CHAIN_MEMO_SIZE - 1)];
	struct hist_key k;
	uint32_t idx = MEMO_SKIP;
	int err = 0;

	if (m->ip == ip && m->sym == res->sym && m->level == res->level && m->h == h &&
	    m->pid == smp->pid &&
	    m->tid == smp->tid && m->comm == comm && m->from <= smp->time && smp->time < m->until) {
		if (m->idx != MEMO_SKIP) {
			hist__add_chain_idx(h, m->idx, smp->period, depth);
			hist__note_thread(h, m->idx, smp->pid, smp->tid, smp->time);
			if (!m->sym)
				hist__note_level(h, m->idx, m->level, smp->time);
		}
		return 0;
	}
	if (frame_key(r, smp, comm, res, &k)) {
		err = hist__add_chain_at(h, &k, smp->period, depth, &idx);
		if (!err)
			hist__note_thread(h, idx, smp->pid, smp->tid, smp->time);
		if (!err && !res->sym)
			hist__note_level(h, idx, res->level, smp->time);
	}
	if (!err && res->valid_until > smp->time) {
		m->ip = ip;
		m->sym = res->sym;
		m->level = res->level;
		m->h = h;
		m->pid = smp->pid;
		m->tid = smp->tid;
		m->comm = comm;
		m->from = res->valid_from;
		m->until = res->valid_until;
		m->idx = idx;
	}
	return err;
}

/*
 * The flat report (no chains, no key that is worked out per sample), and
 * the flame graph outputs' samples without a chain: the entry of a sample's
 * own address (and its node of the flame graph's tree), remembered per
 * (histogram, process, address, mode, and the thread, comm and CPU when the
 * keys or filters tell them apart) for the sample times over which the
 * address resolves the same, so that a sample seen before costs one look
 * here instead of its resolution, key and lookup. Only entries the filters
 * keep and whose function is an ELF or kernel symbol are remembered; a slot
 * taken by another address is only computed again.
 */
#define SELF_MEMO_SIZE 2048 /* a power of two */

struct self_memo {
	uint64_t ip, from, until; /* until 0: empty */
	const char *comm;
	const struct hist *h;
	uint32_t pid, tid, cpu;
	uint32_t idx;	/* the hist entry */
	uint32_t flame; /* the flame graph's node of [comm, function], CT_NONE without one */
	uint16_t mode;
};

/* Whether samples are counted by their own entry only, the same for the same address. */
static bool self_only(const struct report *r)
{
	return !r->need_srcline && !r->need_srcfile && !r->need_state && !r->need_parent &&
	       !r->exclude_other && !r->branch_mode && !r->children &&
	       r->graph.mode == GRAPH_NONE;
}

/*
 * Whether sample @smp is: in the flame graph outputs, when it has no chain
 * (its stack is the command and its own function).
 */
static bool self_only_sample(const struct report *r, const struct sample *smp)
{
	const struct pr_sample *s = &smp->ev->sample;

	return r->flat && (!r->want_flame || (!s->nr_callchain && !(s->regs_abi && s->stack_size)));
}

/* The memo's slot for the sample, its key filled into @key. */
static struct self_memo *self_slot(struct report *r, const struct hist *h,
				   const struct sample *smp, const char *comm,
				   struct self_memo *key)
{
	uint64_t hash;

	key->ip = smp->ev->sample.ip;
	key->comm = comm;
	key->h = h;
	key->pid = smp->pid;
	key->tid = h->has[SK_PID] || h->has[SK_TID] ? smp->tid : 0;
	key->cpu = h->has[SK_CPU] ? smp->cpu : 0;
	key->mode = smp->ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	hash = (key->ip ^ (uint64_t)key->pid << 40 ^ (uint64_t)key->tid << 20 ^ key->cpu ^
		(uint64_t)key->mode << 56) *
	       0x9e3779b97f4a7c15ULL;
	return &r->self_memo[hash >> 40 & (SELF_MEMO_SIZE - 1)];
}

static bool self_hit(const struct self_memo *m, const struct self_memo *key, uint64_t time)
{
	return m->ip == key->ip && m->pid == key->pid && m->h == key->h && m->tid == key->tid &&
	       m->mode == key->mode && m->cpu == key->cpu && m->comm == key->comm &&
	       m->from <= time && time < m->until;
}

/* The mode perf's walk of a sample's chain starts in: the sample's own */
static char walk_start(const struct sample *smp, const struct hist_key *self)
{
	if (self)
		return self->level;
	return (smp->ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ? RES_KERNEL
											  : RES_USER;
}

/* The frame at step @j of a walk over @n frames: from the outermost caller on when @caller. */
static inline size_t walk_index(size_t n, size_t j, bool caller)
{
	return caller ? n - 1 - j : j;
}

/*
 * Frame @i of @fr as perf's entry of it, in perf's walk of the chain: an
 * unnamed frame at its address as it is (not the file offset its own
 * sample's entry shows) and, where no mapping covers it, in the mode of the
 * last mapped frame before it (@level, which this updates). The copy goes to
 * @tmp when one is needed.
 */
static const struct resolved *walk_frame(const struct sample_frames *fr, size_t i, char *level,
					 struct resolved *tmp)
{
	const struct resolved *res = &fr->res[i];
	bool unmapped = resolved__unmapped(res);

	if (!unmapped)
		*level = res->level;
	if (res->sym || (res->addr == fr->ips[i] && (!unmapped || res->level == *level)))
		return res;
	*tmp = *res;
	tmp->addr = fr->ips[i];
	if (unmapped)
		tmp->level = *level;
	return tmp;
}

/*
 * --children: every entry the sample's frames pass through, the sample's
 * own (@self, NULL when -S left it out) included, gets its period once.
 */
static int add_children(struct report *r, struct hist *h, const struct sample *smp,
			const char *comm, const struct hist_key *self,
			const struct sample_frames *fr)
{
	size_t i, j;
	int err = self ? hist__add_chain(h, self, smp->period, (uint32_t)fr->nr) : 0;
	bool caller = !r->graph.order_set || r->graph.caller;
	char level = walk_start(smp, self);
	struct resolved tmp;

	if (!r->memo && !(r->memo = calloc(CHAIN_MEMO_SIZE, sizeof(*r->memo))))
		return -ENOMEM;
	for (j = 0; j < fr->nr && !err; j++) {
		/* in the order perf walks the chain: the call graph's, caller unless set */
		i = walk_index(fr->nr, j, caller);
		err = add_frame(r, h, smp, comm, fr->ips[i], walk_frame(fr, i, &level, &tmp),
				(uint32_t)(fr->nr - j));
	}
	return err;
}

/* The frames' ids in @t, outermost first when @caller, into r->frames after @skip slots. */
static int chain_frames(struct report *r, struct calltree *t, const struct sample_frames *fr,
			bool caller, size_t skip)
{
	size_t i, n = fr->nr;
	int err;

	if (array_grow(&r->frames, &r->cap_frames, n + skip))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = calltree__frame(t, &fr->res[walk_index(n, i, caller)], &r->frames[skip + i]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * -g: the sample's entry gets the whole chain; with --children, every entry
 * the chain passes through gets the part from its first place in the chain's
 * order on (as perf's: from the entry to the sampled function when callers
 * come first).
 */
static int add_graph(struct report *r, struct hist *h, const struct sample *smp,
		     const char *comm, const struct hist_key *self, const struct sample_frames *fr)
{
	bool caller = r->graph.caller;
	size_t i, n = fr->nr;
	struct hist_key k;
	struct resolved tmp;
	char level = walk_start(smp, self);
	int err = chain_frames(r, &r->ct, fr, caller, 0);

	if (!err)
		err = hist__add_tree(h, self, &r->ct, r->frames, n, smp->period);
	for (i = 0; i < n && h->children && !err; i++)
		if (frame_key(r, smp, comm, walk_frame(fr, walk_index(n, i, caller), &level, &tmp),
			      &k))
			err = hist__add_tree(h, &k, &r->ct, r->frames + i, n - i, smp->period);
	return err;
}

/*
 * The flame graph outputs: the command (its frame remembered for the last
 * comm seen), then the frames from the outermost caller, under @h's root.
 */
static int add_flame(struct report *r, struct hist *h, const char *comm,
		     const struct sample_frames *fr, uint64_t period, uint32_t *leaf)
{
	int err = chain_frames(r, &r->flame, fr, true, 1);

	if (!err && (!r->comm_frame_set || r->comm_frame_of != comm)) {
		err = calltree__process(&r->flame, comm, &r->comm_frame);
		r->comm_frame_of = comm;
		r->comm_frame_set = !err;
	}
	if (err)
		return err;
	r->frames[0] = r->comm_frame;
	if (h->flame_root == CT_NONE)
		err = calltree__new_root(&r->flame, &h->flame_root);
	return err ? err : calltree__add(&r->flame, h->flame_root, r->frames, fr->nr + 1, period,
						leaf);
}

static int on_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct report *r = ctx;
	const struct sample_frames *fr;
	struct sample_frames lim;
	const struct resolved *res;
	struct hist_key k, *self = NULL;
	struct self_memo *memo = NULL, memo_key;
	const char *comm;
	uint32_t idx;
	struct hist *h;
	int err = 0;

	if (r->progress && !(++r->done & 0xffff) && report__elapsed(&r->t0) > 1.0)
		fprintf(stderr, "\rjrec report: %3.0f%% of the samples", 100.0 * samples__progress(it));
	h = &r->hs[smp->event < r->nr_hs && !r->wall ? smp->event : 0];
	/* --time selects the samples the report is of, as perf's; the other filters hide */
	if (!filters__time(&r->f, smp->time) ||
	    !browser_zoom__keeps_task(&r->zoom, smp->pid, smp->tid))
		return 0;
	if (r->event && strcmp(smp->event_name, r->event))
		return 0;
	if (!filters__task(&r->f, smp->pid, smp->tid, smp->time)) {
		/* --pid, --tid: as perf's --percentage absolute, shares stay those of all samples */
		if (!r->relative)
			hist__count(h, smp->period);
		return 0;
	}
	comm = r->need_comm ? samples__comm(it) : NULL;
	if (self_only_sample(r, smp)) {
		if (!r->self_memo && !(r->self_memo = calloc(SELF_MEMO_SIZE, sizeof(*r->self_memo))))
			return -ENOMEM;
		memo = self_slot(r, h, smp, comm, &memo_key);
		if (self_hit(memo, &memo_key, smp->time)) {
			hist__add_idx(h, memo->idx, smp->period);
			hist__note_thread(h, memo->idx, smp->pid, smp->tid, smp->time);
			if (memo->flame != CT_NONE)
				calltree__add_again(&r->flame, memo->flame, smp->period);
			return 0;
		}
	}
	res = samples__self(it);
	if (!filters__comm(&r->f, comm) || !filters__dso(&r->f, res->dso, res->anon_name) ||
	    !browser_zoom__keeps_dso(&r->zoom, res)) {
		/* as perf's --percentage absolute: shares stay those of all samples */
		if (!r->relative)
			hist__count(h, smp->period);
		return 0;
	}
	if (r->relative && !filters__sym(&r->f, res->sym))
		return 0;
	if (r->need_parent || r->exclude_other) {
		err = samples__frames(it, &fr);
		if (err)
			return err;
		r->parent = find_parent(r, fr);
		if (r->exclude_other && !r->parent) {
			/* -x: a sample without a parent is left out, its share kept (absolute) */
			if (!r->relative)
				hist__count(h, smp->period);
			return 0;
		}
	}
	if (r->branch_mode) {
		fill_key(r, smp, comm, res, &k);
		err = branch_view__add(it, smp, &k, h);
		if (!err && h->has[SK_IPC])
			err = branch_ipc__sample(&r->ipc, it, smp);
		return err;
	}
	if (filters__sym(&r->f, res->sym)) {
		self = &k;
		fill_key(r, smp, comm, res, self);
		err = hist__add_at(h, self, smp->period, &idx);
		if (!err)
			hist__note_thread(h, idx, smp->pid, smp->tid, smp->time);
		if (!err && memo && res->sym && !res->jit && res->valid_until > smp->time) {
			memo_key.from = res->valid_from;
			memo_key.until = res->valid_until;
			memo_key.idx = idx;
			memo_key.flame = CT_NONE;
		} else {
			memo = NULL;
		}
		if (!err && !res->sym) {
			hist__note_level(h, idx, self->level, smp->time);
			err = hist__add_unresolved(h, res->dso, self->anon, res->why, smp->period);
		}
		else if (!err && res->jit && res->dso)
			err = hist__add_image(h, res->dso, smp->period);
	} else {
		/* -S as perf's --symbols: percentages stay the whole profile's */
		hist__count(h, smp->period);
		memo = NULL;
	}
	if (!err && memo && !r->want_flame)
		*memo = memo_key;
	if (err || !(r->children || (self && (r->graph.mode != GRAPH_NONE || r->want_flame))))
		return err;
	err = samples__frames(it, &fr);
	if (!err && r->max_stack && (fr->nr > r->max_stack || fr->nr_chain > r->max_stack)) {
		/* --max-stack: the innermost frames only */
		lim = *fr;
		lim.nr = lim.nr > r->max_stack ? r->max_stack : lim.nr;
		lim.nr_chain = lim.nr_chain > r->max_stack ? r->max_stack : lim.nr_chain;
		fr = &lim;
	}
	if (!err && r->children)
		err = add_children(r, h, smp, comm, self, fr);
	if (!err && self && r->graph.mode != GRAPH_NONE)
		err = add_graph(r, h, smp, comm, self, fr);
	if (!err && self && r->want_flame) {
		err = add_flame(r, h, comm, fr, smp->period, &memo_key.flame);
		/* the memo's node is the one of [comm, function] only */
		if (!err && memo && fr->nr == 1)
			*memo = memo_key;
	}
	return err;
}

void report__presum(struct report *r)
{
	if (!self_only(r) || r->wall || r->f.has_time || filters__time_needs_bounds(&r->f))
		return;
	r->presum.chainless = r->want_flame;
	presum__attach(&r->presum, &r->s);
}

/* presum__feed()'s weight: each histogram's and the flame tree's */
static void report_weight(void *ctx, uint64_t n)
{
	struct report *r = ctx;
	size_t k;

	for (k = 0; k < r->nr_hs; k++)
		r->hs[k].weight = n;
	r->flame.weight = n;
}

/* The branch view's IPC column: each function's, once every sample is counted */
static int count_ipc(struct report *r)
{
	size_t k;
	int err;

	for (k = 0; k < r->nr_hs; k++)
		if (r->branch_mode && r->hs[k].has[SK_IPC] && (err = branch_ipc__fill(&r->ipc, &r->hs[k])))
			return err;
	return 0;
}

int report__count(struct report *r)
{
	int err;

	r->flat = self_only(r);
	/* the groups are all checked before the first is counted: none holds, none counted */
	if (r->flat && presum__usable(&r->presum)) {
		err = presum__feed(&r->presum, &r->it, r->need_comm, on_sample, report_weight, r);
		if (err <= 0)
			return err;
	}
	branch_ipc__reset(&r->ipc);
	r->ipc.s = &r->s;
	err = samples__for_each(&r->it, on_sample, NULL, r);
	return err ? err : count_ipc(r);
}

void report__forget_frames(struct report *r)
{
	if (r->memo)
		memset(r->memo, 0, CHAIN_MEMO_SIZE * sizeof(*r->memo));
	if (r->self_memo)
		memset(r->self_memo, 0, SELF_MEMO_SIZE * sizeof(*r->self_memo));
}

void report__count_release(struct report *r)
{
	free(r->memo);
	r->memo = NULL;
	free(r->self_memo);
	r->self_memo = NULL;
	presum__release(&r->presum);
	branch_ipc__release(&r->ipc);
}
