// SPDX-License-Identifier: GPL-2.0
/*
 * The report's table on standard output, in perf report --stdio's layout:
 * the header, one row per entry with its call tree under it (-g,
 * hist-graph.c), then what JIT records named and what could not be
 * symbolized.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "hist.h"

static const char *dso_name(const struct hist_key *k)
{
	if (k->dso)
		return k->dso->short_name;
	return k->anon ? k->anon : "[unknown]";
}

static void build_id_hex(const struct hist_key *k, char *buf)
{
	if (k->dso && k->dso->cookie.len)
		jrec_cookie_hex(&k->dso->cookie, buf);
	else
		strcpy(buf, "");
}

static const char *side_dso(const struct hist_side *sd)
{
	if (sd->dso)
		return sd->dso->short_name;
	return sd->anon ? sd->anon : "[unknown]";
}

static const char *side_sym(const struct hist_side *sd, int style, char *buf, size_t len)
{
	struct hist_key k = { .sym = sd->sym, .plt = sd->plt, .addr = sd->addr };
	char sym[1024];

	snprintf(buf, len, "[%c] %s", sd->level, hist__sym_name(&k, style, sym, sizeof(sym)));
	return buf;
}

const char *hist__cell(const struct hist_entry *e, enum sort_key key, int style, char *buf,
		       size_t len)
{
	char sym[1024];

	switch (key) {
	case SK_COMM:
		return e->k.comm;
	case SK_PID:
		/* perf's: the thread, its id and its command */
		snprintf(buf, len, "%7u:%s", e->k.tid, hist_entry__thread_comm(e));
		return buf;
	case SK_TID:
		snprintf(buf, len, "%u", e->k.tid);
		return buf;
	case SK_DSO:
		return dso_name(&e->k);
	case SK_SYM:
		snprintf(buf, len, "[%c] %s", e->k.level, hist__sym_name(&e->k, style, sym, sizeof(sym)));
		return buf;
	case SK_CPU:
		/* perf's: three digits, -001 when the samples carry no CPU */
		snprintf(buf, len, "%3.3d", (int)e->k.cpu);
		return buf;
	case SK_SRCFILE:
		return e->k.srcfile ? e->k.srcfile : "";
	case SK_PARENT:
		return e->k.parent ? e->k.parent : "[other]";
	case SK_SRCLINE:
		return e->k.srcline ? e->k.srcline : "??:0";
	case SK_BUILDID:
		build_id_hex(&e->k, buf);
		return buf;
	case SK_STATE:
		return e->k.state ? e->k.state : "?";
	case SK_DSO_FROM:
		return side_dso(&e->k.from);
	case SK_DSO_TO:
		return side_dso(&e->k.to);
	case SK_SYM_FROM:
		return side_sym(&e->k.from, style, buf, len);
	case SK_SYM_TO:
		return side_sym(&e->k.to, style, buf, len);
	case SK_CYCLES:
		/* perf's: - when the hardware gave none */
		if (!e->k.cycles)
			return "-";
		snprintf(buf, len, "%u", e->k.cycles);
		return buf;
	case SK_IPC:
		return hist__ipc_cell(e, buf, len);
	default:
		return "";
	}
}

/*
 * The width of the function's cell, "[l] name" (hist__cell()), measured
 * rather than printed: the name as hist__sym_name() makes it, cut where its
 * buffer there cuts it.
 */
static size_t sym_cell_width(const struct hist_key *k, int style)
{
	const size_t cut = 1023; /* hist__cell()'s name buffer, less its end */
	char *dm;
	size_t w;

	if (!k->sym)
		return 4 + (k->addr ? 18 : 16); /* "%#.16llx": "0x" and 16 digits, or 16 zeros */
	dm = style == SYM_RAW ? NULL : jrec_demangle(k->sym, style == SYM_PARAMS);
	w = strlen(dm ? dm : k->sym) + (k->plt ? 4 : 0);
	free(dm);
	return 4 + (w < cut ? w : cut);
}

size_t hist__cell_width(const struct hist_entry *e, enum sort_key key, int style)
{
	char buf[1200];

	if (key == SK_COMM)
		return strlen(hist_entry__thread_comm(e));
	if (key == SK_SYM)
		return sym_cell_width(&e->k, style);
	return strlen(hist__cell(e, key, style, buf, sizeof(buf)));
}

const char *const hist__headers[SK_MAX] = { "Command",	    "    Pid:Command", "Tid",
					      "Shared Object", "Symbol",	    "Source:Line",
					      "Build-ID",      "State",	    "CPU",
					      "Source File",   "Parent symbol",
					      "Source Shared Object", "Source Symbol",
					      "Target Shared Object", "Target Symbol",
					      "Basic Block Cycles", "IPC   [IPC Coverage]" };


