// SPDX-License-Identifier: GPL-2.0
/* jrec script's context switch lines (script-switch.h). */
#include <linux/perf_event.h>

#include "perf-reader.h"
#include "script-switch.h"

bool script_switch__is(const struct pr_event *ev)
{
	return ev->type == PERF_RECORD_SWITCH || ev->type == PERF_RECORD_SWITCH_CPU_WIDE;
}

void script_switch__print(FILE *out, const struct pr_event *ev)
{
	bool is_out = ev->misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !is_out					      ? "IN         "
			     : ev->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT ? "OUT preempt"
									      : "OUT        ";

	if (ev->type == PERF_RECORD_SWITCH) {
		fprintf(out, "PERF_RECORD_SWITCH %s\n", in_out);
		return;
	}
	fprintf(out, "PERF_RECORD_SWITCH_CPU_WIDE %s  %s pid/tid: %5u/%-5u\n", in_out,
		is_out ? "next" : "prev", ev->sw.next_prev_pid, ev->sw.next_prev_tid);
}
