// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: what the off-CPU and wall-clock views need beyond the pass over
 * the samples (offcpu.h): which event the switch-outs are, the task state
 * a blocked stack says, and on-CPU time for events that do not count it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "offcpu.h"
#include "perf-reader.h"
#include "samples.h"

bool offcpu__is_switch_event(const struct pr_attr *a)
{
	return a && a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_CONTEXT_SWITCHES;
}

bool offcpu__is_summed_event(const struct pr_attr *a)
{
	return a && a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT &&
	       !strcmp(a->name, OFFCPU_EVENT_NAME);
}

bool offcpu__summed_preempted(const struct pr_sample *s)
{
	uint32_t state;

	if (s->raw_size != sizeof(state))
		return false;
	memcpy(&state, s->raw, sizeof(state));
	return state == 0;
}

bool offcpu__period_is_ns(const struct pr_attr *a)
{
	return a && a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * Kernel functions a task waits in uninterruptibly (TASK_UNINTERRUPTIBLE,
 * "D" in ps): block and file I/O, page and buffer locks, mutexes and
 * rw-semaphores, uninterruptible sleeps and completions. Prefixes.
 */
static const char *const disk_waits[] = {
    "io_schedule",    "folio_wait",    "__folio_lock",	   "__lock_page",
    "wait_on_page",   "bit_wait_io",   "__wait_on_buffer", "__mutex_lock",
    "mutex_lock",     "rwsem_down",    "down_read",	   "down_write",
    "__down",	      "msleep",	       "usleep_range",	   "schedule_timeout_uninterruptible",
    "blk_mq_get_tag", "jbd2_log_wait", "wait_transaction",
};

/*
 * The _interruptible kinds of these sleep in S (mutex_lock_interruptible,
 * down_read_interruptible); the _killable ones are D in ps. Plain
 * wait_for_completion waits uninterruptibly.
 */
static bool is_disk_wait(const char *sym)
{
	size_t i;

	if (strstr(sym, "interruptible") && !strstr(sym, "uninterruptible"))
		return false;
	if (!strcmp(sym, "wait_for_completion") || !strcmp(sym, "wait_for_completion_io") ||
	    !strcmp(sym, "wait_for_completion_timeout") ||
	    !strcmp(sym, "wait_for_completion_killable"))
		return true;
	for (i = 0; i < sizeof(disk_waits) / sizeof(disk_waits[0]); i++)
		if (!strncmp(sym, disk_waits[i], strlen(disk_waits[i])))
			return true;
	return false;
}

const char *offcpu__state(const struct sample_frames *fr, bool preempted)
{
	bool kernel = false;
	size_t i;

	if (preempted)
		return OFFCPU_STATE_RUNNABLE;
	for (i = 0; i < fr->nr; i++) {
		const struct resolved *r = &fr->res[i];

		if (r->level != RES_KERNEL)
			continue;
		kernel = true;
		if (r->sym && is_disk_wait(r->sym))
			return OFFCPU_STATE_DISK;
	}
	return kernel ? OFFCPU_STATE_SLEEP : OFFCPU_STATE_UNKNOWN;
}

int wall_clock__period(struct wall_clock *w, uint32_t tid, uint64_t time, uint64_t last_in,
		       uint64_t *ns)
{
	bool added;
	uint64_t *last = pidmap__get_or_add(&w->last, tid, sizeof(*last), &added);
	uint64_t from;

	*ns = 0;
	if (!last)
		return -ENOMEM;
	from = added ? last_in : (*last > last_in ? *last : last_in);
	if (from && from < time)
		*ns = time - from;
	*last = time;
	return 0;
}

void wall_clock__release(struct wall_clock *w)
{
	size_t it = 0;
	void *v;

	while ((v = pidmap__next(&w->last, &it)))
		free(v);
	pidmap__release(&w->last);
}
