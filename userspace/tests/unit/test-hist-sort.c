// SPDX-License-Identifier: GPL-2.0
/*
 * hist__sort(): perf report's order of entries of equal share. The keys in
 * their order, each by its own rule (comm and dso by name, no file last;
 * a function by its name as shown, none last), then as perf tells entries
 * apart (a function's address); -n's samples after the keys; with
 * --children, a caller above its callees within one thread.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/hist.h"
#include "tap.h"

static struct dso libc = { .short_name = "libc.so.6" };
static struct dso libz = { .short_name = "libz.so.1" };

static struct hist_key key(const char *comm, struct dso *dso, const char *sym, uint64_t addr)
{
	struct hist_key k = { .comm = comm, .pid = 7, .tid = 7, .dso = dso, .sym = sym,
			      .level = '.', .cpu = -1 };

	if (!dso)
		k.anon = RES_UNMAPPED;
	if (sym)
		k.sym_start = addr;
	else
		k.addr = addr;
	return k;
}

/* The entries' symbols (or addresses) in @h's order, comma-separated. */
static const char *order(const struct hist *h)
{
	static char buf[512];
	size_t i, used = 0;

	buf[0] = 0;
	for (i = 0; i < h->nr && used < sizeof(buf) - 40; i++) {
		const struct hist_key *k = &h->e[i].k;

		if (k->sym)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s/%s", i ? "," : "",
						 k->comm, k->sym);
		else
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s/%#llx",
						 i ? "," : "", k->comm, (unsigned long long)k->addr);
	}
	return buf;
}

static void expect(const struct hist *h, const char *want, const char *what)
{
	char line[700];
	const char *got = order(h);

	snprintf(line, sizeof(line), "%s: %s", what, got);
	check(!strcmp(got, want), line);
	if (strcmp(got, want))
		printf("#   expected %s\n", want);
}

static void add(struct hist *h, struct hist_key k, uint64_t period)
{
	hist__add(h, &k, period);
}

/* Two functions without names of equal period, the second of more samples. */
static void samples_case(struct hist *h, bool n, const char *want, const char *what)
{
	char bad[32];

	hist__set_sort(h, "sym", bad, sizeof(bad));
	h->rank_samples = n;
	add(h, key("a", &libc, NULL, 0x10), 2);
	add(h, key("a", &libc, NULL, 0x20), 1);
	add(h, key("a", &libc, NULL, 0x20), 1);
	hist__sort(h);
	expect(h, want, what);
	hist__release(h);
}

/* @n entries into @h (sorted by @sort): periods from @period(i), names from a rotation. */
static void fill(struct hist *h, const char *sort, size_t n, uint64_t (*period)(size_t))
{
	static const char *const syms[] = { "alpha", "beta", "gamma", "delta", "_Z5epsilonv" };
	static const char *const comms[] = { "a", "b", "c" };
	char bad[32];
	size_t i;

	hist__set_sort(h, sort, bad, sizeof(bad));
	for (i = 0; i < n; i++)
		add(h, key(comms[i % 3], i % 7 ? &libc : &libz, syms[i % 5], 0x1000 + 16 * i),
		    period(i));
}

/* Whether @a's first @k entries are @b's: the same keys in the same order. */
static bool same_first(const struct hist *a, const struct hist *b, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		if (a->e[i].k.sym != b->e[i].k.sym || a->e[i].k.comm != b->e[i].k.comm ||
		    a->e[i].k.sym_start != b->e[i].k.sym_start || a->e[i].period != b->e[i].period)
			return false;
	return true;
}

static uint64_t spread(size_t i)
{
	return (i * 7919) % 1009 + 1; /* distinct for i < 1009, in no order */
}

static uint64_t few(size_t i)
{
	return i % 4 + 1; /* four periods: the top ones tie by every key as well */
}

static uint64_t named_ties(size_t i)
{
	return i < 5 ? 100 : i + 1; /* five of one period, told apart by their names */
}

/*
 * hist__sort_first(): a first screen's entries in hist__sort()'s order
 * before the others are sorted, or -EAGAIN when that order needs the whole
 * sort; the whole sort after it is the whole sort.
 */
