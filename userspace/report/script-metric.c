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
enum {
	STAT_NSECS,
	STAT_CYCLES,
	STAT_STALLED_FRONT,
	STAT_STALLED_BACK,
	STAT_BRANCHES,
	STAT_CACHEREFS,
	STAT_L1_DCACHE,
	STAT_L1_ICACHE,
	STAT_LL_CACHE,
	STAT_DTLB_CACHE,
	STAT_ITLB_CACHE,
	STAT_MAX
};
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
	       (a->exclude_host ? 8 : 0) | (a->exclude_idle ? 16 : 0);
}

/*
 * The hardware cache events perf counts as a cache's accesses: its reads,
 * config 0 to 4, the caches in the order of the STAT_L1_DCACHE... entries.
 */
static int cache_stat(const struct pr_attr *a)
{
	if (a->type != PERF_TYPE_HW_CACHE || a->config > PERF_COUNT_HW_CACHE_ITLB)
		return -1;
	return STAT_L1_DCACHE + (int)a->config;
}

/* The statistic a counter's values go to, as perf's shadow statistics; -1: none. */
static int stat_of(const struct pr_attr *a)
{
	if (is_clock(a))
		return STAT_NSECS;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config) {
		case PERF_COUNT_HW_CPU_CYCLES:
			return STAT_CYCLES;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
			return STAT_STALLED_FRONT;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
			return STAT_STALLED_BACK;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
			return STAT_BRANCHES;
		case PERF_COUNT_HW_CACHE_REFERENCES:
			return STAT_CACHEREFS;
		}
		return -1;
	}
	return cache_stat(a);
}

