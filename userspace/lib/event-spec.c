// SPDX-License-Identifier: GPL-2.0
/* perf's -e event names and modifiers (event-spec.h). */
#include <ctype.h>
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

/*
 * A tracepoint's SYSTEM or NAME: what tracefs has for directory names, or a
 * glob of them ('*', '?').
 */
static bool tp_word(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= sizeof(((struct event_spec *)0)->tp_sys))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.*?", s[i]))
			return false;
	return true;
}

/* "SYSTEM:NAME[:MODIFIERS]": the two words and where the modifiers start, or NULL. */
static int parse_tracepoint(const char *s, struct event_spec *out, const char **mods, char *err,
			    size_t errlen)
{
	const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t ns = (size_t)(c1 - s), nn = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);

	if (!tp_word(s, ns) || !tp_word(c1 + 1, nn)) {
		snprintf(err, errlen, "unknown event '%s' (perf's hardware, software and cache "
				      "event names, rHEX, or a tracepoint SYSTEM:NAME)", s);
		return -EINVAL;
	}
	out->tracepoint = true;
	out->type = PERF_TYPE_TRACEPOINT;
	memcpy(out->tp_sys, s, ns);
	memcpy(out->tp_name, c1 + 1, nn);
	*mods = c2 ? c2 + 1 : NULL;
	return 0;
}

int event_spec__parse(const char *s, struct event_spec *out, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':'), *mods;
	size_t n = colon ? (size_t)(colon - s) : strlen(s), i;
	char *end;

	memset(out, 0, sizeof(*out));
	if (strpbrk(s, ",{}")) {
		snprintf(err, errlen, "'%s': one event expected", s);
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
	mods = colon ? colon + 1 : NULL;
	if (out->type == UINT32_MAX && colon && parse_tracepoint(s, out, &mods, err, errlen))
		return -EINVAL;
	if (out->type == UINT32_MAX) {
		snprintf(err, errlen, "unknown event '%.*s' (perf's hardware, software and cache "
				      "event names, rHEX, or a tracepoint SYSTEM:NAME)", (int)n, s);
		return -EINVAL;
	}
	/* without modifiers perf counts the host only: the guest excluded */
	out->exclude_guest = true;
	if (mods && parse_modifiers(mods, out)) {
		snprintf(err, errlen, "'%s': bad modifier (u, k, h, G, H, p, pp, ppp)", s);
		return -EINVAL;
	}
	out->nr_members = 1;
	snprintf(out->name, sizeof(out->name), "%s", s);
	return 0;
}

/*
 * One event of a list, @n bytes at @s, with a group's modifiers @gmods
 * (NULL outside a group or without them) added to its own: its name stays
 * as typed, as perf names a group's members.
 */
static int parse_member(struct event_list *l, const char *s, size_t n, const char *gmods,
			char *err, size_t errlen)
{
	char one[160];
	struct event_spec *e;
	int len;

	if (!n) {
		snprintf(err, errlen, "an empty event in the list");
		return -EINVAL;
	}
	if (l->nr == EVENT_LIST_MAX) {
		snprintf(err, errlen, "more than %d events", EVENT_LIST_MAX);
		return -EINVAL;
	}
	e = &l->ev[l->nr];
	if (n >= sizeof(e->name)) {
		snprintf(err, errlen, "'%.*s': not an event", (int)n, s);
		return -EINVAL;
	}
	len = snprintf(one, sizeof(one), "%.*s", (int)n, s);
	if (event_spec__parse(one, e, err, errlen))
		return -EINVAL;
	if (gmods && *gmods) {
		/* its own modifiers, then the group's; a tracepoint's come after NAME */
		int colons = e->tracepoint ? 2 : 1, k;

		for (k = 0; k < len; k++)
			colons -= one[k] == ':';
		snprintf(one + len, sizeof(one) - (size_t)len, "%s%s", colons > 0 ? ":" : "",
			 gmods);
		if (event_spec__parse(one, e, err, errlen))
			return -EINVAL;
		snprintf(e->name, sizeof(e->name), "%.*s", (int)n, s);
	}
	e->leader = (uint16_t)l->nr;
	l->nr++;
	return 0;
}

