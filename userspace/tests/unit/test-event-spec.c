// SPDX-License-Identifier: GPL-2.0
/*
 * event-spec: perf's -e names and modifiers into attr fields, as perf's
 * parser sets them (the exclusion bits as perf 6.1's evlist -v shows them for
 * cpu-clock, cpu-clock:u, cs:kh and task-clock:G).
 */
#include <errno.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event-spec.h"
#include "tap.h"

static struct event_spec ev;
static char err[160];

static int parse(const char *s)
{
	err[0] = 0;
	return event_spec__parse(s, &ev, err, sizeof(err));
}

int main(void)
{
	check(!parse("cycles") && ev.type == PERF_TYPE_HARDWARE &&
		      ev.config == PERF_COUNT_HW_CPU_CYCLES && ev.exclude_guest &&
		      !ev.exclude_user && !ev.exclude_kernel && !ev.has_modifiers &&
		      !strcmp(ev.name, "cycles"),
	      "cycles: hardware, the guest excluded as perf does, no other exclusion");
	check(!parse("cpu-clock:u") && ev.type == PERF_TYPE_SOFTWARE &&
		      ev.config == PERF_COUNT_SW_CPU_CLOCK && !ev.exclude_user && ev.exclude_kernel &&
		      ev.exclude_hv && ev.exclude_guest && !strcmp(ev.name, "cpu-clock:u"),
	      "cpu-clock:u: user only, named as typed");
	check(!parse("cs:kh") && ev.exclude_user && !ev.exclude_kernel && !ev.exclude_hv &&
		      !ev.exclude_guest,
	      "cs:kh: kernel and hypervisor, the guest not excluded (perf's exclude_user only)");
	check(!parse("cycles:ppp") && ev.precise_ip == 3, ":ppp: precise_ip 3");
	check(parse("cycles:pppp") == -EINVAL && err[0], ":pppp is refused");
	check(!parse("task-clock:G") && !ev.exclude_guest && ev.exclude_host, ":G: guest only");
	check(!parse("cs") && ev.type == PERF_TYPE_SOFTWARE &&
		      ev.config == PERF_COUNT_SW_CONTEXT_SWITCHES,
	      "cs: perf's alias of context-switches");
	check(!parse("L1-dcache-load-misses") && ev.type == PERF_TYPE_HW_CACHE &&
		      ev.config == (PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
				    (unsigned long long)PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
	      "L1-dcache-load-misses: cache L1D, op read, result miss");
	check(!parse("LLC-stores") && ev.type == PERF_TYPE_HW_CACHE &&
		      ev.config == (PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_WRITE << 8),
	      "LLC-stores: cache LL, op write, result access");
	check(!parse("r01c2:u") && ev.type == PERF_TYPE_RAW && ev.config == 0x1c2 && ev.exclude_kernel,
	      "r01c2:u: a raw event in hex, user only");
	check(parse("bogus") == -EINVAL && strstr(err, "bogus"), "an unknown name: -EINVAL naming it");
	check(parse("cycles:x") == -EINVAL && err[0], "an unknown modifier: -EINVAL");
	check(parse("cycles,instructions") == -EINVAL && err[0], "several events: -EINVAL");
	check(parse("") == -EINVAL && parse(":u") == -EINVAL, "no name: -EINVAL");
	return tap_done();
}
