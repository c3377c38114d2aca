// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "dso.h"
#include "filters.h"

static int add_str(char ***v, size_t *n, const char *s, size_t len)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(s, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int add_u32(uint32_t **v, size_t *n, const char *s, size_t len)
{
	char buf[16], *end;
	unsigned long x;
	uint32_t *nv;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	x = strtoul(buf, &end, 10);
	if (*end || x > UINT32_MAX)
		return -EINVAL;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[(*n)++] = (uint32_t)x;
	return 0;
}

int filters__parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ULL;
	size_t i = 0;

	if (!len)
		return -EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000ULL)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(s[i] - '0') * scale;
			}
		}
	}
	if (i != len)
		return -EINVAL;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static int add_range(struct filters *f, uint64_t start, uint64_t end)
{
	struct time_range *nr = realloc(f->ranges, (f->nr_ranges + 1) * sizeof(*nr));

	if (!nr)
		return -ENOMEM;
	f->ranges = nr;
	nr[f->nr_ranges].start = start;
	nr[f->nr_ranges++].end = end;
	return 0;
}

/* "START,END", either side empty for open */
static int parse_range(struct filters *f, const char *s, size_t len)
{
	const char *comma = memchr(s, ',', len);
	uint64_t start = 0, end = 0;
	size_t n;

	if (!comma || memchr(comma + 1, ',', len - (size_t)(comma - s) - 1))
		return -EINVAL;
	n = (size_t)(comma - s);
	if (n && filters__parse_seconds(s, n, &start))
		return -EINVAL;
	n = len - n - 1;
	if (n && filters__parse_seconds(comma + 1, n, &end))
		return -EINVAL;
	if (end && start > end)
		return -EINVAL;
	/* ranges ascending and apart, as perf requires */
	if (f->nr_ranges && (!f->ranges[f->nr_ranges - 1].end ||
			     f->ranges[f->nr_ranges - 1].end >= start))
		return -EINVAL;
	return add_range(f, start, end);
}

static int parse_time(struct filters *f, const char *arg)
{
	const char *p = arg;
	int err;

	free(f->ranges);
	free(f->time_pct);
	f->ranges = NULL;
	f->nr_ranges = 0;
	f->time_pct = NULL;
	f->has_time = true;
	if (strchr(arg, '%')) {
		/* checked by filters__time_bounds() once the span is known */
		f->time_pct = strdup(arg);
		return f->time_pct ? 0 : -ENOMEM;
	}
	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		n = strcspn(p, " \t");
		if (!n)
			break;
		err = parse_range(f, p, n);
		if (err)
			return err;
		p += n;
	}
	return f->nr_ranges ? 0 : -EINVAL;
}

/* "12.5%" into 0.125 */
static int parse_pct(const char *s, size_t len, double *out)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = 0;
	*out = strtod(buf, &end) / 100.0;
	if (*end || end == buf || *out < 0.0 || *out > 1.0)
		return -EINVAL;
	return 0;
}

bool filters__time_needs_bounds(const struct filters *f)
{
	return f->time_pct != NULL;
}

/* perf's arithmetic: a slice ends just before the next starts, unless at the last sample */
int filters__time_bounds(struct filters *f, uint64_t first, uint64_t last)
{
	const char *p = f->time_pct;
	double total = (double)(last - first);
	int err;

	if (!p)
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		const char *slash = memchr(p, '/', n), *dash = memchr(p, '-', n);
		double a, b;
		uint64_t start, end;

		if (slash) {
			char *e;
			long nth = strtol(slash + 1, &e, 10);

			if (e != p + n || parse_pct(p, (size_t)(slash - p), &a) || a <= 0.0)
				return -EINVAL;
			b = a * (double)nth;
			a = a * (double)(nth - 1);
		} else if (dash) {
			if (parse_pct(p, (size_t)(dash - p), &a) ||
			    parse_pct(dash + 1, (size_t)(p + n - dash - 1), &b) || a > b)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
		if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
			return -EINVAL;
		/* the share of the span rounded to the nearest ns, from the first sample, as perf's */
		start = first + (uint64_t)(total * a + 0.5);
		end = first + (uint64_t)(total * b + 0.5);
		if (end > start && end != last)
			end--;
		if (f->nr_ranges && f->ranges[f->nr_ranges - 1].end >= start)
			return -EINVAL;
		err = add_range(f, start, end);
		if (err)
			return err;
		p += n;
		if (*p == ',')
			p++;
	}
	free(f->time_pct);
	f->time_pct = NULL;
	return f->nr_ranges ? 0 : -EINVAL;
}

