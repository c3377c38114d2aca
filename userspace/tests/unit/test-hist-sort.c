// SPDX-License-Identifier: GPL-2.0
/*
 * hist__sort(): perf report's order of entries of equal share. The keys in
 * their order, each by its own rule (comm and dso by name, no file last;
 * a function by its name as shown, none last), then as perf tells entries
 * apart (a function's address); -n's samples after the keys; with
 * --children, a caller above its callees within one thread.
 */
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
	return tap_done();
}
