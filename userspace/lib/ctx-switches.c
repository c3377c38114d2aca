// SPDX-License-Identifier: GPL-2.0
/* ctx-switches: a recording's context switches by thread and time (ctx-switches.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "ctx-switches.h"

int ctx_switches__add(struct ctx_switches *cs, uint32_t tid, uint64_t time,
		      enum ctx_switch_kind kind)
{
	if (array_grow(&cs->sw, &cs->cap, cs->nr + 1))
		return -ENOMEM;
	cs->sw[cs->nr++] = (struct ctx_switch){time, tid, (uint32_t)kind};
	cs->sorted = false;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct ctx_switch *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* at the same time a switch-in comes after the switch-out it ends */
	return (x->kind == CTX_SWITCH_IN) - (y->kind == CTX_SWITCH_IN);
}

void ctx_switches__finish(struct ctx_switches *cs)
{
	if (cs->nr > 1)
		qsort(cs->sw, cs->nr, sizeof(*cs->sw), cmp);
	cs->sorted = true;
}

void ctx_switches__release(struct ctx_switches *cs)
{
	if (!cs)
		return;
	free(cs->sw);
	memset(cs, 0, sizeof(*cs));
}

/* The index of the first switch of @tid at or after @t (cs->nr when none). */
static size_t first_at(const struct ctx_switches *cs, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = cs->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ctx_switch *s = &cs->sw[mid];

		if (s->tid < tid || (s->tid == tid && s->time < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ctx_switches__interval(const struct ctx_switches *cs, uint32_t tid, uint64_t out, uint64_t *in,
			   bool *preempted)
{
	size_t i = cs->sorted ? first_at(cs, tid, out) : cs->nr;
	bool seen_out = false;

	*preempted = false;
	for (; i < cs->nr && cs->sw[i].tid == tid; i++) {
		const struct ctx_switch *s = &cs->sw[i];

		if (s->kind == CTX_SWITCH_IN) {
			*in = s->time;
			return 0;
		}
		if (!seen_out)
			*preempted = s->kind == CTX_SWITCH_OUT_PREEMPT;
		seen_out = true;
	}
	return -ENOENT;
}

int ctx_switches__last_in(const struct ctx_switches *cs, uint32_t tid, uint64_t t, uint64_t *in)
{
	size_t i;

	if (!cs->sorted || t == UINT64_MAX)
		return -ENOENT;
	/* the first switch of @tid after @t, then back to its last switch-in */
	for (i = first_at(cs, tid, t + 1); i-- > 0 && cs->sw[i].tid == tid;) {
		if (cs->sw[i].kind == CTX_SWITCH_IN) {
			*in = cs->sw[i].time;
			return 0;
		}
	}
	return -ENOENT;
}
