// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --group's table: the histograms of one event group's members
 * side by side. An entry is a key of any member; each member's column shows
 * that member's share of its own samples (0.00% where it has none), and the
 * entries are ranked by the leader's share, then the next member's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

/* One row: the entry of each member that has the key, NULL where none has. */
struct group_row {
	const struct hist_entry **of; /* n entries */
};

/* A member's entries by their hash, to find the entry of a key. */
struct member_index {
	const struct hist *h;
	uint32_t *slot;
	size_t mask;
};

static int index_build(struct member_index *x, const struct hist *h)
{
	size_t cap = 16, i, j;

	while (cap < h->nr * 2)
		cap *= 2;
	x->h = h;
	x->mask = cap - 1;
	x->slot = malloc(cap * sizeof(*x->slot));
	if (!x->slot)
		return -ENOMEM;
	memset(x->slot, 0xff, cap * sizeof(*x->slot));
	for (i = 0; i < h->nr; i++) {
		for (j = h->e[i].hash & x->mask; x->slot[j] != UINT32_MAX; j = (j + 1) & x->mask)
			;
		x->slot[j] = (uint32_t)i;
	}
	return 0;
}

static const struct hist_entry *index_find(const struct member_index *x,
					   const struct hist_entry *e)
{
	size_t j;

	for (j = e->hash & x->mask; x->slot[j] != UINT32_MAX; j = (j + 1) & x->mask) {
		const struct hist_entry *c = &x->h->e[x->slot[j]];

		if (c->hash == e->hash && hist__same_key(x->h, &c->k, &e->k))
			return c;
	}
	return NULL;
}

static const struct hist_entry *first_of(const struct group_row *r, size_t n, size_t *which)
{
	size_t i;

	for (i = 0; i < n && !r->of[i]; i++)
		;
	*which = i;
	return r->of[i];
}

static uint64_t rank_of(const struct hist_entry *e, bool children)
{
	return !e ? 0 : children ? e->children : e->period;
}

/* The rows: the leader's entries, then those only later members have. */
static int build_rows(const struct hist *const *hs, size_t n, struct group_row **rows,
		      const struct hist_entry ***cells, size_t *nr)
{
	struct member_index *x = calloc(n, sizeof(*x));
	size_t total = 0, i, m, k;
	int err = -ENOMEM;

	*rows = NULL;
	*cells = NULL;
	*nr = 0;
	if (!x)
		return -ENOMEM;
	for (m = 0; m < n; m++) {
		total += hs[m]->nr;
		if (index_build(&x[m], hs[m]))
			goto out;
	}
	*rows = calloc(total ? total : 1, sizeof(**rows));
	*cells = calloc(total ? total * n : 1, sizeof(**cells));
	if (!*rows || !*cells)
		goto out;
	for (m = 0; m < n; m++) {
		for (i = 0; i < hs[m]->nr; i++) {
			const struct hist_entry *e = &hs[m]->e[i];
			struct group_row *r;

			/* an earlier member has this key: the row is made */
			for (k = 0; k < m && !index_find(&x[k], e); k++)
				;
			if (k < m)
				continue;
			r = &(*rows)[(*nr)++];
			r->of = *cells + (*nr - 1) * n;
			for (k = 0; k < n; k++)
				r->of[k] = k == m ? e : k < m ? NULL : index_find(&x[k], e);
		}
	}
	err = 0;
out:
	for (m = 0; m < n; m++)
		free(x[m].slot);
	free(x);
	return err;
}

static void dots(FILE *out, size_t w)
{
	while (w--)
		fputc('.', out);
}

static void print_header(const struct hist *const *hs, size_t n, const size_t *width,
			 const struct report_meta *m, FILE *out)
{
	const struct hist *h = hs[0];
	size_t k;

	fprintf(out, "# %*s", (int)(8 * n), h->children ? "Children" : "Overhead");
	if (h->children)
		fprintf(out, "  %*s", (int)(8 * n), "Self");
	if (m->show_nr_samples)
		fprintf(out, "  %*s", (int)(12 * n), "Samples");
	for (k = 0; k < h->nr_keys; k++)
		if (!hist__hidden(h, m, h->keys[k]))
			fprintf(out, "  %-*s", (int)width[h->keys[k]], hist__headers[h->keys[k]]);
	fputs("\n# ", out);
	dots(out, 8 * n);
	if (h->children) {
		fputs("  ", out);
		dots(out, 8 * n);
	}
	if (m->show_nr_samples) {
		fputs("  ", out);
		dots(out, 12 * n);
	}
	for (k = 0; k < h->nr_keys; k++) {
		if (hist__hidden(h, m, h->keys[k]))
			continue;
		fputs("  ", out);
		dots(out, width[h->keys[k]]);
	}
	fputs("\n#\n", out);
}

