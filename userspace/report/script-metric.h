/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-metric: perf script's metric field, the lines perf 6.1 prints
 * after a group's samples that read their counters (-e '{a,b}:S'), with
 * perf stat's derived figures for the group's members: instructions per
 * cycle and stalled cycles per instruction, a cycles counter's GHz, the
 * misses' share of branches, cache references and the hardware caches'
 * accesses, stalled cycles' share of cycles, and any other counter's rate
 * per second of the group's clock (task-clock, cpu-clock), computed as perf
 * does (a clock counted in msec and truncated to whole ones first, which
 * makes those rates 0.000 /sec with perf's usual periods).
 */
#ifndef JREC_SCRIPT_METRIC_H
#define JREC_SCRIPT_METRIC_H

#include <stddef.h>
#include <stdint.h>

struct pr_attr;
struct script_metric;

/*
 * One metric line's text for the caller to print after its start fields:
 * "\tmetric: " is the caller's; @text is the value and unit, "   0.000 /sec".
 * @text NULL: the start fields and "\tmetric: " alone, no end of line (perf
 * begins a line so before a second figure of one counter).
 */
typedef void (*script_metric_line_fn)(const char *text, void *ctx);

/*
 * Sample of event @event (of @nr_events, @attrs the recording's) with
 * @period: counted into its group, and when the group's members have all
 * been seen since its last lines, the lines of its members (the leader
 * left out, as perf's) through @line. *@m is made at the first call.
 * 0 or -ENOMEM.
 */
int script_metric__sample(struct script_metric **m, const struct pr_attr *attrs, size_t nr_events,
			  size_t event, uint64_t period, script_metric_line_fn line, void *ctx);
/*
 * Event @event's unit factor, from the recording's EVENT_UPDATE record of
 * its scale (perf record writes 1e-6 for the clocks): what its periods are
 * multiplied by, as perf's. 0 or -ENOMEM.
 */
int script_metric__scale(struct script_metric **m, size_t nr_events, size_t event, double scale);
void script_metric__delete(struct script_metric *m);

#endif