/* perf's way: 7975 samples print as "7K" */
void hist__print_count(FILE *out, const char *label, uint64_t n)
{
	static const char units[] = " KMG";
	int u = 0;

	while (n > 1000 && u < 3) {
		n /= 1000;
		u++;
	}
	/* a blank where the unit would be: "414  of event", as perf prints it */
	fprintf(out, "# %s: %llu%c", label, (unsigned long long)n, units[u]);
}

bool hist__hidden(const struct hist *h, const struct report_meta *m, enum sort_key k)
{
	size_t i;

	if (!m->pin[k])
		return false;
	for (i = 0; i < h->nr_keys; i++)
		if (!m->pin[h->keys[i]])
			return true;
	return false;
}

/* The index in h->keys of the last column shown. */
static size_t last_shown(const struct hist *h, const struct report_meta *m)
{
	size_t k = h->nr_keys;

	while (k > 1 && hist__hidden(h, m, h->keys[k - 1]))
		k--;
	return k ? k - 1 : 0;
}

/*
 * perf's lines after the file's first: a blank one, then one for each key a
 * filter pins, in the columns' order (said even when every column is, and
 * so none is left out).
 */
static void print_pins(const struct hist *h, const struct report_meta *m, FILE *out)
{
	size_t k;

	fputs("#\n", out);
	for (k = 0; k < h->nr_keys; k++) {
		enum sort_key key = h->keys[k];

		if (m->pin[key])
			fprintf(out, "# %s: %s\n", key == SK_SYM ? "symbol" : hist__key_name(key),
				m->pin[key]);
	}
}

void hist__stdio_widths(const struct hist *h, const struct report_meta *m, size_t width[SK_MAX])
{
	size_t i, k;

	memset(width, 0, SK_MAX * sizeof(width[0]));
	for (k = 0; k < h->nr_keys; k++)
		width[h->keys[k]] = strlen(hist__headers[h->keys[k]]);
	for (i = 0; i < h->nr; i++) {
		if (hist__rank_pct(h, &h->e[i]) < m->percent_limit)
			continue;
		for (k = 0; k < h->nr_keys; k++) {
			size_t l = hist__cell_width(&h->e[i], h->keys[k], m->sym_params);

			if (l > width[h->keys[k]])
				width[h->keys[k]] = l;
		}
	}
}

/* perf's percentage in a -t table: " 12.34% ", left-aligned in eight */
static void print_sep_pct(FILE *out, double pct)
{
	char b[32];

	snprintf(b, sizeof(b), "%.2f%%", pct);
	fprintf(out, " %-7s", b);
}

void hist__print_columns(const struct hist *h, const struct report_meta *m,
			 const size_t width[SK_MAX], FILE *out)
{
	const char *sep = m->field_sep;
	size_t k;

	if (sep) {
		/* perf's -t: every column padded to its width, apart by the separator */
		fprintf(out, "# %s", h->children ? "Children" : "Overhead");
		if (h->children)
			fprintf(out, "%s    Self", sep);
		if (m->show_nr_samples)
			fprintf(out, "%s     Samples", sep);
		for (k = 0; k < h->nr_keys; k++)
			if (!hist__hidden(h, m, h->keys[k]))
				fprintf(out, "%s%-*s", sep, (int)width[h->keys[k]],
					hist__headers[h->keys[k]]);
		fputc('\n', out);
		return;
	}
	fprintf(out, "# %s%s", h->children ? "Children      Self" : "Overhead",
		m->show_nr_samples ? "       Samples" : "");
	for (k = 0; k < h->nr_keys; k++)
		if (!hist__hidden(h, m, h->keys[k]))
			fprintf(out, "  %-*s", (int)width[h->keys[k]], hist__headers[h->keys[k]]);
	fprintf(out, "\n# ........%s%s", h->children ? "  ........" : "",
		m->show_nr_samples ? "  ............" : "");
	for (k = 0; k < h->nr_keys; k++) {
		size_t w;

		if (hist__hidden(h, m, h->keys[k]))
			continue;
		fputs("  ", out);
		for (w = 0; w < width[h->keys[k]]; w++)
			fputc('.', out);
	}
	fputs("\n", out);
}

