/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-switch: jrec script's lines for context switch records
 * (--show-switch-events), after the line's "COMM TID TIME: " start, as perf
 * script prints them:
 *   PERF_RECORD_SWITCH OUT
 *   PERF_RECORD_SWITCH_CPU_WIDE OUT preempt  next pid/tid:  1234/1235
 */
#ifndef JREC_SCRIPT_SWITCH_H
#define JREC_SCRIPT_SWITCH_H

#include <stdbool.h>
#include <stdio.h>

struct pr_event;

/* Whether @ev is a PERF_RECORD_SWITCH or PERF_RECORD_SWITCH_CPU_WIDE. */
bool script_switch__is(const struct pr_event *ev);
/* The rest of @ev's line, its newline included. */
void script_switch__print(FILE *out, const struct pr_event *ev);

#endif
