// SPDX-License-Identifier: GPL-2.0
/* Call chains merged into prefix trees of interned frames (calltree.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "calltree.h"
#include "demangle.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t frame_hash(const struct ct_frame *f)
{
	uint64_t h = mix(f->kind, (uint64_t)f->inlined << 9 | (uint64_t)f->plt << 8 | (uint8_t)f->level);

	h = mix(h, (uintptr_t)f->dso ^ (uintptr_t)f->anon);
	h = mix(h, f->sym ? (uintptr_t)f->sym : f->comm ? (uintptr_t)f->comm : f->addr);
	return h * 0x9e3779b97f4a7c15ULL;
}

static bool frame_eq(const struct ct_frame *a, const struct ct_frame *b)
{
	return a->kind == b->kind && a->level == b->level && a->plt == b->plt &&
	       a->inlined == b->inlined && a->dso == b->dso &&
	       (!a->sym || a->kind == CT_JIT || a->inlined || a->sym_start == b->sym_start) &&
	       a->anon == b->anon && a->sym == b->sym && a->comm == b->comm &&
	       (a->sym || a->comm || a->addr == b->addr);
}

/*
 * An open-addressing index of @nr items, at most half full, made twice as
 * big: 0 or -ENOMEM. @hash_of gives the hash of item i.
 */
static int index_resize(uint32_t **idx, size_t *cap, size_t nr, const void *items,
			uint64_t (*hash_of)(const void *items, size_t i))
{
	size_t c, i;
	uint32_t *n;

	c = *cap ? *cap * 2 : 1024;
	n = malloc(c * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n, 0xff, c * sizeof(*n));
	for (i = 0; i < nr; i++) {
		size_t j;

		for (j = hash_of(items, i) & (c - 1); n[j] != CT_NONE; j = (j + 1) & (c - 1))
			;
		n[j] = (uint32_t)i;
	}
	free(*idx);
	*idx = n;
	*cap = c;
	return 0;
}

/* Room for one more item in the index (at most half full): usually there is. */
static inline int index_grow(uint32_t **idx, size_t *cap, size_t nr, const void *items,
			     uint64_t (*hash_of)(const void *items, size_t i))
{
	if (*cap && (nr + 1) * 2 <= *cap)
		return 0;
	return index_resize(idx, cap, nr, items, hash_of);
}

static uint64_t frame_hash_at(const void *items, size_t i)
{
	return ((const struct ct_frame *)items)[i].hash;
}

static uint64_t node_key_hash(uint32_t parent, uint32_t frame)
{
	return ((uint64_t)parent << 32 | frame) * 0x9e3779b97f4a7c15ULL >> 7;
}

static uint64_t node_hash_at(const void *items, size_t i)
{
	const struct ct_node *n = &((const struct ct_node *)items)[i];

	return node_key_hash(n->parent, n->frame);
}

static int intern(struct calltree *t, struct ct_frame *f, uint32_t *id)
{
	size_t i, mask;
	int err;

	f->hash = frame_hash(f);
	err = index_grow(&t->fidx, &t->fcap, t->nr_f, t->f, frame_hash_at);
	if (err)
		return err;
	mask = t->fcap - 1;
	for (i = f->hash & mask; t->fidx[i] != CT_NONE; i = (i + 1) & mask) {
		if (t->f[t->fidx[i]].hash == f->hash && frame_eq(&t->f[t->fidx[i]], f)) {
			*id = t->fidx[i];
			return 0;
		}
	}
	if (array_grow(&t->f, &t->cap_f, t->nr_f + 1))
		return -ENOMEM;
	t->fidx[i] = (uint32_t)t->nr_f;
	t->f[t->nr_f] = *f;
	*id = (uint32_t)t->nr_f++;
	return 0;
}

int calltree__frame(struct calltree *t, const struct resolved *res, uint32_t *id)
{
	struct ct_frame f = {0};

	f.sym = res->sym;
	f.dso = res->dso;
	f.anon = res->dso ? NULL : res->anon_name;
	f.addr = res->addr;
	f.sym_start = res->sym_start;
	f.level = res->level;
	f.plt = res->plt;
	f.inlined = res->inlined;
	f.kind = res->level == RES_KERNEL ? CT_KERNEL : res->jit ? CT_JIT : CT_NATIVE;
	if (!f.sym && !t->by_address)
		f.addr = 0;
	return intern(t, &f, id);
}

