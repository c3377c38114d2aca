/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctx-switches: the context switches of a recording's threads, from its
 * PERF_RECORD_SWITCH and PERF_RECORD_SWITCH_CPU_WIDE records: when each
 * thread left a CPU (and whether it was preempted, still runnable) and when
 * it came back. An off-CPU interval runs from a switch-out to the thread's
 * next switch-in (Documentation/jrec-offcpu.rst).
 *
 *	ctx_switches__add() for each record, in any order;
 *	ctx_switches__finish() once;
 *	then the look-ups.
 */
#ifndef JREC_CTX_SWITCHES_H
#define JREC_CTX_SWITCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ctx_switch_kind {
	CTX_SWITCH_IN = 0,
	CTX_SWITCH_OUT = 1,	    /* the thread blocked: it slept or waited */
	CTX_SWITCH_OUT_PREEMPT = 2, /* the thread was runnable: preempted */
};

struct ctx_switch {
	uint64_t time;
	uint32_t tid;
	uint32_t kind; /* enum ctx_switch_kind */
};

struct ctx_switches {
	struct ctx_switch *sw; /* by thread, then time, once finished */
	size_t nr, cap;
	bool sorted;
};

/* One switch record of thread @tid at @time. 0 or -ENOMEM. */
int ctx_switches__add(struct ctx_switches *cs, uint32_t tid, uint64_t time,
		      enum ctx_switch_kind kind);
/* Sort them: from now on the look-ups below answer. */
void ctx_switches__finish(struct ctx_switches *cs);
void ctx_switches__release(struct ctx_switches *cs);

static inline bool ctx_switches__any(const struct ctx_switches *cs)
{
	return cs->nr > 0;
}

/*
 * The off-CPU interval of thread @tid that starts with a switch-out sampled
 * at @out (the context-switches event's sample; its PERF_RECORD_SWITCH OUT
 * follows it closely): the thread's first switch-in after @out into *@in,
 * and whether it was preempted (its first switch-out record from @out on,
 * before *@in, says so) into *@preempted. -ENOENT when the thread never came
 * back within the recording (it exited, or the recording ended first).
 */
int ctx_switches__interval(const struct ctx_switches *cs, uint32_t tid, uint64_t out, uint64_t *in,
			   bool *preempted);
/* The last switch-in of @tid at or before @t into *@in; -ENOENT if none. */
int ctx_switches__last_in(const struct ctx_switches *cs, uint32_t tid, uint64_t t, uint64_t *in);

#endif
