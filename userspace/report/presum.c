// SPDX-License-Identifier: GPL-2.0
/* presum: a flat report's samples grouped in the first pass (presum.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bigalloc.h"
#include "presum.h"
#include "resolve.h"
#include "session.h"

/*
 * The groups live in an open-addressed table, a cache line each, found in
 * one probe most of the time: a pass reads hundreds of thousands of samples
 * a second, and a chain's head and its group were two misses a sample.
 * order[] keeps the order of their first samples. The table is mapped, not
 * taken from the heap: the objects the first pass allocates there (files,
 * names) keep the addresses they get without it, which the flame graphs
 * order equal frames by (calltree.c, as perf).
 */
#define PRESUM_SLOTS_MIN 1024 /* a power of two; twice the groups at most */
_Static_assert(sizeof(struct presum_group) == 64, "a group is one cache line");

static void table_free(struct presum *p)
{
	big_free(p->slots, p->nr_slots * sizeof(*p->slots));
	big_free(p->order, PRESUM_MAX * sizeof(*p->order));
	memset(p, 0, sizeof(*p));
}

/* The first slot of the group of these keys, in a table of @nr_slots. */
static size_t home_slot(uint64_t ip, uint32_t pid, uint32_t tid, uint32_t cpu,
			const struct pr_attr *attr, size_t nr_slots)
{
	uint64_t h = (ip ^ (uint64_t)tid << 32 ^ (uint64_t)pid << 16 ^ cpu ^ (uintptr_t)attr) *
		     0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 40) & (nr_slots - 1);
}

static void give_up(struct presum *p)
{
	table_free(p);
	p->over = true;
}

/* Twice the slots, the groups put in again in their order. 0 or -ENOMEM. */
static int grow(struct presum *p)
{
	size_t nr = p->nr_slots * 2, i;
	struct presum_group *slots = big_zalloc(nr * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < p->nr; i++) {
		const struct presum_group *g = &p->slots[p->order[i]];
		size_t k = home_slot(g->ip, g->pid, g->tid, g->cpu, g->attr, nr);

		while (slots[k].n)
			k = (k + 1) & (nr - 1);
		slots[k] = *g;
		p->order[i] = (uint32_t)k;
	}
	big_free(p->slots, p->nr_slots * sizeof(*p->slots));
	p->slots = slots;
	p->nr_slots = nr;
	return 0;
}

int presum__add(struct presum *p, const struct pr_event *ev, uint64_t time)
{
	uint16_t misc = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct presum_group *g;
	size_t k;

	if (p->over)
		return 0;
	if (p->chainless &&
	    (ev->sample.nr_callchain || (ev->sample.regs_abi && ev->sample.stack_size))) {
		give_up(p);
		return 0;
	}
	if (!p->slots) {
		p->slots = big_zalloc(PRESUM_SLOTS_MIN * sizeof(*p->slots));
		p->order = big_zalloc(PRESUM_MAX * sizeof(*p->order));
		p->nr_slots = PRESUM_SLOTS_MIN;
		if (!p->slots || !p->order) {
			give_up(p);
			return 0;
		}
	}
	k = home_slot(ev->sample.ip, ev->id.pid, ev->id.tid, ev->id.cpu, ev->attr, p->nr_slots);
	for (g = &p->slots[k]; g->n; g = &p->slots[k]) {
		if (g->ip == ev->sample.ip && g->tid == ev->id.tid && g->pid == ev->id.pid &&
		    g->cpu == ev->id.cpu && g->attr == ev->attr && g->misc == misc) {
			g->n++;
			g->period += ev->sample.period;
			if (time < g->first)
				g->first = time;
			if (time > g->last)
				g->last = time;
			return 0;
		}
		k = (k + 1) & (p->nr_slots - 1);
	}
	if (p->nr == PRESUM_MAX) {
		give_up(p);
		return 0;
	}
	g->attr = ev->attr;
	g->ip = ev->sample.ip;
	g->pid = ev->id.pid;
	g->tid = ev->id.tid;
	g->cpu = ev->id.cpu;
	g->misc = misc;
	g->n = 1;
	g->period = ev->sample.period;
	g->first = g->last = time;
	p->order[p->nr++] = (uint32_t)k;
	/* at most half full, so that a probe ends soon */
	if (2 * p->nr > p->nr_slots && grow(p))
		give_up(p);
	return 0;
}

const struct presum_group *presum__group(const struct presum *p, size_t i)
{
	return &p->slots[p->order[i]];
}

static int pass1_sample(const struct pr_event *ev, uint64_t time, void *ctx)
{
	return presum__add(ctx, ev, time);
}

void presum__attach(struct presum *p, struct session *s)
{
	/* the check that the sums change nothing: the samples counted in a pass of their own */
	size_t i;

	if (getenv("JREC_REPORT_SECOND_PASS"))
		return;
	/* a sample that read its counters is one per counter (samples.c): not summed as one */
	for (i = 0; i < perf_reader__nr_attrs(s->r); i++)
		if (perf_reader__attr(s->r, i)->sample_type & PERF_SAMPLE_READ)
			return;
	s->pass1_sample = pass1_sample;
	s->pass1_ctx = p;
}

bool presum__usable(const struct presum *p)
{
	return !p->over && p->slots;
}

void presum__release(struct presum *p)
{
	table_free(p);
}

/* Group @g as a sample at its first time, of its summed period. */
static void group_event(const struct presum_group *g, struct pr_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_RECORD_SAMPLE;
	ev->misc = g->misc;
	ev->attr = g->attr;
	ev->sample.ip = g->ip;
	ev->sample.period = g->period;
	ev->id.pid = g->pid;
	ev->id.tid = g->tid;
	ev->id.cpu = g->cpu;
	ev->id.has_time = true;
	ev->id.time = g->first;
}

struct holds {
	const struct presum_group *g;
	bool comm, ok;
};

/* Whether every sample of the group resolves, and is named, as its first. */
static int group_holds(struct samples *it, const struct sample *smp, void *ctx)
{
	struct holds *c = ctx;
	const struct resolved *res = samples__self(it);

	c->ok = res->valid_until && res->valid_from <= c->g->first &&
		c->g->last < res->valid_until &&
		(!c->comm ||
		 proc_history__comm_steady(&it->s->procs, smp->tid, c->g->first, c->g->last));
	return 0;
}

int presum__feed(const struct presum *p, struct samples *it, bool comm, sample_fn fn,
		 void (*weight)(void *ctx, uint64_t n), void *ctx)
{
	struct holds c = { NULL, comm, false };
	struct pr_event ev;
	size_t i;
	int kernel, err = 0;

	if (samples__have_offcpu(it))
		return 1;
	/*
	 * All checked before the first is given: none holds, none given. The
	 * user-space ones first, while the kernel's symbols may still be
	 * loading on their thread (session.h, ksyms_wait_later).
	 */
	for (kernel = 0; kernel < 2; kernel++) {
		for (i = 0; i < p->nr; i++) {
			c.g = presum__group(p, i);
			if (session__kernel_mode(c.g->misc, c.g->ip) != kernel)
				continue;
			group_event(c.g, &ev);
			err = samples__feed(it, &ev, group_holds, &c);
			if (err || !c.ok)
				return err ? err : 1;
		}
	}
	for (i = 0; i < p->nr && !err; i++) {
		weight(ctx, presum__group(p, i)->n);
		group_event(presum__group(p, i), &ev);
		err = samples__feed(it, &ev, fn, ctx);
	}
	weight(ctx, 0);
	return err;
}