int calltree__process(struct calltree *t, const char *comm, uint32_t *id)
{
	struct ct_frame f = {0};

	f.comm = comm ? comm : "[unknown]";
	f.kind = CT_PROCESS;
	f.level = RES_USER;
	return intern(t, &f, id);
}

static int new_node(struct calltree *t, uint32_t parent, uint32_t frame, uint32_t *id)
{
	struct ct_node *n;

	if (array_grow(&t->n, &t->cap_n, t->nr_n + 1))
		return -ENOMEM;
	n = &t->n[t->nr_n];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	n->child = CT_NONE;
	n->next = CT_NONE;
	if (parent != CT_NONE) {
		n->next = t->n[parent].child;
		t->n[parent].child = (uint32_t)t->nr_n;
	}
	*id = (uint32_t)t->nr_n++;
	return 0;
}

int calltree__new_root(struct calltree *t, uint32_t *root)
{
	return new_node(t, CT_NONE, CT_NONE, root);
}

/* The child of @parent for @frame, created if new. */
static int child_of(struct calltree *t, uint32_t parent, uint32_t frame, uint32_t *id)
{
	uint64_t h = node_key_hash(parent, frame);
	size_t i, mask;
	int err = index_grow(&t->nidx, &t->ncap, t->nr_n, t->n, node_hash_at);

	if (err)
		return err;
	mask = t->ncap - 1;
	for (i = h & mask; t->nidx[i] != CT_NONE; i = (i + 1) & mask) {
		const struct ct_node *n = &t->n[t->nidx[i]];

		if (n->parent == parent && n->frame == frame) {
			*id = t->nidx[i];
			return 0;
		}
	}
	err = new_node(t, parent, frame, id);
	if (!err)
		t->nidx[i] = *id;
	return err;
}

int calltree__add(struct calltree *t, uint32_t root, const uint32_t *frames, size_t n,
		  uint64_t period, uint32_t *leaf)
{
	uint64_t w = t->weight ? t->weight : 1;
	uint32_t at = root;
	size_t i;
	int err;

	t->n[root].total += period;
	t->n[root].total_n += w;
	for (i = 0; i < n; i++) {
		err = child_of(t, at, frames[i], &at);
		if (err)
			return err;
		t->n[at].total += period;
		t->n[at].total_n += w;
	}
	t->n[at].self += period;
	t->n[at].self_n += w;
	if (leaf)
		*leaf = at;
	return 0;
}

void calltree__add_again(struct calltree *t, uint32_t leaf, uint64_t period)
{
	uint64_t w = t->weight ? t->weight : 1;
	uint32_t at;

	t->n[leaf].self += period;
	t->n[leaf].self_n += w;
	for (at = leaf; at != CT_NONE; at = t->n[at].parent) {
		t->n[at].total += period;
		t->n[at].total_n += w;
	}
}

struct by_total {
	const struct ct_node *n;
	const struct ct_frame *f;
	uint32_t id;
};

/* The address a frame is ordered by among equals: its function's start, or its own. */
static uint64_t frame_addr(const struct ct_frame *f)
{
	return f->sym ? f->sym_start : f->addr;
}

/*
 * A frame's file as equal frames are ordered: by its path (anonymous memory
 * by its name). perf orders them by where its objects happen to be in
 * memory; a name gives every run, and every way of counting, one order.
 */
static int file_cmp(const struct ct_frame *x, const struct ct_frame *y)
{
	const char *nx = x->dso ? x->dso->path : x->anon ? x->anon : "";
	const char *ny = y->dso ? y->dso->path : y->anon ? y->anon : "";

	if (x->dso == y->dso && x->anon == y->anon)
		return 0;
	if (!!x->dso != !!y->dso)
		return x->dso ? -1 : 1;
	return strcmp(nx, ny);
}

/*
 * Most period first; equal ones as perf orders them: by file, then the
 * higher address first.
 */
static int total_cmp(const void *a, const void *b)
{
	const struct by_total *x = a, *y = b;
	int c;

	if (x->n->total != y->n->total)
		return x->n->total > y->n->total ? -1 : 1;
	if (x->f && y->f) {
		c = file_cmp(x->f, y->f);
		if (c)
			return c;
		if (frame_addr(x->f) != frame_addr(y->f))
			return frame_addr(x->f) > frame_addr(y->f) ? -1 : 1;
	}
	return x->id < y->id ? -1 : x->id > y->id;
}

