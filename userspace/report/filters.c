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

int filters__parse(struct filters *f, int kind, const char *arg)
{
	const char *p = arg;
	int err = 0;

	if (kind == 'T') {
		const char *comma = strchr(arg, ',');

		if (!comma)
			return -EINVAL;
		f->has_time = true;
		f->t_start = 0;
		f->t_end = UINT64_MAX;
		if (comma > arg && filters__parse_seconds(arg, (size_t)(comma - arg), &f->t_start))
			return -EINVAL;
		if (comma[1]) {
			const char *dot = strchr(comma + 1, '.');
			size_t digits = dot ? strlen(dot + 1) : 0;
			uint64_t unit = 1000000000ULL;

			if (filters__parse_seconds(comma + 1, strlen(comma + 1), &f->t_end))
				return -EINVAL;
			/* the end is inclusive at the precision given: "1.5" covers 1.5xxx */
			while (digits-- && unit > 1)
				unit /= 10;
			f->t_end += unit - 1;
		}
		return 0;
	}
	while (*p && !err) {
		size_t n = strcspn(p, ",");

		switch (kind) {
		case 'p':
			err = add_u32(&f->pids, &f->nr_pids, p, n);
			break;
		case 't':
			err = add_u32(&f->tids, &f->nr_tids, p, n);
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

bool filters__task(const struct filters *f, uint32_t pid, uint32_t tid, uint64_t time)
{
	if (f->nr_pids && !in_u32(f->pids, f->nr_pids, pid))
		return false;
	if (f->nr_tids && !in_u32(f->tids, f->nr_tids, tid))
		return false;
	if (f->has_time && (time < f->t_start || time > f->t_end))
		return false;
	return true;
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
	memset(f, 0, sizeof(*f));
}
