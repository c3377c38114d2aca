// SPDX-License-Identifier: GPL-2.0
/*
 * The report's order of entries, perf report's (its hists__output_resort()):
 * highest share first (with --children, a caller above its callees within a
 * thread), entries of equal share by the sort keys themselves, each key in
 * its own direction (names in byte order, numbers rising, what is missing
 * last), -n's samples after them; the rest as perf's red-black trees keep
 * them: as they came in by what makes them two entries (a function's
 * address). Every view takes its rows in this order, an event group's table
 * too (hist__sort_group()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "hist.h"

/* An entry being ranked, with what it is compared by that costs to make. */
struct rank {
	const struct hist_entry *e; /* its keys' (a group's row: its first member's) */
	const struct hist_entry *const *of; /* a group's row: each member's entry or NULL */
	const char *sym; /* the function's name as perf compares it, once named */
	char *own;	 /* that name when made here (demangled, "@plt") */
	bool named;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* Two addresses as perf compares them: by the sign of their difference. */
static int cmp_addr(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return (d > 0) - (d < 0);
}

static int cmp_str(const char *a, const char *b)
{
	int c = strcmp(a ? a : "", b ? b : "");

	return (c > 0) - (c < 0);
}

/* What one of two has and the other lacks: the one without it after. */
static int missing_last(const void *a, const void *b)
{
	return !a - !b;
}

/* A file's name as perf's dso key shows it, NULL where perf has no mapping ([unknown]). */
static const char *file_name(struct dso *dso, const char *anon)
{
	if (dso)
		return dso->short_name;
	return anon && strcmp(anon, RES_UNMAPPED) ? anon : NULL;
}

/* The dso key: by name, no file last. */
static int cmp_file(struct dso *da, const char *aa, struct dso *db, const char *ab)
{
	const char *a = file_name(da, aa), *b = file_name(db, ab);

	return a && b ? cmp_str(a, b) : missing_last(a, b);
}

/* A function's name as perf compares it: shown as the table shows it (demangled, "@plt"). */
static const char *rank_sym(struct rank *r, int style)
{
	const struct hist_key *k = &r->e->k;
	char *dm;

	if (r->named)
		return r->sym;
	r->named = true;
	if (!k->sym)
		return r->sym = NULL;
	dm = style == SYM_RAW ? NULL : jrec_demangle(k->sym, style == SYM_PARAMS);
	if (k->plt) {
		if (asprintf(&r->own, "%s@plt", dm ? dm : k->sym) < 0)
			r->own = NULL;
		free(dm);
	} else {
		r->own = dm;
	}
	return r->sym = r->own ? r->own : k->sym;
}

static struct hist_side own_side(const struct hist_key *k)
{
	return (struct hist_side){ k->dso, k->anon, k->sym, k->sym_start,
				   k->sym_by_name, k->plt, k->addr, k->level };
}

/*
 * Two functions by where they are, as perf tells entries apart: no function
 * on either side by address; else (when @file) by file first; a function
 * before none; one function is a tie; else by where each starts. Functions
 * known by name alone (JIT code, inlined) by name.
 */
static int cmp_function(const struct hist_side *a, const struct hist_side *b, bool file)
{
	int c;

	if (!a->sym && !b->sym)
		return cmp_addr(a->addr, b->addr);
	if (file && (c = cmp_file(a->dso, a->anon, b->dso, b->anon)))
		return c;
	if (!a->sym || !b->sym)
		return missing_last(a->sym, b->sym);
	if (a->sym == b->sym && (a->sym_by_name || b->sym_by_name || a->sym_start == b->sym_start))
		return 0;
	if (a->sym_by_name || b->sym_by_name) {
		c = cmp_str(a->sym, b->sym);
		if (c)
			return c;
	}
	return cmp_addr(a->sym_start, b->sym_start);
}

/* The IPC column's function: the entry's own, the branch's target in the branch view. */
static struct hist_side ipc_side(const struct hist_key *k)
{
	return k->to.level ? k->to : own_side(k);
}

/*
 * Key @key of @x and @y, in perf's order of its rows (@exact: the order
 * that tells entries apart, perf's comparison of the key rather than its
 * sort; it differs for the function, by address rather than by name).
 */
static int cmp_key(const struct hist *h, enum sort_key key, struct rank *x, struct rank *y,
		   bool exact)
{
	const struct hist_key *a = &x->e->k, *b = &y->e->k;
	char ba[1200], bb[1200];
	struct hist_side sa, sb;
	const char *na, *nb;

	switch (key) {
	case SK_COMM:
		return cmp_str(a->comm, b->comm);
	case SK_PID:
	case SK_TID:
		return cmp_u64(a->tid, b->tid);
	case SK_CPU:
		return (a->cpu > b->cpu) - (a->cpu < b->cpu);
	case SK_DSO:
		return cmp_file(a->dso, a->anon, b->dso, b->anon);
	case SK_SYM:
		if (exact) {
			sa = own_side(a);
			sb = own_side(b);
			return cmp_function(&sa, &sb, true);
		}
		na = rank_sym(x, h->sym_style);
		nb = rank_sym(y, h->sym_style);
		return na && nb ? cmp_str(na, nb) : missing_last(na, nb);
	case SK_PARENT:
		return a->parent && b->parent ? cmp_str(a->parent, b->parent)
					      : missing_last(a->parent, b->parent);
	case SK_DSO_FROM:
	case SK_DSO_TO:
		/* perf compares a branch's files the other way round, no file first */
		sa = key == SK_DSO_FROM ? a->from : a->to;
		sb = key == SK_DSO_FROM ? b->from : b->to;
		return -cmp_file(sa.dso, sa.anon, sb.dso, sb.anon);
	case SK_SYM_FROM:
		return cmp_function(&a->from, &b->from, false);
	case SK_SYM_TO:
		return cmp_function(&a->to, &b->to, false);
	case SK_CYCLES:
		return -cmp_u64(a->cycles, b->cycles); /* the most cycles first */
	case SK_IPC:
		sa = ipc_side(a);
		sb = ipc_side(b);
		return cmp_function(&sa, &sb, true);
	default:
		/* srcline, srcfile, build-id, state: by their text */
		return cmp_str(hist__cell(x->e, key, h->sym_style, ba, sizeof(ba)),
			       hist__cell(y->e, key, h->sym_style, bb, sizeof(bb)));
	}
}

/*
 * perf's sort list: @h's columns the rows are ranked by (-F's), else perf
 * report's default: Children (--children), Overhead, the keys, Samples (-n).
 */
static size_t rank_list(const struct hist *h, int *col)
{
	size_t n = 0, i;

	if (h->nr_rank) {
		memcpy(col, h->rank, h->nr_rank * sizeof(*col));
		return h->nr_rank;
	}
	if (h->children)
		col[n++] = HF_CHILDREN;
	col[n++] = HF_OVERHEAD;
	for (i = 0; i < h->nr_keys; i++)
		col[n++] = h->keys[i];
	if (h->rank_samples)
		col[n++] = HF_SAMPLE;
	return n;
}

/* What the comparisons read: the entries' hist (a group's leader's) and its sort list. */
struct rank_ctx {
	const struct hist *h;
	int col[HIST_COLS];
	size_t nr;
	size_t members; /* a group's rows: its members; 0: entries of h */
};

/* Member @m's entry of @x: a group row's, NULL where it has none; else the entry. */
static const struct hist_entry *member(const struct rank *x, size_t m)
{
	return x->of ? x->of[m] : x->e;
}

/*
 * How perf files entries as it makes them, negative when @x goes before
 * @y: each key's comparison that tells entries apart (a function by its
 * address), in the sort list's order.
 */
static int input_cmp(const struct rank_ctx *c, struct rank *x, struct rank *y)
{
	size_t i;
	int d;

	for (i = 0; i < c->nr; i++)
		if (c->col[i] < SK_MAX && (d = cmp_key(c->h, c->col[i], x, y, true)))
			return d;
	return 0;
}

static int cmp_more(uint64_t a, uint64_t b)
{
	return -cmp_u64(a, b);
}

/*
 * perf's output sort, negative when @x goes before @y: the sort list's
 * columns in order, numbers highest first (Children, then, of one
 * thread's entries, the caller above its callees; a group's: the
 * leader's alone, 0 where it has no entry, and Self and Samples each
 * member's in turn), keys each in its own order.
 */
static int output_cmp(const struct rank_ctx *c, struct rank *x, struct rank *y)
{
	const struct hist *h = c->h;
	const struct hist_entry *a = member(x, 0), *b = member(y, 0);
	size_t i, m, nm = c->members ? c->members : 1;
	int d;

	for (i = 0; i < c->nr; i++) {
		d = 0;
		switch (c->col[i]) {
		case HF_CHILDREN:
			if (!h->children)
				continue;
			d = cmp_more(a ? a->children : 0, b ? b->children : 0);
			if (!d && h->depth_order && x->e->k.pid == y->e->k.pid &&
			    x->e->k.tid == y->e->k.tid)
				d = cmp_more(a ? a->depth : 0, b ? b->depth : 0) * h->depth_order;
			break;
		case HF_OVERHEAD:
		case HF_PERIOD:
		case HF_SAMPLE:
			for (m = 0; m < nm && !d; m++) {
				a = member(x, m);
				b = member(y, m);
				d = c->col[i] == HF_SAMPLE ? cmp_more(a ? a->samples : 0, b ? b->samples : 0)
							   : cmp_more(a ? a->period : 0, b ? b->period : 0);
			}
			break;
		default:
			d = cmp_key(h, c->col[i], x, y, false);
		}
		if (d)
			return d;
	}
	return 0;
}

/*
 * The order is made as perf makes it, in red-black trees (the kernel's
 * insertion), an entry going left of a node when the comparison puts it
 * first, else right: the entries in the order they were made (their first
 * samples' order) into a tree by input_cmp() (perf's entries as they come
 * in), once more into another when a key is the command (perf collapses
 * such entries), then in that order into a tree by output_cmp(); the rows
 * are the last tree's in order. Neither comparison is an order over all
 * entries (a function's address is compared within its file only when one
 * of two has a name; the caller-above-callee rule holds within a thread),
 * and where it is not, the rows are where perf's trees put them.
 */
#define NIL UINT32_MAX

struct tree {
	uint32_t *left, *right, *up;
	bool *red;
	uint32_t root;
};

typedef int (*rank_cmp_fn)(const struct rank_ctx *c, struct rank *x, struct rank *y);

static void rotate(struct tree *t, uint32_t x, bool to_left)
{
	uint32_t *down = to_left ? t->right : t->left, *other = to_left ? t->left : t->right;
	uint32_t y = down[x], p = t->up[x];

	down[x] = other[y];
	if (other[y] != NIL)
		t->up[other[y]] = x;
	t->up[y] = p;
	if (p == NIL)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	other[y] = x;
	t->up[x] = y;
}

static void tree_insert(struct tree *t, const struct rank_ctx *c, struct rank *r, rank_cmp_fn cmp,
			uint32_t z)
{
	uint32_t p = NIL, at = t->root, g, u;
	bool left = false;

	while (at != NIL) {
		p = at;
		left = cmp(c, &r[z], &r[at]) < 0;
		at = left ? t->left[at] : t->right[at];
	}
	t->up[z] = p;
	t->left[z] = t->right[z] = NIL;
	t->red[z] = true;
	if (p == NIL)
		t->root = z;
	else if (left)
		t->left[p] = z;
	else
		t->right[p] = z;
	while ((p = t->up[z]) != NIL && t->red[p]) {
		bool p_left;

		g = t->up[p];
		p_left = t->left[g] == p;
		u = p_left ? t->right[g] : t->left[g];
		if (u != NIL && t->red[u]) {
			t->red[p] = t->red[u] = false;
			t->red[g] = true;
			z = g;
			continue;
		}
		if (z == (p_left ? t->right[p] : t->left[p])) {
			rotate(t, p, p_left);
			z = p;
			p = t->up[z];
		}
		t->red[p] = false;
		t->red[g] = true;
		rotate(t, g, !p_left);
	}
	t->red[t->root] = false;
}

/* @order's @n ranks put into the tree @t (as it is) by @cmp. */
static void tree_add(struct tree *t, const struct rank_ctx *c, struct rank *r, rank_cmp_fn cmp,
		     const uint32_t *order, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tree_insert(t, c, r, cmp, order[i]);
}

/* @t's ranks in its order into @order. */
static void tree_walk(const struct tree *t, uint32_t *order)
{
	uint32_t at, from;
	size_t i;

	for (at = t->root; at != NIL && t->left[at] != NIL; at = t->left[at])
		;
	for (i = 0; at != NIL; i++) {
		order[i] = at;
		if (t->right[at] != NIL) {
			for (at = t->right[at]; t->left[at] != NIL; at = t->left[at])
				;
			continue;
		}
		do {
			from = at;
			at = t->up[at];
		} while (at != NIL && t->right[at] == from);
	}
}

/* @order's @n ranks put into a new tree by @cmp, then read back into @order in the tree's order. */
static void tree_pass(struct tree *t, const struct rank_ctx *c, struct rank *r, rank_cmp_fn cmp,
		      uint32_t *order, size_t n)
{
	t->root = NIL;
	tree_add(t, c, r, cmp, order, n);
	tree_walk(t, order);
}

/* A tree of @n nodes, its links in one allocation; -ENOMEM. */
static int tree_init(struct tree *t, size_t n)
{
	t->root = NIL;
	t->left = malloc((3 * n + 1) * sizeof(*t->left));
	t->red = malloc(n + 1);
	if (!t->left || !t->red) {
		free(t->left);
		free(t->red);
		return -ENOMEM;
	}
	t->right = t->left + n;
	t->up = t->left + 2 * n;
	return 0;
}

static void tree_release(struct tree *t)
{
	free(t->left);
	free(t->red);
}

/*
 * The input order: @order's @n ranks (as made) into a tree by input_cmp()
 * (perf's entries as they come in), again when the command is a key
 * (perf's collapsing), left in @t.
 */
static void tree_input(struct tree *t, const struct rank_ctx *c, struct rank *r, uint32_t *order,
		       size_t n)
{
	if (c->h->has[SK_COMM])
		tree_pass(t, c, r, input_cmp, order, n);
	t->root = NIL;
	tree_add(t, c, r, input_cmp, order, n);
}

/* @n ranks and the names made for them; NULL is none. */
static void ranks_free(struct rank *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++)
		free(r[i].own);
	free(r);
}