/* perf's order of children among themselves: by file, the higher address first */
static int key_cmp(const void *a, const void *b)
{
	const struct by_total *x = a, *y = b;
	struct ct_node zero = {0};
	struct by_total xx = *x, yy = *y;

	xx.n = &zero;
	yy.n = &zero;
	return total_cmp(&xx, &yy);
}

long calltree__children(const struct calltree *t, uint32_t node, uint32_t **out, size_t *cap)
{
	return calltree__children_sorted(t, node, true, out, cap);
}

long calltree__children_sorted(const struct calltree *t, uint32_t node, bool by_total,
			       uint32_t **out, size_t *cap)
{
	struct by_total *s;
	size_t nr = 0, i;
	uint32_t c;

	for (c = t->n[node].child; c != CT_NONE; c = t->n[c].next)
		nr++;
	if (!nr)
		return 0;
	if (array_grow(out, cap, nr))
		return -ENOMEM;
	s = malloc(nr * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0, c = t->n[node].child; c != CT_NONE; c = t->n[c].next, i++) {
		s[i].n = &t->n[c];
		s[i].f = t->n[c].frame != CT_NONE ? &t->f[t->n[c].frame] : NULL;
		s[i].id = c;
	}
	qsort(s, nr, sizeof(*s), by_total ? total_cmp : key_cmp);
	for (i = 0; i < nr; i++)
		(*out)[i] = s[i].id;
	free(s);
	return (long)nr;
}

static char *make_name(const struct ct_frame *f, int style)
{
	char buf[80], *dm, *s;

	if (f->kind == CT_PROCESS)
		return strdup(f->comm);
	if (f->sym) {
		dm = style == SYM_RAW ? NULL : jrec_demangle(f->sym, style == SYM_PARAMS);
		if (asprintf(&s, "%s%s%s", dm ? dm : f->sym, f->plt ? "@plt" : "",
			     f->inlined ? " (inlined)" : "") < 0)
			s = NULL;
		free(dm);
		return s;
	}
	if (f->addr || !(f->dso || f->anon)) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)f->addr);
		return strdup(buf);
	}
	/* one frame for a file's unresolved code: its name in brackets, as perf's [kernel.kallsyms]
	 */
	if (!f->dso)
		return strdup(f->anon); /* "//anon", "[heap]", "[unknown]" */
	s = f->dso->short_name;
	if (s[0] == '[')
		return strdup(s);
	if (asprintf(&s, "[%s]", s) < 0)
		s = NULL;
	return s;
}

const char *calltree__name(struct calltree *t, uint32_t frame)
{
	struct ct_frame *f = &t->f[frame];

	if (!f->name)
		f->name = make_name(f, t->sym_params);
	return f->name ? f->name : "[out of memory]";
}

void calltree__release(struct calltree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_f; i++)
		free(t->f[i].name);
	free(t->f);
	free(t->fidx);
	free(t->n);
	free(t->nidx);
	memset(t, 0, sizeof(*t));
}

struct walk_item {
	uint32_t node;
	int depth;
};

int calltree__walk(struct calltree *ct, uint32_t root,
		   int (*fn)(struct calltree *ct, uint32_t node, int depth, void *arg), void *arg)
{
	struct walk_item *stack = NULL;
	size_t sp = 0, cap = 0;
	uint32_t *kids = NULL;
	size_t cap_kids = 0;
	long nr, i;
	int err = 0;

	if (array_grow(&stack, &cap, 1))
		return -ENOMEM;
	stack[sp].node = root;
	stack[sp++].depth = 0;
	while (sp && !err) {
		struct walk_item it = stack[--sp];

		if (it.depth)
			err = fn(ct, it.node, it.depth, arg);
		if (err)
			break;
		nr = calltree__children(ct, it.node, &kids, &cap_kids);
		if (nr < 0 || array_grow(&stack, &cap, sp + (size_t)(nr > 0 ? nr : 0))) {
			err = -ENOMEM;
			break;
		}
		/* pushed last to first, so the biggest child comes out first */
		for (i = nr - 1; i >= 0; i--) {
			stack[sp].node = kids[i];
			stack[sp++].depth = it.depth + 1;
		}
	}
	free(stack);
	free(kids);
	return err;
}

int flame_path__set(struct flame_path *p, const struct calltree *ct, uint32_t node, int depth)
{
	if (array_grow(&p->frames, &p->cap, (size_t)depth))
		return -ENOMEM;
	p->frames[depth - 1] = ct->n[node].frame;
	return 0;
}
