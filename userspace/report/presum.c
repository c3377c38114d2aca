// SPDX-License-Identifier: GPL-2.0
/* presum: a flat report's samples grouped in the first pass (presum.h). */
#include <stdlib.h>
#include <string.h>

#include "bigalloc.h"
#include "presum.h"
#include "resolve.h"
#include "session.h"

#define PRESUM_BUCKETS 8192 /* a power of two */

/*
 * The table is mapped, not taken from the heap: the objects the first pass
 * allocates there (files, names) keep the addresses they get without it,
 * which the flame graphs order equal frames by (calltree.c, as perf).
 */
static void table_free(struct presum *p)
{
	big_free(p->g, p->cap * sizeof(*p->g));
	big_free(p->heads, PRESUM_BUCKETS * sizeof(*p->heads));
	memset(p, 0, sizeof(*p));
}

static uint32_t bucket(const struct pr_event *ev)
{
	uint64_t h = (ev->sample.ip ^ (uint64_t)ev->id.tid << 32 ^ (uint64_t)ev->id.pid << 16 ^
		      ev->id.cpu ^ (uintptr_t)ev->attr) *
		     0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 40) & (PRESUM_BUCKETS - 1);
}

static void give_up(struct presum *p)
{
	table_free(p);
	p->over = true;
}

int presum__add(struct presum *p, const struct pr_event *ev, uint64_t time)
{
	uint16_t misc = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct presum_group *g;
	uint32_t b, i;

	if (p->over)
		return 0;
	if (p->chainless &&
	    (ev->sample.nr_callchain || (ev->sample.regs_abi && ev->sample.stack_size))) {
		give_up(p);
		return 0;
	}
	if (!p->heads) {
		p->heads = big_zalloc(PRESUM_BUCKETS * sizeof(*p->heads));
		if (!p->heads) {
			give_up(p);
			return 0;
		}
		memset(p->heads, 0xff, PRESUM_BUCKETS * sizeof(*p->heads));
	}
	b = bucket(ev);
	for (i = p->heads[b]; i != UINT32_MAX; i = g->next) {
		g = &p->g[i];
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
	}
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct presum_group *n;

		n = cap <= PRESUM_MAX ? big_realloc(p->g, p->cap * sizeof(*p->g), cap * sizeof(*p->g))
				      : NULL;
		if (!n) {
			give_up(p);
			return 0;
		}
		p->g = n;
		p->cap = cap;
	}
	g = &p->g[p->nr];
	g->attr = ev->attr;
	g->ip = ev->sample.ip;
	g->pid = ev->id.pid;
	g->tid = ev->id.tid;
	g->cpu = ev->id.cpu;
	g->misc = misc;
	g->n = 1;
	g->period = ev->sample.period;
	g->first = g->last = time;
	g->next = p->heads[b];
	p->heads[b] = (uint32_t)p->nr++;
	return 0;
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
	return !p->over && p->heads;
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
			c.g = &p->g[i];
			if (session__kernel_mode(c.g->misc, c.g->ip) != kernel)
				continue;
			group_event(c.g, &ev);
			err = samples__feed(it, &ev, group_holds, &c);
			if (err || !c.ok)
				return err ? err : 1;
		}
	}
	for (i = 0; i < p->nr && !err; i++) {
		weight(ctx, p->g[i].n);
		group_event(&p->g[i], &ev);
		err = samples__feed(it, &ev, fn, ctx);
	}
	weight(ctx, 0);
	return err;
}