/* The entries in perf's order; -ENOMEM leaves them as they are. */
static int sort_entries(struct hist *h)
{
	size_t n = h->nr, i;
	struct rank *r = calloc(n, sizeof(*r));
	struct hist_entry *e = malloc(n * sizeof(*e));
	uint32_t *order = malloc(n * sizeof(*order));
	struct rank_ctx c = { .h = h };
	struct tree t;
	int err = -ENOMEM;

	if (!r || !e || !order || tree_init(&t, n))
		goto out;
	for (i = 0; i < n; i++) {
		r[i].e = &h->e[i];
		order[h->e[i].made] = (uint32_t)i;
	}
	c.nr = rank_list(h, c.col);
	tree_input(&t, &c, r, order, n);
	tree_walk(&t, order);
	tree_pass(&t, &c, r, output_cmp, order, n);
	for (i = 0; i < n; i++)
		e[i] = h->e[order[i]];
	memcpy(h->e, e, n * sizeof(*e));
	tree_release(&t);
	err = 0;
out:
	ranks_free(r, n);
	free(e);
	free(order);
	return err;
}

/* qsort_r: group rows by the making of their first entry */
static int made_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rank *r = arg;
	const struct hist_entry *a = r[*(const uint32_t *)pa].e, *b = r[*(const uint32_t *)pb].e;

	return cmp_u64(a->made, b->made);
}

