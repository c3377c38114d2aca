// SPDX-License-Identifier: GPL-2.0
/* perf's -e event names and modifiers (event-spec.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "event-spec.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} named[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

/* perf's hardware-cache names: CACHE-OP[-RESULT], "L1-dcache-load-misses" */
static const char *const caches[] = { "L1-dcache", "L1-icache", "LLC",	"dTLB",
				      "iTLB",	   "branch",	"node" };
static const char *const cache_ops[][2] = { { "loads", "load" },
					    { "stores", "store" },
					    { "prefetches", "prefetch" } };

static int parse_cache(const char *s, size_t n, uint64_t *config)
{
	size_t c, op, k, l;

	for (c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
		l = strlen(caches[c]);
		if (n <= l + 1 || strncmp(s, caches[c], l) || s[l] != '-')
			continue;
		for (op = 0; op < 3; op++) {
			for (k = 0; k < 2; k++) {
				const char *w = cache_ops[op][k], *rest = s + l + 1;
				size_t wl = strlen(w), left = n - l - 1;

				if (left < wl || strncmp(rest, w, wl))
					continue;
				if (left == wl) {
					*config = c | op << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS
									<< 16;
					return 0;
				}
				if (left == wl + 7 && !strncmp(rest + wl, "-misses", 7)) {
					*config = c | op << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS
									<< 16;
					return 0;
				}
			}
		}
	}
	return -EINVAL;
}

/*
 * perf's modifier rules: u/k/h exclude the contexts not named, G/H likewise,
 * p precision; the guest is excluded with u or p unless G or H says otherwise
 * (perf 6.1: cpu-clock:u excludes the guest, cs:kh does not).
 */
static int parse_modifiers(const char *m, struct event_spec *e)
{
	bool ctx = false, gh = false, guest_off = false;

	e->has_modifiers = true;
	for (; *m; m++) {
		switch (*m) {
		case 'u':
		case 'k':
		case 'h':
			if (!ctx) {
				e->exclude_user = e->exclude_kernel = e->exclude_hv = true;
				ctx = true;
			}
			if (*m == 'u') {
				e->exclude_user = false;
				guest_off = true;
			}
			else if (*m == 'k')
				e->exclude_kernel = false;
			else
				e->exclude_hv = false;
			break;
		case 'G':
		case 'H':
			if (!gh) {
				e->exclude_guest = e->exclude_host = true;
				gh = true;
			}
			if (*m == 'G')
				e->exclude_guest = false;
			else
				e->exclude_host = false;
			break;
		case 'p':
			if (e->precise_ip == 3)
				return -EINVAL;
			e->precise_ip++;
			guest_off = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!gh)
		e->exclude_guest = guest_off;
	return 0;
}

int event_spec__parse(const char *s, struct event_spec *out, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s), i;
	char *end;

	memset(out, 0, sizeof(*out));
	if (strpbrk(s, ",{}")) {
		snprintf(err, errlen, "'%s': jrec record takes one event", s);
		return -EINVAL;
	}
	if (strlen(s) >= sizeof(out->name) || !n) {
		snprintf(err, errlen, "'%s': not an event", s);
		return -EINVAL;
	}
	out->type = UINT32_MAX;
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (strlen(named[i].name) == n && !strncmp(s, named[i].name, n)) {
			out->type = named[i].type;
			out->config = named[i].config;
		}
	}
	if (out->type == UINT32_MAX && !parse_cache(s, n, &out->config))
		out->type = PERF_TYPE_HW_CACHE;
	if (out->type == UINT32_MAX && s[0] == 'r' && n > 1) {
		/* a raw event: r and the PMU's config in hex */
		out->config = strtoull(s + 1, &end, 16);
		if (end == s + n)
			out->type = PERF_TYPE_RAW;
	}
	if (out->type == UINT32_MAX) {
		snprintf(err, errlen, "unknown event '%.*s' (perf's hardware, software and cache "
				      "event names, or rHEX)", (int)n, s);
		return -EINVAL;
	}
	/* without modifiers perf counts the host only: the guest excluded */
	out->exclude_guest = true;
	if (colon && parse_modifiers(colon + 1, out)) {
		snprintf(err, errlen, "'%s': bad modifier (u, k, h, G, H, p, pp, ppp)", s);
		return -EINVAL;
	}
	snprintf(out->name, sizeof(out->name), "%s", s);
	return 0;
}