/* A cache's read misses (perf's L1-dcache-load-misses and the like): its accesses' statistic. */
static int cache_miss_stat(const struct pr_attr *a, const char **what)
{
	static const char *const names[] = { "L1-dcache", "L1-icache", "LL-cache", "dTLB cache",
					     "iTLB cache" };
	uint64_t c = a->config & 0xff;

	if (a->type != PERF_TYPE_HW_CACHE || c > PERF_COUNT_HW_CACHE_ITLB ||
	    a->config != (c | PERF_COUNT_HW_CACHE_OP_READ << 8 |
			  (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16))
		return -1;
	*what = names[c];
	return STAT_L1_DCACHE + (int)c;
}

/* the statistic @s's column for context @ctx: a clock's are kept without the context, as perf's */
static unsigned int stat_col(int s, unsigned int ctx)
{
	return s == STAT_NSECS ? 0 : ctx;
}

static double stat_avg(const struct script_metric *m, int s, unsigned int ctx)
{
	const struct stat *x = &m->st[s][stat_col(s, ctx)];

	return x->n ? x->sum / (double)x->n : 0;
}

static bool stat_seen(const struct script_metric *m, int s, unsigned int ctx)
{
	return m->st[s][stat_col(s, ctx)].n != 0;
}

/* @part of the statistic @s in percent, 0 without it */
static double pct_of(const struct script_metric *m, int s, unsigned int ctx, double part)
{
	double total = stat_avg(m, s, ctx);

	return total ? part / total * 100.0 : 0;
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

/* Where a member's figures go: each a line of "metric: " and its text, or a line begun (NULL). */
struct out {
	script_metric_line_fn line;
	void *ctx;
};

/* a figure's line: its value as @num, then its unit */
static void put_text(const struct out *o, const char *num, const char *unit)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%s %s", num, unit);
	o->line(buf, o->ctx);
}

/* perf's print_metric(): the value in the format, a blank, the unit */
#define put(o, fmt, val, unit)                                  \
	do {                                                    \
		char num_[48];                                  \
		snprintf(num_, sizeof(num_), fmt, (double)(val)); \
		put_text(o, num_, unit);                        \
	} while (0)

/*
 * The figures of member @a with value @v, as perf 6.1's shadow statistics
 * print them (perf_stat__print_shadow_stats(), in its order of tests): a
 * ratio to the counter it is a part of, when the group counts that one,
 * else its rate per second of the group's clock. What perf computes from
 * counters only the CPU's own PMU names (transactions, topdown, SMI) and its
 * JSON metrics are left out: a recording names them only by raw config.
 */
static void figures(const struct script_metric *m, const struct pr_attr *a, uint64_t v,
		    const struct out *o)
{
	unsigned int ctx = ctx_of(a);
	double avg = (double)v, total, back;
	const char *what;
	char unit, buf[48];
	int s;

	if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = stat_avg(m, STAT_CYCLES, ctx);
		if (total)
			put(o, "%7.2f ", avg / total, "insn per cycle");
		total = stat_avg(m, STAT_STALLED_FRONT, ctx);
		back = stat_avg(m, STAT_STALLED_BACK, ctx);
		if (back > total)
			total = back;
		if (total && avg) {
			/* perf begins a line and then prints a whole one after it */
			o->line(NULL, o->ctx);
			put(o, "%7.2f ", total / avg, "stalled cycles per insn");
		}
	} else if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES)) {
		if (stat_seen(m, STAT_BRANCHES, ctx))
			put(o, "%7.2f%%", pct_of(m, STAT_BRANCHES, ctx, avg), "of all branches");
	} else if ((s = cache_miss_stat(a, &what)) >= 0) {
		if (stat_seen(m, s, ctx)) {
			snprintf(buf, sizeof(buf), "of all %s accesses", what);
			put(o, "%7.2f%%", pct_of(m, s, ctx, avg), buf);
		}
	} else if (is_hw(a, PERF_COUNT_HW_CACHE_MISSES)) {
		if (stat_seen(m, STAT_CACHEREFS, ctx))
			put(o, "%8.3f %%", pct_of(m, STAT_CACHEREFS, ctx, avg), "of all cache refs");
	} else if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)) {
		double pct = pct_of(m, STAT_CYCLES, ctx, avg);

		if (pct)
			put(o, "%7.2f%%", pct, "frontend cycles idle");
	} else if (is_hw(a, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		put(o, "%7.2f%%", pct_of(m, STAT_CYCLES, ctx, avg), "backend cycles idle");
	} else if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
		total = stat_avg(m, STAT_NSECS, ctx);
		if (total)
			put(o, "%8.3f", avg / total, "GHz");
	} else if (is_clock(a)) {
		/* its share of the wall time: none in a recording */
	} else if (stat_seen(m, STAT_NSECS, ctx)) {
		total = stat_avg(m, STAT_NSECS, ctx);
		unit = ' ';
		avg = total ? in_units(1000000000.0 * avg / total, &unit) : 0;
		if (unit == ' ')
			put(o, "%8.3f", avg, "/sec");
		else {
			snprintf(buf, sizeof(buf), "%c/sec", unit);
			put(o, "%8.3f", avg, buf);
		}
	}
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
	const struct out o = { line, ctx };
	struct script_metric *m;
	double scale;
	uint64_t v;
	int s, err = metric_get(mp, nr_events);

	if (err)
		return err;
	m = *mp;
	scale = m->scale_set[event] ? m->scale[event] : is_clock(a) ? 1e-6 : 1.0;
	if (m->gnum++ == 0)
		memset(m->st, 0, sizeof(m->st));
	/* perf's value: the period in the event's unit (a clock's in msec), a whole number */
	v = (uint64_t)((double)period * scale);
	m->val = v;
	s = stat_of(a);
	if (s >= 0) {
		struct stat *x = &m->st[s][stat_col(s, ctx_of(a))];

		/* a clock's value as it is; any other's scaled again, a whole number again, as perf's */
		x->sum += s == STAT_NSECS ? (double)v : (double)(uint64_t)((double)v * scale);
		x->n++;
	}
	if (event >= m->nr || m->gnum != (members ? members : 1))
		return 0;
	for (i = leader + 1; i < leader + members && i < nr_events; i++)
		figures(m, &attrs[i], m->val, &o);
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