int hist__sort_group(const struct hist *const *hs, size_t n, const struct hist_entry *const *of,
		     size_t nr, uint32_t *order)
{
	struct rank *r = calloc(nr ? nr : 1, sizeof(*r));
	struct rank_ctx c = { .h = hs[0], .members = n };
	size_t i, m, from, k;
	struct tree t, mt;
	int err = -ENOMEM;

	if (!r || tree_init(&t, nr))
		goto out;
	if (tree_init(&mt, nr)) {
		tree_release(&t);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		r[i].of = of + i * n;
		for (m = 0; m < n && !r[i].of[m]; m++)
			;
		r[i].e = r[i].of[m < n ? m : 0];
		order[i] = (uint32_t)i;
	}
	c.nr = rank_list(hs[0], c.col);
	/*
	 * the leader's entries as made, through its input trees; then each
	 * later member's rows the leader lacks (perf's dummy entries), in the
	 * member's own input order, into the leader's last tree
	 */
	for (from = 0; from < nr && r[from].of[0]; from++)
		;
	qsort_r(order, from, sizeof(*order), made_cmp, r);
	tree_input(&t, &c, r, order, from);
	for (m = 1; m < n; m++) {
		for (k = i = from; i < nr; i++)
			if (r[i].e == r[i].of[m])
				order[k++] = (uint32_t)i;
		qsort_r(order + from, k - from, sizeof(*order), made_cmp, r);
		c.h = hs[m];
		tree_input(&mt, &c, r, order + from, k - from);
		tree_walk(&mt, order + from);
		c.h = hs[0];
		tree_add(&t, &c, r, input_cmp, order + from, k - from);
	}
	tree_walk(&t, order);
	tree_pass(&t, &c, r, output_cmp, order, nr);
	tree_release(&t);
	tree_release(&mt);
	err = 0;
out:
	ranks_free(r, nr);
	return err;
}

