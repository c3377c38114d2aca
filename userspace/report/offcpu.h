/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu: the report's off-CPU and wall-clock views of a recording made
 * with jrec record --off-cpu, or perf record -e context-switches -c 1
 * --switch-events (Documentation/jrec-offcpu.rst). Each sample of the
 * context-switches event with a switch record that ends its wait becomes a
 * sample of the "offcpu-time" event, whose period is the nanoseconds the
 * thread was away; --wall turns the on-CPU samples into time too, so that
 * both add up to the threads' wall-clock time.
 */
#ifndef JREC_OFFCPU_H
#define JREC_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pidmap.h"

struct pr_attr;
struct sample_frames;

#define OFFCPU_EVENT_NAME "offcpu-time"
#define WALL_EVENT_NAME	  "wall-time"

/* The task states the `state` sort key shows (offcpu__state()). */
#define OFFCPU_STATE_RUNNING  "running" /* an on-CPU sample */
#define OFFCPU_STATE_RUNNABLE "R"	/* off CPU, preempted: waiting for a CPU */
#define OFFCPU_STATE_SLEEP    "S"	/* off CPU, interruptible sleep */
#define OFFCPU_STATE_DISK     "D"	/* off CPU, uninterruptible: I/O, page lock, mutex */
#define OFFCPU_STATE_UNKNOWN  "?"	/* off CPU, no kernel frames to tell */

/* Whether @a is the software event context-switches, whose samples are switch-outs. */
bool offcpu__is_switch_event(const struct pr_attr *a);
/*
 * Whether @a is an offcpu-time event whose samples are sums made in the
 * kernel, period the nanoseconds away (jrec record --off-cpu with BPF, perf
 * record --off-cpu): off-CPU samples as they are, no switch records needed.
 */
bool offcpu__is_summed_event(const struct pr_attr *a);
/*
 * Whether a sample of such an event says its thread was preempted: jrec's
 * carry the task state at switch-out as 4 bytes of PERF_SAMPLE_RAW, 0 when
 * it was still runnable; perf's carry none (false).
 */
struct pr_sample;
bool offcpu__summed_preempted(const struct pr_sample *s);
/* Whether @a's period is time in nanoseconds (cpu-clock, task-clock). */
bool offcpu__period_is_ns(const struct pr_attr *a);

/*
 * The state of a thread at its switch-out, from whether it was preempted
 * and else from the kernel frames of the stack it blocked in (@fr, the
 * sampled function first): one of the OFFCPU_STATE_* strings.
 */
const char *offcpu__state(const struct sample_frames *fr, bool preempted);

/*
 * --wall for a sampling event whose period is not time (cycles,
 * instructions): each sample stands for the time since the thread's
 * previous sample or its last switch-in, whichever came later.
 */
struct wall_clock {
	struct pidmap last; /* tid -> uint64_t: the time of its previous sample */
};

/*
 * Into *@ns the nanoseconds the sample of @tid at @time stands for; @last_in
 * the thread's last switch-in, 0 if unknown. 0 ns for a thread's first
 * sample without a switch-in before it. 0 or -ENOMEM.
 */
int wall_clock__period(struct wall_clock *w, uint32_t tid, uint64_t time, uint64_t last_in,
		       uint64_t *ns);
void wall_clock__release(struct wall_clock *w);

#endif