/* "0-3,5" */
static int add_cpus(struct filters *f, const char *s, size_t len)
{
	const char *dash = memchr(s, '-', len);
	uint32_t *nv, lo, hi, c;
	char *end;
	int err;

	if (!dash)
		return add_u32(&f->cpus, &f->nr_cpus, s, len);
	err = add_u32(&f->cpus, &f->nr_cpus, s, (size_t)(dash - s));
	if (err)
		return err;
	lo = f->cpus[--f->nr_cpus];
	hi = (uint32_t)strtoul(dash + 1, &end, 10);
	if (end != s + len || dash + 1 == end || hi < lo || hi - lo > 4096)
		return -EINVAL;
	for (c = lo; c <= hi; c++) {
		nv = realloc(f->cpus, (f->nr_cpus + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		f->cpus = nv;
		nv[f->nr_cpus++] = c;
	}
	return 0;
}

int filters__parse(struct filters *f, int kind, const char *arg)
{
	const char *p = arg;
	int err = 0;

	if (kind == 'T')
		return parse_time(f, arg);
	while (*p && !err) {
		size_t n = strcspn(p, ",");

		switch (kind) {
		case 'p':
			err = add_u32(&f->pids, &f->nr_pids, p, n);
			break;
		case 't':
			err = add_u32(&f->tids, &f->nr_tids, p, n);
			break;
		case 'C':
			err = add_cpus(f, p, n);
			break;
		case 'c':
			err = add_str(&f->comms, &f->nr_comms, p, n);
			break;
		case 'd':
			err = add_str(&f->dsos, &f->nr_dsos, p, n);
			break;
		case 'S':
			err = add_str(&f->syms, &f->nr_syms, p, n);
			break;
		default:
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return err;
}

static bool in_u32(const uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static bool in_str(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* perf's rule: within one range, its open ends unbounded */
static bool in_time(const struct filters *f, uint64_t t)
{
	size_t i;

	for (i = 0; i < f->nr_ranges; i++)
		if ((!f->ranges[i].start || t >= f->ranges[i].start) &&
		    (!f->ranges[i].end || t <= f->ranges[i].end))
			return true;
	return false;
}

bool filters__time(const struct filters *f, uint64_t time)
{
	return !f->has_time || in_time(f, time);
}

bool filters__task(const struct filters *f, uint32_t pid, uint32_t tid, uint64_t time)
{
	if (f->nr_pids && !in_u32(f->pids, f->nr_pids, pid))
		return false;
	if (f->nr_tids && !in_u32(f->tids, f->nr_tids, tid))
		return false;
	return filters__time(f, time);
}

const char *filters__pinned(const struct filters *f, int kind)
{
	char *const *v = kind == 'c' ? f->comms : kind == 'd' ? f->dsos : kind == 'S' ? f->syms : NULL;
	size_t n = kind == 'c' ? f->nr_comms : kind == 'd' ? f->nr_dsos : kind == 'S' ? f->nr_syms : 0;
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(v[i], v[0]))
			return NULL;
	return n ? v[0] : NULL;
}

bool filters__cpu(const struct filters *f, uint32_t cpu)
{
	return !f->nr_cpus || in_u32(f->cpus, f->nr_cpus, cpu);
}

bool filters__comm(const struct filters *f, const char *comm)
{
	return !f->nr_comms || in_str(f->comms, f->nr_comms, comm);
}

bool filters__dso(const struct filters *f, const struct dso *d, const char *anon)
{
	if (!f->nr_dsos)
		return true;
	if (d)
		return in_str(f->dsos, f->nr_dsos, d->short_name) ||
		       in_str(f->dsos, f->nr_dsos, d->path);
	return anon && in_str(f->dsos, f->nr_dsos, anon);
}

bool filters__sym(const struct filters *f, const char *sym)
{
	char *dm;
	bool ok;

	if (!f->nr_syms)
		return true;
	if (!sym)
		return false;
	if (in_str(f->syms, f->nr_syms, sym))
		return true;
	/* a C++ name matches as printed, without its parameters or (-v) with them */
	dm = jrec_demangle(sym, false);
	ok = dm && in_str(f->syms, f->nr_syms, dm);
	free(dm);
	if (!ok && (dm = jrec_demangle(sym, true))) {
		ok = in_str(f->syms, f->nr_syms, dm);
		free(dm);
	}
	return ok;
}

void filters__release(struct filters *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	for (i = 0; i < f->nr_dsos; i++)
		free(f->dsos[i]);
	for (i = 0; i < f->nr_syms; i++)
		free(f->syms[i]);
	free(f->comms);
	free(f->dsos);
	free(f->syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->ranges);
	free(f->time_pct);
	memset(f, 0, sizeof(*f));
}