static int unres_cmp(const void *a, const void *b)
{
	const struct unres_entry *x = a, *y = b;

	return x->period > y->period ? -1 : x->period < y->period;
}

/*
 * Whether output_cmp() on @c's columns orders all entries, each tie a class
 * of equals, so that the first rows of perf's tree are the least entries
 * in that order, by itself: not with the functions compared where they
 * are (a branch's ends, IPC's), nor with a thread's callers above their
 * callees (that rule holds within a thread only).
 */
static bool output_is_order(const struct rank_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->col[i] == SK_SYM_FROM || c->col[i] == SK_SYM_TO || c->col[i] == SK_IPC ||
		    (c->col[i] == HF_CHILDREN && c->h->children && c->h->depth_order))
			return false;
	return true;
}

/*
 * The @k + 1 least of @n ranks by output_cmp() into @top, in order: how
 * many. One no less than the last kept is not looked at again.
 */
static size_t least(const struct rank_ctx *c, struct rank *r, size_t n, uint32_t *top, size_t k)
{
	size_t m = 0, i, lo, hi, mid;

	for (i = 0; i < n; i++) {
		if (m == k + 1 && output_cmp(c, &r[i], &r[top[k]]) >= 0)
			continue;
		for (lo = 0, hi = m; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (output_cmp(c, &r[i], &r[top[mid]]) < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (m < k + 1)
			m++;
		memmove(top + lo + 1, top + lo, (m - 1 - lo) * sizeof(*top));
		top[lo] = (uint32_t)i;
	}
	return m;
}

int hist__sort_first(struct hist *h, size_t k)
{
	size_t n = h->nr, i, m;
	struct rank_ctx c = { .h = h };
	struct rank *r = NULL;
	uint32_t *top = NULL, *pos = NULL, *at;
	int err = -EAGAIN;

	c.nr = rank_list(h, c.col);
	if (k + 1 >= n || !output_is_order(&c))
		return -EAGAIN;
	r = calloc(n, sizeof(*r));
	top = malloc((k + 1) * sizeof(*top));
	pos = malloc(2 * n * sizeof(*pos));
	if (!r || !top || !pos) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		r[i].e = &h->e[i];
	m = least(&c, r, n, top, k);
	/* equals among them: their order is the trees', as they came in */
	for (i = 1; i < m; i++)
		if (!output_cmp(&c, &r[top[i - 1]], &r[top[i]]))
			goto out;
	/* each to its place by a swap (the whole sort starts from their making, not from here) */
	at = pos + n;
	for (i = 0; i < n; i++)
		pos[i] = at[i] = (uint32_t)i;
	for (i = 0; i < k; i++) {
		uint32_t from = pos[top[i]], was = at[i];
		struct hist_entry t;

		if (from == i)
			continue;
		t = h->e[i];
		h->e[i] = h->e[from];
		h->e[from] = t;
		at[from] = was;
		pos[was] = from;
		at[i] = top[i];
		pos[top[i]] = (uint32_t)i;
	}
	free(h->idx); /* order changed: the index is stale */
	h->idx = NULL;
	h->cap = 0;
	err = 0;
out:
	ranks_free(r, n);
	free(top);
	free(pos);
	return err;
}

void hist__sort(struct hist *h)
{
	if (h->nr)
		sort_entries(h); /* (out of memory: as they are) */
	if (h->nr_u)
		qsort(h->u, h->nr_u, sizeof(*h->u), unres_cmp);
	if (h->nr_img)
		qsort(h->img, h->nr_img, sizeof(*h->img), unres_cmp);
	free(h->idx); /* order changed: the index is stale */
	h->idx = NULL;
	h->cap = 0;
}
