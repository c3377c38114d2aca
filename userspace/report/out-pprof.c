// SPDX-License-Identifier: GPL-2.0
/*
 * pprof's profile.proto, gzipped: what go tool pprof, Pyroscope, Parca and
 * Grafana read. The message is built with protobuf-c from the profile.proto
 * that Debian's golang-github-google-pprof-dev installs (C code generated at
 * build time, userspace/Makefile). One mapping per file (its path, and its
 * build-id or content cookie in hex), one function and one location per
 * frame, one sample per distinct call chain with two values: the number of
 * samples and their period (nanoseconds of CPU time for cpu-clock and
 * task-clock, else the event's count); the command is the sample's "comm"
 * label.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "array.h"
#include "outputs.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

struct strtab {
	char **s;
	size_t nr, cap;
	uint32_t *idx;
	size_t icap;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* The index of @s in the string table, added (copied) if new; -1 when out of memory. */
static int64_t str_id(struct strtab *t, const char *s)
{
	size_t i, mask;

	if (!t->icap || (t->nr + 1) * 2 > t->icap) {
		size_t c = t->icap ? t->icap * 2 : 256, j;
		uint32_t *n = malloc(c * sizeof(*n));

		if (!n)
			return -1;
		memset(n, 0xff, c * sizeof(*n));
		for (j = 0; j < t->nr; j++) {
			for (i = str_hash(t->s[j]) & (c - 1); n[i] != UINT32_MAX;
			     i = (i + 1) & (c - 1))
				;
			n[i] = (uint32_t)j;
		}
		free(t->idx);
		t->idx = n;
		t->icap = c;
	}
	mask = t->icap - 1;
	for (i = str_hash(s) & mask; t->idx[i] != UINT32_MAX; i = (i + 1) & mask)
		if (!strcmp(t->s[t->idx[i]], s))
			return t->idx[i];
	if (array_grow(&t->s, &t->cap, t->nr + 1))
		return -1;
	t->s[t->nr] = strdup(s);
	if (!t->s[t->nr])
		return -1;
	t->idx[i] = (uint32_t)t->nr;
	return (int64_t)t->nr++;
}

struct pprof {
	struct calltree *ct;
	struct strtab str;
	bool oom;
	/* per frame of ct: its location and function (frame + 1), 0 when not made yet */
	uint64_t *loc_of;
	Location **loc;
	Function **fn;
	size_t nr_loc, cap_loc, cap_fn;
	Mapping **map;
	struct dso **map_dso; /* map[i]'s file; NULL: the mapping of anonymous code */
	const char **map_anon;
	size_t nr_map, cap_map, cap_map_dso, cap_map_anon;
	Sample **smp;
	size_t nr_smp, cap_smp;
	struct flame_path path;
	int64_t comm_key;
};

static int64_t sid(struct pprof *p, const char *s)
{
	int64_t id = str_id(&p->str, s);

	if (id < 0) {
		p->oom = true;
		return 0;
	}
	return id;
}

static uint64_t mapping_of(struct pprof *p, const struct ct_frame *f)
{
	const char *anon = f->dso ? NULL : f->anon ? f->anon : "[unknown]";
	char hex[JREC_COOKIE_HEX_LEN] = "";
	Mapping *m;
	size_t i;

	for (i = 0; i < p->nr_map; i++)
		if (p->map_dso[i] == f->dso && (f->dso || !strcmp(p->map_anon[i], anon)))
			return i + 1;
	if (array_grow(&p->map, &p->cap_map, p->nr_map + 1) ||
	    array_grow(&p->map_dso, &p->cap_map_dso, p->nr_map + 1) ||
	    array_grow(&p->map_anon, &p->cap_map_anon, p->nr_map + 1) ||
	    !(m = malloc(sizeof(*m)))) {
		p->oom = true;
		return 0;
	}
	perftools__profiles__mapping__init(m);
	m->id = p->nr_map + 1;
	m->filename = sid(p, f->dso ? f->dso->path : anon);
	if (f->dso && f->dso->cookie.len)
		jrec_cookie_hex(&f->dso->cookie, hex);
	m->build_id = sid(p, hex);
	m->has_functions = true;
	p->map[p->nr_map] = m;
	p->map_dso[p->nr_map] = f->dso;
	p->map_anon[p->nr_map] = anon;
	return ++p->nr_map;
}

/* The location of frame @frame, made with its function when first seen. */
static uint64_t location_of(struct pprof *p, uint32_t frame)
{
	const struct ct_frame *f = &p->ct->f[frame];
	Location *l = NULL;
	Function *fn = NULL;
	Line *line = NULL, **lines = NULL;

	if (p->loc_of[frame])
		return p->loc_of[frame];
	if (array_grow(&p->loc, &p->cap_loc, p->nr_loc + 1) ||
	    array_grow(&p->fn, &p->cap_fn, p->nr_loc + 1) || !(l = malloc(sizeof(*l))) ||
	    !(fn = malloc(sizeof(*fn))) || !(line = malloc(sizeof(*line))) ||
	    !(lines = malloc(sizeof(*lines)))) {
		free(l);
		free(fn);
		free(line);
		p->oom = true;
		return 0;
	}
	perftools__profiles__function__init(fn);
	fn->id = p->nr_loc + 1;
	fn->name = sid(p, calltree__name(p->ct, frame));
	fn->system_name = f->sym ? sid(p, f->sym) : fn->name;
	fn->filename = sid(p, f->dso ? f->dso->path : f->anon ? f->anon : "");
	perftools__profiles__line__init(line);
	line->function_id = fn->id;
	perftools__profiles__location__init(l);
	l->line = lines;
	l->id = fn->id;
	l->mapping_id = mapping_of(p, f);
	/* a function-level profile: the function's start (the address when unresolved) */
	l->address = f->sym ? f->sym_start : f->addr;
	l->n_line = 1;
	l->line[0] = line;
	p->loc[p->nr_loc] = l;
	p->fn[p->nr_loc] = fn;
	p->loc_of[frame] = ++p->nr_loc;
	return p->loc_of[frame];
}

