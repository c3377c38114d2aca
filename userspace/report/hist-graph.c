// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree under each entry of the stdio report (-g), drawn as perf
 * report --stdio draws it: a chain of calls that never branches is one run
 * of lines; a run is labelled with its share of all samples; branches below
 * the threshold are hidden. The modes: graph (the tree), flat (every chain
 * with samples ending in it, in full) and folded (the same on one line,
 * frames joined by ';').
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hist.h"

int graph_opts__parse(struct graph_opts *g, const char *spec)
{
	const char *p = spec;
	bool have_pct = false;

	g->mode = GRAPH_GRAPH;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		char word[32], *end;

		if (n >= sizeof(word))
			return -EINVAL;
		memcpy(word, p, n);
		word[n] = 0;
		if (!strcmp(word, "graph"))
			g->mode = GRAPH_GRAPH;
		else if (!strcmp(word, "flat"))
			g->mode = GRAPH_FLAT;
		else if (!strcmp(word, "folded"))
			g->mode = GRAPH_FOLDED;
		else if (!strcmp(word, "none"))
			g->mode = GRAPH_NONE;
		else if (!strcmp(word, "caller") || !strcmp(word, "callee")) {
			g->caller = !strcmp(word, "caller");
			g->order_set = true;
		} else if (!have_pct && n) {
			g->min_pct = strtod(word, &end);
			if (*end || g->min_pct < 0 || g->min_pct > 100)
				return -EINVAL;
			have_pct = true;
		} else {
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

struct graph_printer {
	struct calltree *ct;
	FILE *out;
	uint64_t total;	  /* all samples' period: what the shares are of */
	uint64_t min_hit; /* branches below it are hidden */
	uint32_t *kids;	  /* scratch for calltree__children() */
	size_t cap_kids;
	bool *bar; /* bar[i]: the tree's vertical line at depth i goes on */
	size_t cap_bar;
	bool oom;
};

/* The node that ends the run starting at @n: it has samples of its own, or branches. */
static uint32_t run_end(const struct calltree *ct, uint32_t n)
{
	while (!ct->n[n].self && ct->n[n].child != CT_NONE && ct->n[ct->n[n].child].next == CT_NONE)
		n = ct->n[n].child;
	return n;
}

/* The children of @n shown (at or above the threshold), most first; a copy the caller frees. */
static long shown_kids(struct graph_printer *p, uint32_t n, uint32_t **out)
{
	long nr = calltree__children(p->ct, n, &p->kids, &p->cap_kids), i, k = 0;

	if (nr < 0) {
		p->oom = true;
		return 0;
	}
	for (i = 0; i < nr; i++)
		if (p->ct->n[p->kids[i]].total >= p->min_hit)
			p->kids[k++] = p->kids[i];
	if (!k)
		return 0;
	*out = malloc((size_t)k * sizeof(**out));
	if (!*out) {
		p->oom = true;
		return 0;
	}
	memcpy(*out, p->kids, (size_t)k * sizeof(**out));
	return k;
}

static void margin(struct graph_printer *p, int left)
{
	fprintf(p->out, "            %*s", left, "");
}

static void bars(struct graph_printer *p, int depth, int left)
{
	int i;

	margin(p, left);
	for (i = 0; i < depth; i++)
		fputs(p->bar[i] ? "|          " : "           ", p->out);
	fputc('\n', p->out);
}

/* The tree below @node at @depth; how many children it showed. */
static long level(struct graph_printer *p, uint32_t node, int depth, int left)
{
	uint32_t *kids = NULL;
	long nr, i;

	if (array_grow(&p->bar, &p->cap_bar, (size_t)depth + 1)) {
		p->oom = true;
		return 0;
	}
	nr = shown_kids(p, node, &kids);
	for (i = 0; i < nr; i++) {
		uint32_t n = kids[i], end = run_end(p->ct, n);
		bool first = true;
		int d;

		p->bar[depth - 1] = true; /* the line from above reaches this child */
		bars(p, depth, left);
		if (i == nr - 1)
			p->bar[depth - 1] = false;
		for (;;) {
			margin(p, left);
			for (d = 0; d < depth; d++) {
				fputc(p->bar[d] ? '|' : ' ', p->out);
				if (first && d == depth - 1)
					fprintf(p->out, "--%.2f%%--",
						hist__pct(p->ct->n[n].total, p->total));
				else
					fputs("          ", p->out);
			}
			fprintf(p->out, "%s\n", calltree__name(p->ct, p->ct->n[n].frame));
			first = false;
			if (n == end)
				break;
			n = p->ct->n[n].child;
		}
		p->bar[depth] = true;
		level(p, end, depth + 1, left);
	}
	free(kids);
	return nr;
}

static void print_tree(struct graph_printer *p, const struct graph_opts *g, uint32_t root,
		       uint64_t parent)
{
	uint32_t *kids = NULL;
	long nr = shown_kids(p, root, &kids);
	int left = 0;
	bool printed = false, skip = g->skip_first;

	/* one chain holding all the entry's samples: no share shown, one level less */
	if (nr == 1 && p->ct->n[kids[0]].total == parent) {
		uint32_t n = kids[0], end = run_end(p->ct, n);

		for (;;) {
			if (skip) {
				skip = false;
			} else if (!printed) {
				fputs("            |\n            ---", p->out);
				left = 3;
				printed = true;
				fprintf(p->out, "%s\n", calltree__name(p->ct, p->ct->n[n].frame));
			} else {
				margin(p, left);
				fprintf(p->out, "%s\n", calltree__name(p->ct, p->ct->n[n].frame));
			}
			if (n == end)
				break;
			n = p->ct->n[n].child;
		}
		root = end;
	}
	free(kids);
	if (array_grow(&p->bar, &p->cap_bar, 2)) {
		p->oom = true;
		return;
	}
	p->bar[0] = true;
	/* a blank line after the tree, none when nothing was shown */
	if (level(p, root, 1, left) || printed)
		fputc('\n', p->out);
}

struct leaf {
	uint32_t node;
	uint64_t self;
	size_t seq; /* perf's order among equals: after the leaves below, children by key */
};

static int leaf_cmp(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct leaves {
	struct leaf *l;
	size_t nr, cap;
};

/* The nodes under @n where samples end, at or above the threshold: children first. */
static void collect(struct graph_printer *p, uint32_t n, struct leaves *ls)
{
	uint32_t *kids = NULL;
	size_t cap = 0;
	long nr = calltree__children_sorted(p->ct, n, false, &kids, &cap), i;

	if (nr < 0)
		p->oom = true;
	for (i = 0; i < nr; i++)
		collect(p, kids[i], ls);
	free(kids);
	if (p->ct->n[n].self && p->ct->n[n].self >= p->min_hit) {
		if (array_grow(&ls->l, &ls->cap, ls->nr + 1)) {
			p->oom = true;
			return;
		}
		ls->l[ls->nr].node = n;
		ls->l[ls->nr].self = p->ct->n[n].self;
		ls->l[ls->nr].seq = ls->nr;
		ls->nr++;
	}
}

/* The nodes under @root where samples end, at or above the threshold, most first. */
static size_t leaves(struct graph_printer *p, uint32_t root, struct leaf **out)
{
	struct leaves ls = {0};

	collect(p, root, &ls);
	if (ls.nr)
		qsort(ls.l, ls.nr, sizeof(*ls.l), leaf_cmp);
	*out = ls.l;
	return ls.nr;
}

/* The frames from below @root down to @n, joined by @sep (each line indented by @sep). */
static void path(struct graph_printer *p, uint32_t n, const char *before, const char *after,
		 bool first)
{
	if (p->ct->n[n].frame == CT_NONE)
		return;
	path(p, p->ct->n[n].parent, before, after, false);
	fprintf(p->out, "%s%s%s", before, calltree__name(p->ct, p->ct->n[n].frame),
		first ? "" : after);
}

static void print_flat(struct graph_printer *p, uint32_t root, bool folded)
{
	struct leaf *l = NULL;
	size_t nr = leaves(p, root, &l), i;

	for (i = 0; i < nr; i++) {
		const struct ct_node *n = &p->ct->n[l[i].node];

		if (folded) {
			fprintf(p->out, "%.2f%% ", hist__pct(n->self, p->total));
			/* ';' between frames: the first frame has none before it */
			path(p, l[i].node, "", ";", true);
			fputc('\n', p->out);
		} else {
			fprintf(p->out, "           %.2f%%\n", hist__pct(n->total, p->total));
			path(p, l[i].node, "                ", "\n", false);
			fputc('\n', p->out);
		}
	}
	free(l);
}

void hist__print_graph(const struct hist *h, const struct hist_entry *e, const struct graph_opts *g,
		       FILE *out)
{
	struct graph_printer p = {0};

	p.ct = g->ct;
	p.out = out;
	p.total = h->total_period;
	p.min_hit = (uint64_t)((double)h->total_period * g->min_pct / 100.0);
	if (g->mode == GRAPH_GRAPH)
		print_tree(&p, g, e->tree, h->children ? e->children : e->period);
	else if (g->mode == GRAPH_FLAT || g->mode == GRAPH_FOLDED)
		print_flat(&p, e->tree, g->mode == GRAPH_FOLDED);
	free(p.kids);
	free(p.bar);
	if (p.oom)
		fputs("            [call tree incomplete: out of memory]\n", out);
}
