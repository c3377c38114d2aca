// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -F/--fields: the text table with the columns named, in their
 * order: the numbers (overhead, overhead_children, sample, period) and the
 * sort keys, the rows in the order hist__sort() gives them by the fields'
 * sort list (hist_fields.rank), as perf ranks them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

static const char *const num_names[] = { "overhead", "overhead_children", "sample", "period" };
static const char *const num_titles[] = { "Overhead", "Children", "Samples", "Period" };
static const int num_width[] = { 8, 8, 12, 12 };

bool hist_fields__has(const struct hist_fields *f, int col)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->col[i] == col)
			return true;
	return false;
}

/* One name: a number's or a sort key's; -EINVAL when neither. */
static int field_of(const char *name, size_t n, int *col)
{
	struct hist one = { 0 };
	char spec[64], bad[64];
	size_t i;

	for (i = 0; i < sizeof(num_names) / sizeof(num_names[0]); i++)
		if (strlen(num_names[i]) == n && !strncmp(name, num_names[i], n)) {
			*col = HF_OVERHEAD + (int)i;
			return 0;
		}
	if (n == 0 || n >= sizeof(spec))
		return -EINVAL;
	memcpy(spec, name, n);
	spec[n] = 0;
	if (hist__set_sort(&one, spec, bad, sizeof(bad)) || one.nr_keys != 1)
		return -EINVAL;
	*col = one.keys[0];
	return 0;
}

int hist_fields__parse(struct hist_fields *f, const char *spec, const char *sort, char *bad,
		       size_t badlen)
{
	const char *lists[2] = { spec, sort };
	size_t l;

	f->nr = 0;
	for (l = 0; l < 2; l++) {
		const char *p = lists[l];

		while (p && *p) {
			size_t n = strcspn(p, ",");
			int col;

			if (field_of(p, n, &col)) {
				snprintf(bad, badlen, "%.*s", (int)n, p);
				return -EINVAL;
			}
			/* the sort's keys only where -F left them out */
			if (!hist_fields__has(f, col) && f->nr < sizeof(f->col) / sizeof(f->col[0]))
				f->col[f->nr++] = col;
			p += n;
			if (*p == ',')
				p++;
		}
	}
	if (!f->nr) {
		snprintf(bad, badlen, "(empty)");
		return -EINVAL;
	}
	return 0;
}

void hist_fields__keys(const struct hist_fields *f, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < f->nr; i++) {
		int w;

		if (f->col[i] >= SK_MAX)
			continue;
		w = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
			     hist__key_name((enum sort_key)f->col[i]));
		if (w < 0 || (size_t)w >= len - used)
			return;
		used += (size_t)w;
	}
}

static uint64_t num_of(const struct hist_entry *e, int col)
{
	switch (col) {
	case HF_CHILDREN:
		return e->children;
	case HF_SAMPLE:
		return e->samples;
	default:
		return e->period;
	}
}

static bool keyed(const struct hist_fields *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->col[i] < SK_MAX)
			return true;
	return false;
}

static void print_num(const struct hist *h, const struct hist_entry *e, int col, FILE *out)
{
	int w = num_width[col - HF_OVERHEAD];

	if (col == HF_CHILDREN && !h->children)
		fprintf(out, "%*s", w, "N/A"); /* perf's, for a recording without call chains */
	else if (col == HF_OVERHEAD || col == HF_CHILDREN)
		fprintf(out, "%*.2f%%", w - 1, hist__pct(num_of(e, col), h->total_period));
	else
		fprintf(out, "%*llu", w, (unsigned long long)num_of(e, col));
}

/* Whether column @col is a key's that a filter pins (hist__hidden()). */
static bool hidden(const struct hist *h, const struct report_meta *m, int col)
{
	return col < SK_MAX && hist__hidden(h, m, (enum sort_key)col);
}

void hist__print_fields_stdio(const struct hist *h, const struct report_meta *m, FILE *out)
{
	const struct hist_fields *f = m->fields;
	size_t width[SK_MAX] = { 0 }, i, c, last = 0;
	char buf[1200];
	bool first;

	for (c = 0; c < f->nr; c++)
		if (!hidden(h, m, f->col[c]))
			last = c;
	hist__print_title(h, m, out);
	for (c = 0; c < f->nr; c++)
		if (f->col[c] < SK_MAX)
			width[f->col[c]] = strlen(hist__headers[f->col[c]]);
	for (i = 0; i < h->nr; i++)
		for (c = 0; c < f->nr; c++) {
			size_t l;

			if (f->col[c] >= SK_MAX)
				continue;
			l = hist__cell_width(&h->e[i], (enum sort_key)f->col[c], m->sym_params);
			if (l > width[f->col[c]])
				width[f->col[c]] = l;
		}
	for (c = 0, first = true; c < f->nr; c++) {
		int col = f->col[c];

		if (hidden(h, m, col))
			continue;
		if (col >= SK_MAX)
			fprintf(out, "%s%*s", first ? "# " : "  ", num_width[col - HF_OVERHEAD],
				num_titles[col - HF_OVERHEAD]);
		else
			fprintf(out, "%s%-*s", first ? "# " : "  ", (int)width[col],
				hist__headers[col]);
		first = false;
	}
	fputs("\n", out);
	for (c = 0, first = true; c < f->nr; c++) {
		size_t w = f->col[c] >= SK_MAX ? (size_t)num_width[f->col[c] - HF_OVERHEAD]
					       : width[f->col[c]];

		if (hidden(h, m, f->col[c]))
			continue;
		fputs(first ? "# " : "  ", out);
		first = false;
		while (w--)
			fputc('.', out);
	}
	fputs("\n#\n", out);
	if (!keyed(f)) {
		/* no key: as perf, one row of all the samples */
		struct hist_entry all = { .period = h->total_period, .samples = h->total_samples,
					  .children = h->total_period };

		for (c = 0; c < f->nr; c++) {
			fputs("  ", out);
			print_num(h, &all, f->col[c], out);
		}
		fputc('\n', out);
	}
	for (i = 0; i < h->nr && keyed(f); i++) {
		const struct hist_entry *e = &h->e[i]; /* in the fields' order (hist__sort()) */

		if (hist__rank_pct(h, e) < m->percent_limit)
			continue;
		for (c = 0; c < f->nr; c++) {
			int col = f->col[c];

			if (hidden(h, m, col))
				continue;
			fputs("  ", out);
			if (col >= SK_MAX) {
				print_num(h, e, col, out);
				continue;
			}
			fprintf(out, "%-*.*s", c < last || hist__padded_last(col) ? (int)width[col] : 0,
				hist__cell_prec((enum sort_key)col, width[col]),
				hist__cell(e, (enum sort_key)col, m->sym_params, buf, sizeof(buf)));
		}
		fputc('\n', out);
		if (m->graph && e->tree != CT_NONE)
			hist__print_graph(h, e, m->graph, out);
	}
	fputs("#\n", out);
}
