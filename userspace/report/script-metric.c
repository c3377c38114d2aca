// SPDX-License-Identifier: GPL-2.0
/*
 * The metric field (script-metric.h), after perf 6.1's script and its
 * shadow statistics (stat-shadow.c): samples counted until as many were
 * seen as the current one's group has members (a member whose counter did
 * not move gets no sample, so a count can span reads), the statistics reset
 * at the first of them; then each member but the leader is printed, all
 * with the last sample's value.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-reader.h"
#include "script-metric.h"

/* the statistics the figures below need, by the counting context (perf's evsel_context) */
enum { STAT_NSECS, STAT_CYCLES, STAT_MAX };
#define NR_CTX 32

struct stat {
	double sum;
	uint64_t n;
};

/*
 * perf 6.1 keeps one count and one value for all events (their script
 * state is one shared struct): the samples since the last lines, whatever
 * their group, and the last sample's value, with which every member is
 * printed
 */
struct script_metric {
	uint32_t gnum;
	uint64_t val; /* the last sample's period in its event's unit, a whole number */
	struct stat st[STAT_MAX][NR_CTX];
	/* each event's unit factor from the recording's EVENT_UPDATE records, else perf's default */
	double *scale;
	bool *scale_set;
	size_t nr;
};

static bool is_clock(const struct pr_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

static bool is_hw(const struct pr_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == config;
}

/* perf's evsel_context: which modes the counter leaves out */
static unsigned int ctx_of(const struct pr_attr *a)
{
	return (a->exclude_kernel ? 1 : 0) | (a->exclude_user ? 2 : 0) | (a->exclude_hv ? 4 : 0) |
	       (a->exclude_host ? 8 : 0);
}

static double stat_avg(const struct script_metric *m, int s, unsigned int ctx)
{
	const struct stat *x = &m->st[s][ctx];

	return x->n ? x->sum / (double)x->n : 0;
}

/* perf's convert_unit_double(): K, M, G */
static double in_units(double v, char *unit)
{
	static const char units[] = "KMG";
	int i;

	*unit = ' ';
	for (i = 0; i < 3 && v > 1000.0; i++) {
		v /= 1000.0;
		*unit = units[i];
	}
	return v;
}

/*
 * The figure of member @a with value @v, as perf's shadow statistics print
 * it, into @buf; 0 when perf prints none. Figures perf computes against
 * counters jrec does not follow (branches, cache references, stalled
 * cycles, the hardware cache events) are left out.
 */
static int figure(const struct script_metric *m, const struct pr_attr *a, uint64_t v, char *buf,
		  size_t len)
{
	unsigned int ctx = ctx_of(a);
	double avg = (double)v, total;
	char unit;

	if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = stat_avg(m, STAT_CYCLES, ctx);
		return total ? snprintf(buf, len, "%7.2f  insn per cycle", avg / total) : 0;
	}
	if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		total = stat_avg(m, STAT_NSECS, ctx);
		return total ? snprintf(buf, len, "%8.3f GHz", avg / total) : 0;
	}
	if (is_clock(a) || a->type == PERF_TYPE_HW_CACHE ||
	    is_hw(a, PERF_COUNT_HW_BRANCH_MISSES) || is_hw(a, PERF_COUNT_HW_CACHE_MISSES) ||
	    is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND) ||
	    is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND))
		return 0; /* a clock's share of the wall time: none in a recording */
	if (!m->st[STAT_NSECS][ctx].n)
		return 0;
	total = stat_avg(m, STAT_NSECS, ctx);
	avg = total ? in_units(1000000000.0 * avg / total, &unit) : 0;
	if (!total)
		unit = ' ';
	if (unit == ' ')
		return snprintf(buf, len, "%8.3f /sec", avg);
	return snprintf(buf, len, "%8.3f %c/sec", avg, unit);
}

static int metric_get(struct script_metric **mp, size_t nr)
{
	struct script_metric *m = *mp;

	if (m)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->nr = nr;
	m->scale = calloc(nr ? nr : 1, sizeof(*m->scale));
	m->scale_set = calloc(nr ? nr : 1, sizeof(*m->scale_set));
	*mp = m;
	if (!m->scale || !m->scale_set)
		return -ENOMEM;
	return 0;
}

int script_metric__scale(struct script_metric **mp, size_t nr_events, size_t event, double scale)
{
	int err = metric_get(mp, nr_events);

	if (err || event >= (*mp)->nr)
		return err;
	(*mp)->scale[event] = scale;
	(*mp)->scale_set[event] = true;
	return 0;
}

int script_metric__sample(struct script_metric **mp, const struct pr_attr *attrs, size_t nr_events,
			  size_t event, uint64_t period, script_metric_line_fn line, void *ctx)
{
	const struct pr_attr *a = &attrs[event];
	size_t leader = a->group_leader < nr_events ? a->group_leader : event, i;
	uint32_t members = attrs[leader].group_leader == leader ? attrs[leader].group_members : 1;
	struct script_metric *m;
	double scale;
	char buf[64];
	uint64_t v;
	int err = metric_get(mp, nr_events);

	if (err)
		return err;
	m = *mp;
	scale = m->scale_set[event] ? m->scale[event] : is_clock(a) ? 1e-6 : 1.0;
	if (m->gnum++ == 0)
		memset(m->st, 0, sizeof(m->st));
	/* perf's value: the period in the event's unit (a clock's in msec), a whole number */
	v = (uint64_t)((double)period * scale);
	m->val = v;
	if (is_clock(a)) {
		m->st[STAT_NSECS][ctx_of(a)].sum += (double)v;
		m->st[STAT_NSECS][ctx_of(a)].n++;
	} else if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		/* (perf scales the value again here, a whole number again) */
		m->st[STAT_CYCLES][ctx_of(a)].sum += (double)(uint64_t)((double)v * scale);
		m->st[STAT_CYCLES][ctx_of(a)].n++;
	}
	if (event >= m->nr || m->gnum != (members ? members : 1))
		return 0;
	for (i = leader + 1; i < leader + members && i < nr_events; i++)
		if (figure(m, &attrs[i], m->val, buf, sizeof(buf)) > 0)
			line(buf, ctx);
	m->gnum = 0;
	return 0;
}

void script_metric__delete(struct script_metric *m)
{
	if (!m)
		return;
	free(m->scale);
	free(m->scale_set);
	free(m);
}