void hist__print_row(const struct hist *h, const struct hist_entry *e, const struct report_meta *m,
		     const size_t width[SK_MAX], FILE *out)
{
	const char *sep = m->field_sep;
	char buf[1200];
	size_t k, last;

	if (sep) {
		print_sep_pct(out, hist__pct(h->children ? e->children : e->period, h->total_period));
		if (h->children) {
			fputs(sep, out);
			print_sep_pct(out, hist__pct(e->period, h->total_period));
		}
		if (m->show_nr_samples)
			fprintf(out, "%s%llu", sep, (unsigned long long)e->samples);
		/* the last column unpadded, as perf prints it */
		last = last_shown(h, m);
		for (k = 0; k < h->nr_keys; k++)
			if (!hist__hidden(h, m, h->keys[k]))
				fprintf(out, "%s%-*.*s", sep, k < last ? (int)width[h->keys[k]] : 0,
					hist__cell_prec(h->keys[k], width[h->keys[k]]),
					hist__cell(e, h->keys[k], m->sym_params, buf, sizeof(buf)));
		fputc('\n', out);
		return;
	}
	if (h->children)
		fprintf(out, "  %7.2f%%", hist__pct(e->children, h->total_period));
	fprintf(out, "  %7.2f%%", hist__pct(e->period, h->total_period));
	if (m->show_nr_samples)
		fprintf(out, "  %12llu", (unsigned long long)e->samples);
	hist__print_cells(h, e, m, width, out);
}

void hist__print_cells(const struct hist *h, const struct hist_entry *e,
		       const struct report_meta *m, const size_t width[SK_MAX], FILE *out)
{
	char buf[1200];
	size_t k, last = last_shown(h, m);

	for (k = 0; k < h->nr_keys; k++) {
		const char *c;
		int prec = hist__cell_prec(h->keys[k], width[h->keys[k]]);

		if (hist__hidden(h, m, h->keys[k]))
			continue;
		c = hist__cell(e, h->keys[k], m->sym_params, buf, sizeof(buf));
		if (k == last && !hist__padded_last(h->keys[k]))
			fprintf(out, "  %.*s", prec, c);
		else
			fprintf(out, "  %-*.*s", (int)width[h->keys[k]], prec, c);
	}
	fputc('\n', out);
}

void hist__print_title(const struct hist *h, const struct report_meta *m, FILE *out)
{
	if (!m->section_only) {
		fprintf(out, "# jrec report of %s%s%s\n", m->file,
			m->mode && *m->mode ? ", recorded in mode " : "",
			m->mode && *m->mode ? m->mode : "");
		if (m->cut_short)
			fprintf(out, "# WARNING: recording cut short: %s; reporting what it holds\n",
				m->cut_short);
		print_pins(h, m, out);
		fprintf(out, "#\n# Total Lost Samples: %llu\n", (unsigned long long)m->lost);
	}
	fputs("#\n", out);
	hist__print_count(out, "Samples", h->total_samples);
	fprintf(out, " of event%s '%s'\n", m->events_plural ? "s" : "", m->event);
	fprintf(out, "# Event count (approx.): %llu\n#\n", (unsigned long long)h->total_period);
}

void hist__print_stdio(const struct hist *h, const struct report_meta *m, FILE *out)
{
	size_t width[SK_MAX], i;

	hist__print_title(h, m, out);
	hist__stdio_widths(h, m, width);
	hist__print_columns(h, m, width, out);
	if (!m->field_sep)
		fputs("#\n", out);
	for (i = 0; i < h->nr; i++) {
		const struct hist_entry *e = &h->e[i];

		if (hist__rank_pct(h, e) < m->percent_limit)
			continue;
		hist__print_row(h, e, m, width, out);
		if (m->graph && e->tree != CT_NONE)
			hist__print_graph(h, e, m->graph, out);
	}
	if (h->nr_img) {
		fprintf(out, "#\n# Mapped files whose code JIT records named (share of samples, file, cookie):\n");
		for (i = 0; i < h->nr_img; i++) {
			const struct unres_entry *u = &h->img[i];
			char hex[JREC_COOKIE_HEX_LEN] = "";

			jrec_cookie_hex(&u->dso->cookie, hex);
			fprintf(out, "#   %6.2f%%  %s  %s%s%s\n", hist__pct(u->period, h->total_period),
				u->dso->path, jrec_cookie_kind_name(&u->dso->cookie), *hex ? " " : "",
				hex);
		}
	}
	if (h->nr_u) {
		fprintf(out, "#\n# Not symbolized (share of samples, why):\n");
		for (i = 0; i < h->nr_u; i++) {
			const struct unres_entry *u = &h->u[i];
			char hex[JREC_COOKIE_HEX_LEN] = "";

			if (u->dso && u->dso->cookie.len)
				jrec_cookie_hex(&u->dso->cookie, hex);
			fprintf(out, "#   %6.2f%%  %s%s%s%s  %s\n", hist__pct(u->period, h->total_period),
				u->dso ? u->dso->path : (u->anon ? u->anon : "[unknown]"),
				*hex ? " (" : "", hex, *hex ? ")" : "", dso_status_str(u->why));
		}
	}
	fputs("#\n", out);
}