static void first_cases(void)
{
	struct hist a = { 0 }, b = { 0 };
	int err;

	fill(&a, "comm,dso,sym", 300, spread);
	fill(&b, "comm,dso,sym", 300, spread);
	err = hist__sort_first(&a, 42);
	hist__sort(&b);
	check(!err && same_first(&a, &b, 42),
	      "sort_first 42 of 300 entries of distinct periods: hist__sort()'s first 42");
	hist__sort(&a);
	check(same_first(&a, &b, 300), "hist__sort() after it: the whole order, as without it");
	hist__release(&a);
	hist__release(&b);

	fill(&a, "comm,dso,sym", 60, named_ties);
	fill(&b, "comm,dso,sym", 60, named_ties);
	err = hist__sort_first(&a, 10);
	hist__sort(&b);
	check(!err && same_first(&a, &b, 10),
	      "sort_first: equal periods told apart by the keys (comm, dso, sym's name)");
	hist__release(&a);
	hist__release(&b);

	/* 200 entries of four periods: equal ones with the same names, only the trees order them */
	fill(&a, "comm,dso,sym", 200, few);
	fill(&b, "comm,dso,sym", 200, few);
	err = hist__sort_first(&a, 10);
	check(err == -EAGAIN && same_first(&a, &b, 200),
	      "sort_first: entries equal by every column among the first: -EAGAIN, the entries as they were");
	hist__release(&a);
	hist__release(&b);

	fill(&a, "sym", 20, spread);
	check(hist__sort_first(&a, 19) == -EAGAIN, "sort_first: the whole table asked for: -EAGAIN");
	check(hist__sort_first(&a, 10) == 0, "sort_first: 10 of 20: done");
	hist__release(&a);

	fill(&a, "sym", 100, spread);
	a.children = true;
	a.depth_order = 1;
	check(hist__sort_first(&a, 10) == -EAGAIN,
	      "sort_first: --children's callers above their callees (within a thread only): -EAGAIN");
	hist__release(&a);
}

int main(void)
{
	struct hist h = { 0 };
	char bad[32];

	/* comm, dso, sym: one entry of more share first, then the ties by key */
	hist__set_sort(&h, "comm,dso,sym", bad, sizeof(bad));
	add(&h, key("true", &libc, "beta", 0x100), 1);
	add(&h, key("env", NULL, NULL, 0x10), 1);
	add(&h, key("env", &libc, "zeta", 0x300), 1);
	add(&h, key("env", &libc, "ab", 0x100), 1);
	add(&h, key("env", &libc, NULL, 0x5), 1);
	add(&h, key("env", &libc, "_Z5alphav", 0x400), 1);
	add(&h, key("true", &libz, "hot", 0x10), 5);
	hist__sort(&h);
	expect(&h,
	       "true/hot,env/ab,env/_Z5alphav,env/zeta,env/0x5,env/0x10,true/beta",
	       "comm,dso,sym: by command, file (none last), function by its shown name (none last)");
	hist__release(&h);

	/* sym alone: functions without a name tie, then by address whatever their file */
	hist__set_sort(&h, "sym", bad, sizeof(bad));
	add(&h, key("a", &libc, NULL, 0x20), 1);
	add(&h, key("a", &libc, "b", 0x100), 1);
	add(&h, key("a", &libz, NULL, 0x10), 1);
	hist__sort(&h);
	expect(&h, "a/b,a/0x10,a/0x20", "sym: a named function first, the others by address");
	hist__release(&h);

	/* -n: the samples after the keys; without it, not looked at */
	samples_case(&h, false, "a/0x10,a/0x20", "without -n, equal periods by address");
	samples_case(&h, true, "a/0x20,a/0x10", "-n: equal periods, the more samples first");

	/*
	 * --children: of one thread, the entry with the longer chain under it
	 * first (caller order), the shorter (callee order): main above leaf
	 * either way, against the keys' order
	 */
	for (int dir = 1; dir >= -1; dir -= 2) {
		struct hist_key caller = key("a", &libc, "main", 0x100),
				callee = key("a", &libc, "leaf", 0x200);

		hist__set_sort(&h, "sym", bad, sizeof(bad));
		h.children = true;
		h.depth_order = dir;
		hist__count(&h, 1);
		hist__add_chain(&h, &callee, 1, dir > 0 ? 2 : 4);
		hist__add_chain(&h, &caller, 1, dir > 0 ? 5 : 1);
		hist__sort(&h);
		expect(&h, "a/main,a/leaf",
		       dir > 0 ? "--children, callers first: the deeper chain first"
			       : "--children -g callee: the shallower chain first");
		hist__release(&h);
	}
	{
		struct hist_key a = key("a", &libc, "main", 0x100), b = key("a", &libc, "leaf", 0x200);

		b.tid = 8;
		hist__set_sort(&h, "sym", bad, sizeof(bad));
		h.children = true;
		h.depth_order = 1;
		hist__count(&h, 1);
		hist__add_chain(&h, &a, 1, 5);
		hist__add_chain(&h, &b, 1, 2);
		hist__sort(&h);
		expect(&h, "a/leaf,a/main", "--children, two threads: by the keys, not the chains");
		hist__release(&h);
	}
	first_cases();
	return tap_done();
}