static void print_row(const struct hist *const *hs, size_t n, const struct group_row *r,
		      const size_t *width, const struct report_meta *m, FILE *out)
{
	const struct hist *h = hs[0];
	const struct hist_entry *e;
	size_t i;

	if (h->children)
		for (i = 0; i < n; i++)
			fprintf(out, "%s%7.2f%%", i ? "" : "  ",
				hist__pct(rank_of(r->of[i], true), hs[i]->total_period));
	for (i = 0; i < n; i++)
		fprintf(out, "%s%7.2f%%", i ? "" : "  ",
			hist__pct(rank_of(r->of[i], false), hs[i]->total_period));
	if (m->show_nr_samples)
		for (i = 0; i < n; i++)
			fprintf(out, "%s%12llu", i ? "" : "  ",
				(unsigned long long)(r->of[i] ? r->of[i]->samples : 0));
	e = first_of(r, n, &i);
	hist__print_cells(h, e, m, width, out);
}

/* Whether any member's share of row @r reaches --percent-limit. */
static bool row_shown(const struct hist *const *hs, size_t n, const struct group_row *r,
		      const struct report_meta *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r->of[i] && hist__rank_pct(hs[i], r->of[i]) >= m->percent_limit)
			return true;
	return false;
}

void hist__print_group_stdio(const struct hist *const *hs, size_t n, const char *name,
			     const struct report_meta *m, FILE *out)
{
	struct report_meta gm = *m;
	struct hist sum = { 0 };
	struct group_row *rows;
	const struct hist_entry **cells;
	uint32_t *order = NULL;
	size_t nr, i, k, width[SK_MAX] = { 0 };

	for (i = 0; i < n; i++) {
		sum.total_samples += hs[i]->total_samples;
		sum.total_period += hs[i]->total_period;
	}
	gm.event = name;
	gm.events_plural = true;
	/* (the keys, for the lines of those a filter pins) */
	memcpy(sum.keys, hs[0]->keys, sizeof(sum.keys));
	sum.nr_keys = hs[0]->nr_keys;
	hist__print_title(&sum, &gm, out);
	if (build_rows(hs, n, &rows, &cells, &nr) ||
	    !(order = malloc((nr ? nr : 1) * sizeof(*order))) ||
	    hist__sort_group(hs, n, cells, nr, order)) {
		fputs("# (out of memory)\n", out);
		goto out;
	}
	for (k = 0; k < hs[0]->nr_keys; k++)
		width[hs[0]->keys[k]] = strlen(hist__headers[hs[0]->keys[k]]);
	for (i = 0; i < nr; i++) {
		const struct hist_entry *e;
		size_t which;

		if (!row_shown(hs, n, &rows[order[i]], m))
			continue;
		e = first_of(&rows[order[i]], n, &which);
		for (k = 0; k < hs[0]->nr_keys; k++) {
			size_t l = hist__cell_width(e, hs[0]->keys[k], m->sym_params);

			if (l > width[hs[0]->keys[k]])
				width[hs[0]->keys[k]] = l;
		}
	}
	print_header(hs, n, width, m, out);
	for (i = 0; i < nr; i++) {
		const struct hist_entry *e;
		size_t which;

		if (!row_shown(hs, n, &rows[order[i]], m))
			continue;
		print_row(hs, n, &rows[order[i]], width, m, out);
		e = first_of(&rows[order[i]], n, &which);
		/* the call tree of the first member that has the entry (the leader's, mostly) */
		if (m->graph && e->tree != CT_NONE)
			hist__print_graph(hs[which], e, m->graph, out);
	}
out:
	free(order);
	free(rows);
	free(cells);
	fputs("#\n", out);
}