/* "{a,b}[:mods]" at @s (at its brace), up to @end; *@next after it. */
static int parse_group(struct event_list *l, const char *s, const char *end, char *err,
		       size_t errlen)
{
	const char *close = memchr(s, '}', (size_t)(end - s)), *p;
	char gmods[32] = "";
	size_t first = l->nr;

	if (!close || memchr(s + 1, '{', (size_t)(close - s - 1))) {
		snprintf(err, errlen, "'%.*s': a group is '{EVENT,EVENT...}' (no nesting)",
			 (int)(end - s), s);
		return -EINVAL;
	}
	if (close + 1 < end) {
		if (close[1] != ':' || (size_t)(end - close - 2) >= sizeof(gmods) || end == close + 2) {
			snprintf(err, errlen, "'%.*s': only ':MODIFIERS' may follow a group",
				 (int)(end - s), s);
			return -EINVAL;
		}
		memcpy(gmods, close + 2, (size_t)(end - close - 2));
	}
	for (p = s + 1; p <= close; ) {
		const char *comma = memchr(p, ',', (size_t)(close - p));
		const char *stop = comma ? comma : close;

		if (parse_member(l, p, (size_t)(stop - p), gmods, err, errlen))
			return -EINVAL;
		l->ev[l->nr - 1].leader = (uint16_t)first;
		p = stop + 1;
	}
	l->ev[first].nr_members = (uint16_t)(l->nr - first);
	return 0;
}

int event_list__parse(struct event_list *l, const char *s, char *err, size_t errlen)
{
	size_t nr0 = l->nr;
	const char *p = s;

	while (*p) {
		const char *end;
		int e;

		if (*p == '{') {
			const char *close = strchr(p, '}');

			end = close ? strchr(close, ',') : NULL;
			end = end ? end : p + strlen(p);
			e = parse_group(l, p, end, err, errlen);
		} else {
			end = strchr(p, ',');
			end = end ? end : p + strlen(p);
			if (memchr(p, '}', (size_t)(end - p))) {
				snprintf(err, errlen, "'%s': a '}' without its '{'", s);
				e = -EINVAL;
			} else {
				e = parse_member(l, p, (size_t)(end - p), NULL, err, errlen);
			}
		}
		if (e) {
			l->nr = nr0;
			return -EINVAL;
		}
		if (!*end)
			break;
		p = end + 1;
		if (!*p) {
			snprintf(err, errlen, "'%s': an empty event at the end", s);
			l->nr = nr0;
			return -EINVAL;
		}
	}
	if (l->nr == nr0) {
		snprintf(err, errlen, "no event given");
		return -EINVAL;
	}
	return 0;
}

bool event_spec__is_glob(const struct event_spec *e)
{
	return e->tracepoint && (strpbrk(e->tp_sys, "*?") || strpbrk(e->tp_name, "*?"));
}

int event_list__expand(struct event_list *l, size_t i, const char (*tps)[2][64], size_t n,
		       char *err, size_t errlen)
{
	const struct event_spec glob = l->ev[i];
	const char *mods = strchr(strchr(glob.name, ':') + 1, ':');
	size_t k, lead = glob.leader;
	bool grouped = glob.leader != i || glob.nr_members > 1;

	if (!n) {
		snprintf(err, errlen, "matches no tracepoint");
		return -ENOENT;
	}
	if (l->nr - 1 + n > EVENT_LIST_MAX) {
		snprintf(err, errlen, "matches more than %d events with the others",
			 EVENT_LIST_MAX);
		return -E2BIG;
	}
	memmove(&l->ev[i + n], &l->ev[i + 1], (l->nr - i - 1) * sizeof(l->ev[0]));
	l->nr += n - 1;
	for (k = i + n; k < l->nr; k++)
		if (l->ev[k].leader > i)
			l->ev[k].leader = (uint16_t)(l->ev[k].leader + n - 1);
	for (k = 0; k < n; k++) {
		struct event_spec *e = &l->ev[i + k];

		*e = glob;
		snprintf(e->tp_sys, sizeof(e->tp_sys), "%s", tps[k][0]);
		snprintf(e->tp_name, sizeof(e->tp_name), "%s", tps[k][1]);
		snprintf(e->name, sizeof(e->name), "%s:%s%s", e->tp_sys, e->tp_name,
			 mods ? mods : "");
		/* alone, each is its own event; in a group, each a member */
		e->leader = (uint16_t)(grouped ? lead : i + k);
		e->nr_members = 1;
	}
	if (grouped) /* its group grows by the events beyond the one it was */
		l->ev[lead].nr_members = (uint16_t)((lead == i ? glob.nr_members
							      : l->ev[lead].nr_members) + n - 1);
	return 0;
}

size_t event_list__nr_groups(const struct event_list *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nr; i++)
		n += l->ev[i].leader == i && l->ev[i].nr_members > 1;
	return n;
}
