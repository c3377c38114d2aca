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

static struct event_list l;

static int parse_list(const char *s)
{
	err[0] = 0;
	return event_list__parse(&l, s, err, sizeof(err));
}

static const char tps[3][2][64] = {
    {"sched", "sched_wakeup"}, {"sched", "sched_waking"}, {"sched", "sched_wakeup_new"}};

static void expand_tests(void)
{
	memset(&l, 0, sizeof(l));
	check(!parse_list("cpu-clock,sched:sched_wak*:u,task-clock") &&
		      !event_list__expand(&l, 1, tps, 3, err, sizeof(err)) && l.nr == 5 &&
		      !strcmp(l.ev[1].name, "sched:sched_wakeup:u") &&
		      !strcmp(l.ev[3].tp_name, "sched_wakeup_new") && l.ev[3].exclude_kernel &&
		      l.ev[3].leader == 3 && l.ev[4].leader == 4 &&
		      !strcmp(l.ev[4].name, "task-clock") && !event_list__nr_groups(&l),
	      "a glob alone: each tracepoint its own event, SYSTEM:NAME with the modifiers, "
	      "the events after it moved");
	memset(&l, 0, sizeof(l));
	check(!parse_list("{cycles,sched:*},{cpu-clock,task-clock}") &&
		      !event_list__expand(&l, 1, tps, 3, err, sizeof(err)) && l.nr == 6 &&
		      l.ev[0].nr_members == 4 && l.ev[3].leader == 0 && l.ev[4].leader == 4 &&
		      l.ev[5].leader == 4 && l.ev[4].nr_members == 2 &&
		      event_list__nr_groups(&l) == 2,
	      "a glob in a group: every tracepoint a member, the next group's leader moved");
	check(event_list__expand(&l, 1, tps, 0, err, sizeof(err)) == -ENOENT && l.nr == 6 &&
		      strstr(err, "no tracepoint"),
	      "a glob that matches nothing: -ENOENT, the list as it was");
	check(event_list__expand(&l, 1, tps, EVENT_LIST_MAX, err, sizeof(err)) == -E2BIG &&
		      l.nr == 6,
	      "a glob past EVENT_LIST_MAX events: -E2BIG, the list as it was");
}

static void list_tests(void)
{
	memset(&l, 0, sizeof(l));
	check(!parse_list("cpu-clock,task-clock:u") && l.nr == 2 && l.ev[0].leader == 0 &&
		      l.ev[1].leader == 1 && l.ev[0].nr_members == 1 &&
		      l.ev[1].exclude_kernel && !strcmp(l.ev[1].name, "task-clock:u") &&
		      !event_list__nr_groups(&l),
	      "a,b: two events, each its own leader, no group");
	check(!parse_list("page-faults") && l.nr == 3 && !strcmp(l.ev[2].name, "page-faults"),
	      "a second -e appends");
	memset(&l, 0, sizeof(l));
	check(!parse_list("{cpu-clock,task-clock:k}:u,cs") && l.nr == 3 && l.ev[0].leader == 0 &&
		      l.ev[1].leader == 0 && l.ev[0].nr_members == 2 && l.ev[2].leader == 2 &&
		      l.ev[0].exclude_kernel && !l.ev[0].exclude_user && !l.ev[1].exclude_kernel &&
		      !l.ev[1].exclude_user && !strcmp(l.ev[0].name, "cpu-clock") &&
		      !strcmp(l.ev[1].name, "task-clock:k") && event_list__nr_groups(&l) == 1,
	      "{a,b:k}:u,c: a group of two taking the group's modifiers, named as typed; then c");
	check(!parse_list("{sched:sched_switch,cpu-clock}:u") && l.nr == 5 && l.ev[3].tracepoint &&
		      l.ev[3].exclude_kernel && l.ev[4].leader == 3,
	      "a tracepoint in a group takes the group's modifiers after its NAME");
	check(parse_list("{cpu-clock,task-clock") == -EINVAL && err[0] && l.nr == 5,
	      "an unclosed group: -EINVAL, the list unchanged");
	check(parse_list("cpu-clock}") == -EINVAL && parse_list("{cpu-clock,{cs}}") == -EINVAL &&
		      parse_list("cpu-clock,") == -EINVAL && parse_list("{}") == -EINVAL &&
		      parse_list("{cs}x") == -EINVAL && parse_list(",cs") == -EINVAL && l.nr == 5,
	      "a stray brace, nesting, an empty event or group, junk after a group: -EINVAL");
	check(parse_list("cpu-clock,bogus") == -EINVAL && strstr(err, "bogus") && l.nr == 5,
	      "an unknown event in a list names it, the list unchanged");
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
	check(!parse("sched:sched_switch") && ev.tracepoint && ev.type == PERF_TYPE_TRACEPOINT &&
		      !strcmp(ev.tp_sys, "sched") && !strcmp(ev.tp_name, "sched_switch") &&
		      !ev.has_modifiers && !strcmp(ev.name, "sched:sched_switch"),
	      "sched:sched_switch: a tracepoint, SYSTEM and NAME apart, id left to tracefs");
	check(!parse("sched:sched_switch:u") && ev.tracepoint && ev.exclude_kernel &&
		      !strcmp(ev.tp_name, "sched_switch"),
	      "a tracepoint's modifiers follow its NAME");
	check(!parse("sched:sched_wak*") && ev.tracepoint && event_spec__is_glob(&ev) &&
		      !strcmp(ev.tp_name, "sched_wak*"),
	      "a tracepoint glob: a tracepoint whose NAME is the glob");
	check(!parse("sched:sched_switch") && !event_spec__is_glob(&ev) && !parse("cycles:u") &&
		      !event_spec__is_glob(&ev),
	      "no glob: neither a tracepoint nor an event");
	check(parse("sched:sched/x") == -EINVAL, "a '/' in a tracepoint: -EINVAL");
	list_tests();
	expand_tests();
	return tap_done();
}
