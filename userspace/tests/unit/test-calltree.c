// SPDX-License-Identifier: GPL-2.0
/*
 * calltree: frames interned once per function (per address when unresolved
 * and asked for), chains merged under their root with self and total counts,
 * children ordered as perf orders them, many trees in one calltree, and
 * names as shown; then enough chains to grow every index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/calltree.h"
#include "tap.h"

static struct resolved fn(const char *sym, uint64_t start, uint64_t addr)
{
	struct resolved r;

	memset(&r, 0, sizeof(r));
	r.sym = sym;
	r.sym_start = start;
	r.addr = addr;
	r.level = RES_USER;
	r.anon_name = "//anon";
	return r;
}

static uint32_t child(const struct calltree *t, uint32_t node, const char *name)
{
	uint32_t c;

	for (c = t->n[node].child; c != CT_NONE; c = t->n[c].next)
		if (t->f[t->n[c].frame].sym && !strcmp(t->f[t->n[c].frame].sym, name))
			return c;
	return CT_NONE;
}

int main(void)
{
	static const char main_s[] = "main", a_s[] = "a", b_s[] = "b", zn[] = "_ZN3foo3barEv";
	struct calltree t = {0};
	struct resolved r_main = fn(main_s, 0x100, 0x123), r_a = fn(a_s, 0x200, 0x210),
			r_a2 = fn(a_s, 0x200, 0x2ff), r_b = fn(b_s, 0x300, 0x310),
			r_u1 = fn(NULL, 0, 0x5000), r_u2 = fn(NULL, 0, 0x6000),
			r_zn = fn(zn, 0x400, 0x400);
	uint32_t f_main, f_a, f_a2, f_b, f_u1, f_u2, f_zn, root, root2, chain[3], *kids = NULL;
	size_t cap = 0;
	long nr;
	int err = 0, i;
	uint32_t n_main, n_a, n_b, leaf_a = CT_NONE;
	char what[64];

	t.by_address = true;
	err |= calltree__frame(&t, &r_main, &f_main);
	err |= calltree__frame(&t, &r_a, &f_a);
	err |= calltree__frame(&t, &r_a2, &f_a2);
	err |= calltree__frame(&t, &r_b, &f_b);
	err |= calltree__frame(&t, &r_u1, &f_u1);
	err |= calltree__frame(&t, &r_u2, &f_u2);
	err |= calltree__frame(&t, &r_zn, &f_zn);
	check(!err, "frames interned");
	check(f_a == f_a2 && f_a != f_b, "one frame per function, whatever the address in it");
	check(f_u1 != f_u2, "unresolved: one frame per address (by_address)");
	check(!strcmp(calltree__name(&t, f_u1), "0x5000"), "unresolved frame named by its address");
	check(!strcmp(calltree__name(&t, f_zn), "foo::bar"),
	      "C++ names demangled, without their parameter lists as perf's");
	{
		struct calltree tv = { .sym_params = true };
		uint32_t f;

		check(!calltree__frame(&tv, &r_zn, &f) && !strcmp(calltree__name(&tv, f), "foo::bar()"),
		      "with sym_params (-v) with their parameter lists");
		calltree__release(&tv);
	}

	/*
	 * main;a x3 (period 10 each: once added, twice again at the node it
	 * ended at), main;b x1 (40), main x1 (5)
	 */
	err = calltree__new_root(&t, &root);
	chain[0] = f_main;
	chain[1] = f_a;
	err = err ? err : calltree__add(&t, root, chain, 2, 10, &leaf_a);
	for (i = 0; i < 2 && !err; i++)
		calltree__add_again(&t, leaf_a, 10);
	chain[1] = f_b;
	if (!err)
		err = calltree__add(&t, root, chain, 2, 40, NULL);
	if (!err)
		err = calltree__add(&t, root, chain, 1, 5, NULL);
	check(!err, "chains added");
	n_main = child(&t, root, main_s);
	n_a = n_main != CT_NONE ? child(&t, n_main, a_s) : CT_NONE;
	n_b = n_main != CT_NONE ? child(&t, n_main, b_s) : CT_NONE;
	check(n_main != CT_NONE && n_a != CT_NONE && n_b != CT_NONE, "the tree main -> a, b");
	if (n_main == CT_NONE || n_a == CT_NONE || n_b == CT_NONE)
		return tap_done();
	check(t.n[root].total == 75 && t.n[root].total_n == 5, "root: all period and samples");
	check(t.n[n_main].total == 75 && t.n[n_main].self == 5 && t.n[n_main].self_n == 1,
	      "main: total 75, self 5 (one sample)");
	check(t.n[n_a].total == 30 && t.n[n_a].self == 30 && t.n[n_a].total_n == 3 &&
		  t.n[n_a].self_n == 3,
	      "a: 30 in 3 samples");
	check(leaf_a == n_a, "calltree__add: the node the chain ended at");
	nr = calltree__children(&t, n_main, &kids, &cap);
	check(nr == 2 && kids[0] == n_b && kids[1] == n_a,
	      "children most period first: b (40), a (30)");

	/* a tie: the higher address first, as perf */
	chain[1] = f_a;
	err = calltree__add(&t, root, chain, 2, 10, NULL);
	nr = calltree__children(&t, n_main, &kids, &cap);
	check(!err && nr == 2 && kids[0] == n_b && kids[1] == n_a && t.n[n_a].total == 40,
	      "equal periods: b (0x300) before a (0x200)");
	nr = calltree__children_sorted(&t, n_main, false, &kids, &cap);
	check(nr == 2 && kids[0] == n_b, "by key alone: the higher address first");

	/* a second tree in the same calltree stays apart */
	err = calltree__new_root(&t, &root2);
	chain[0] = f_b;
	if (!err)
		err = calltree__add(&t, root2, chain, 1, 7, NULL);
	check(!err && t.n[root2].total == 7 && t.n[root].total == 85 &&
		  child(&t, root2, b_s) != CT_NONE && child(&t, root2, main_s) == CT_NONE,
	      "two roots, two separate trees");

	/* many frames and nodes: the indexes grow and still find everything */
	for (i = 0; i < 5000 && !err; i++) {
		struct resolved r = fn(NULL, 0, 0x10000 + (uint64_t)i * 16);
		uint32_t f, again;

		err = calltree__frame(&t, &r, &f);
		chain[0] = f_main;
		chain[1] = f;
		if (!err)
			err = calltree__add(&t, root, chain, 2, 1, NULL);
		if (!err)
			err = calltree__frame(&t, &r, &again);
		if (!err && again != f)
			err = -1;
	}
	nr = calltree__children(&t, n_main, &kids, &cap);
	snprintf(what, sizeof(what), "5000 more frames under main: %ld children", nr);
	check(!err && nr == 5002 && t.n[n_main].total == 5085 && t.n[root].total == 5085, what);

	/* per file, unresolved addresses are one frame */
	{
		struct calltree u = {0};
		uint32_t x, y;

		err = calltree__frame(&u, &r_u1, &x);
		if (!err)
			err = calltree__frame(&u, &r_u2, &y);
		check(!err && x == y && !strcmp(calltree__name(&u, x), "//anon"),
		      "not by_address: one frame per file for its unresolved code");
		calltree__release(&u);
	}
	free(kids);
	calltree__release(&t);
	calltree__release(NULL);
	return tap_done();
}