static int sample(struct calltree *ct, uint32_t node, int depth, void *arg)
{
	struct pprof *p = arg;
	const struct ct_node *n = &ct->n[node];
	Sample *s;
	Label *lb;
	int i, err = flame_path__set(&p->path, ct, node, depth);

	if (err || !n->self_n)
		return err;
	if (array_grow(&p->smp, &p->cap_smp, p->nr_smp + 1) || !(s = malloc(sizeof(*s))))
		return -ENOMEM;
	perftools__profiles__sample__init(s);
	p->smp[p->nr_smp++] = s;
	s->location_id = malloc((size_t)depth * sizeof(*s->location_id));
	s->value = malloc(2 * sizeof(*s->value));
	s->label = malloc(sizeof(*s->label));
	lb = malloc(sizeof(*lb));
	if (!s->location_id || !s->value || !s->label || !lb) {
		free(lb);
		return -ENOMEM;
	}
	/* the sampled function first; path[0] is the command, a label */
	for (i = depth - 1; i >= 1; i--)
		s->location_id[s->n_location_id++] = location_of(p, p->path.frames[i]);
	s->n_value = 2;
	s->value[0] = (int64_t)n->self_n;
	s->value[1] = (int64_t)n->self;
	perftools__profiles__label__init(lb);
	lb->key = p->comm_key;
	lb->str = sid(p, calltree__name(ct, p->path.frames[0]));
	s->label[0] = lb;
	s->n_label = 1;
	return p->oom ? -ENOMEM : 0;
}

/* @len bytes of @buf, gzipped, to @out. */
static int gzip_to(FILE *out, const uint8_t *buf, size_t len)
{
	z_stream z = {0};
	uint8_t chunk[65536];
	int zr;

	/* 15 + 16: a gzip header and trailer around deflate */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY))
		return -ENOMEM;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR)
			break;
		if (fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out) !=
		    sizeof(chunk) - z.avail_out)
			zr = Z_ERRNO;
	} while (zr == Z_OK);
	deflateEnd(&z);
	return zr == Z_STREAM_END ? 0 : -EIO;
}

static void pprof_release(struct pprof *p)
{
	size_t i;

	for (i = 0; i < p->nr_smp; i++) {
		if (p->smp[i]->n_label)
			free(p->smp[i]->label[0]);
		free(p->smp[i]->label);
		free(p->smp[i]->location_id);
		free(p->smp[i]->value);
		free(p->smp[i]);
	}
	for (i = 0; i < p->nr_loc; i++) {
		free(p->loc[i]->line[0]);
		free(p->loc[i]->line);
		free(p->loc[i]);
		free(p->fn[i]);
	}
	for (i = 0; i < p->nr_map; i++)
		free(p->map[i]);
	for (i = 0; i < p->str.nr; i++)
		free(p->str.s[i]);
	free(p->str.s);
	free(p->str.idx);
	free(p->smp);
	free(p->loc);
	free(p->fn);
	free(p->loc_of);
	free(p->map);
	free(p->map_dso);
	free(p->map_anon);
	free(p->path.frames);
}

int out_pprof__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out)
{
	struct pprof p = {.ct = ct};
	Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	ValueType vt[2] = {PERFTOOLS__PROFILES__VALUE_TYPE__INIT,
			   PERFTOOLS__PROFILES__VALUE_TYPE__INIT};
	ValueType period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	ValueType *vts[2] = {&vt[0], &vt[1]};
	int64_t comment;
	char title[600];
	uint8_t *buf = NULL;
	size_t len;
	int err;

	p.loc_of = calloc(ct->nr_f ? ct->nr_f : 1, sizeof(*p.loc_of));
	if (!p.loc_of)
		return -ENOMEM;
	sid(&p, ""); /* string 0 is the empty string */
	vt[0].type = sid(&p, "samples");
	vt[0].unit = sid(&p, "count");
	/* time off CPU, or off and on: named by the event, as perf names it */
	vt[1].type = sid(&p, fi->by_period		 ? fi->event
			     : fi->period_ns		 ? "cpu"
			     : fi->event && *fi->event ? fi->event
						       : "events");
	vt[1].unit = sid(&p, fi->period_ns ? "nanoseconds" : "count");
	period = vt[1];
	p.comm_key = sid(&p, "comm");
	snprintf(title, sizeof(title), "jrec report of %s", fi->file);
	comment = sid(&p, title);
	err = calltree__walk(ct, root, sample, &p);
	if (!err && p.oom)
		err = -ENOMEM;
	if (err)
		goto out;
	prof.n_sample_type = 2;
	prof.sample_type = vts;
	prof.default_sample_type = vt[1].type;
	prof.period_type = &period;
	prof.n_sample = p.nr_smp;
	prof.sample = p.smp;
	prof.n_mapping = p.nr_map;
	prof.mapping = p.map;
	prof.n_location = p.nr_loc;
	prof.location = p.loc;
	prof.n_function = p.nr_loc;
	prof.function = p.fn;
	prof.n_string_table = p.str.nr;
	prof.string_table = p.str.s;
	prof.n_comment = 1;
	prof.comment = &comment;
	len = perftools__profiles__profile__get_packed_size(&prof);
	buf = malloc(len ? len : 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	perftools__profiles__profile__pack(&prof, buf);
	err = gzip_to(out, buf, len);
out:
	free(buf);
	pprof_release(&p);
	return err;
}
