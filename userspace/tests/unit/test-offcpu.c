// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu: the task state a blocked stack says (preempted R, uninterruptible D
 * from the kernel's wait functions, else S, ? without kernel frames), the
 * events it recognizes, and --wall's on-CPU time for events that do not count
 * time (since the thread's previous sample or last switch-in, whichever is
 * later), and the summed offcpu-time event of jrec's and perf's BPF recordings
 * with the task state jrec puts in its RAW bytes.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "perf-reader.h"
#include "report/offcpu.h"
#include "report/samples.h"
#include "tap.h"

static struct resolved res[4];

static const char *state_of(const char *const *syms, const char *levels, size_t n, bool pre)
{
	struct sample_frames fr = {.res = res, .nr = n};
	size_t i;

	memset(res, 0, sizeof(res));
	for (i = 0; i < n; i++) {
		res[i].sym = syms[i];
		res[i].level = levels[i];
	}
	return offcpu__state(&fr, pre);
}

int main(void)
{
	static const char *const futex[] = {"schedule", "futex_wait", "main"};
	static const char *const io[] = {"schedule", "io_schedule", "folio_wait_bit_common",
					 "main"};
	static const char *const mutex[] = {"schedule", "__mutex_lock.constprop.0", "main"};
	static const char *const intr[] = {"schedule", "__mutex_lock_interruptible_slowpath",
					   "main"};
	static const char *const user[] = {"main"};
	struct pr_attr a = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES};
	struct wall_clock w = {0};
	uint64_t ns = 1;

	check(!strcmp(state_of(futex, "kk.", 3, false), "S"), "a futex wait sleeps: S");
	check(!strcmp(state_of(io, "kkk.", 4, false), "D"), "a page wait through io_schedule: D");
	check(!strcmp(state_of(mutex, "kk.", 3, false), "D"), "a mutex: D");
	check(!strcmp(state_of(intr, "kk.", 3, false), "S"), "an interruptible mutex wait: S");
	check(!strcmp(state_of(futex, "kk.", 3, true), "R"), "preempted: R, whatever the stack");
	check(!strcmp(state_of(user, ".", 1, false), "?"), "no kernel frames: ?");

	check(offcpu__is_switch_event(&a), "context-switches is the switch event");
	check(!offcpu__period_is_ns(&a), "its period is not time");
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	check(!offcpu__is_switch_event(&a) && offcpu__period_is_ns(&a),
	      "cpu-clock's period is time");
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	check(!offcpu__is_switch_event(&a) && !offcpu__period_is_ns(&a), "cycles' is not");
	check(!offcpu__is_summed_event(&a), "cycles is no summed off-CPU event");
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_BPF_OUTPUT;
	snprintf(a.name, sizeof(a.name), "offcpu-time");
	check(offcpu__is_summed_event(&a), "BPF_OUTPUT named offcpu-time: summed off-CPU samples");
	snprintf(a.name, sizeof(a.name), "bpf-output");
	check(!offcpu__is_summed_event(&a), "another BPF_OUTPUT event is not");
	{
		uint32_t state = 0;
		uint8_t raw8[8] = { 0 };
		struct pr_sample smp;

		memset(&smp, 0, sizeof(smp));
		check(!offcpu__summed_preempted(&smp), "no RAW (perf's samples): not preempted");
		smp.raw = &state;
		smp.raw_size = sizeof(state);
		check(offcpu__summed_preempted(&smp), "task state 0 in RAW: preempted");
		state = 1; /* TASK_INTERRUPTIBLE */
		check(!offcpu__summed_preempted(&smp), "task state 1: asleep, not preempted");
		smp.raw = raw8;
		smp.raw_size = sizeof(raw8);
		check(!offcpu__summed_preempted(&smp), "RAW of another size: not read as a state");
	}

	check(!wall_clock__period(&w, 7, 1000, 0, &ns) && ns == 0,
	      "a thread's first sample with no switch-in before it: 0 ns");
	check(!wall_clock__period(&w, 7, 1400, 0, &ns) && ns == 400,
	      "then since its previous sample");
	check(!wall_clock__period(&w, 7, 2000, 1900, &ns) && ns == 100,
	      "since its switch-in when that came later");
	check(!wall_clock__period(&w, 8, 500, 200, &ns) && ns == 300,
	      "another thread's first sample: since its switch-in");
	check(!wall_clock__period(&w, 7, 2500, 1900, &ns) && ns == 500, "threads kept apart");
	wall_clock__release(&w);
	return tap_done();
}
