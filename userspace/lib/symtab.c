// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bigalloc.h"
#include "symtab.h"

int symtab__add(struct symtab *t, uint64_t start, uint64_t size, const char *name, uint8_t bind)
{
	struct sym *s;

	if (t->nr == t->cap) {
		int err = symtab__reserve(t, t->cap ? t->cap * 2 : 256);

		if (err)
			return err;
	}
	s = &t->syms[t->nr++];
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->end = start + size;
	if (s->end < start)
		s->end = UINT64_MAX;
	s->name = name;
	s->bind = bind;
	s->seq = (uint32_t)(t->nr - 1);
	return 0;
}

/* From this size on, the array lives in a populated mapping (bigalloc.h). */
#define SYMTAB_BIG (1u << 20)

int symtab__reserve(struct symtab *t, size_t nr)
{
	size_t len = nr * sizeof(struct sym);
	struct sym *n;

	if (nr <= t->cap)
		return 0;
	if (nr > SIZE_MAX / sizeof(struct sym))
		return -ENOMEM;
	if (t->map_len) {
		n = big_realloc(t->syms, t->map_len, len);
		if (!n)
			return -ENOMEM;
		t->map_len = len;
	} else if (len >= SYMTAB_BIG) {
		n = big_zalloc(len);
		if (!n)
			return -ENOMEM;
		if (t->nr)
			memcpy(n, t->syms, t->nr * sizeof(*n));
		free(t->syms);
		t->map_len = len;
	} else {
		n = realloc(t->syms, len);
		if (!n)
			return -ENOMEM;
	}
	t->syms = n;
	t->cap = nr;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Is @b a better name for the address than @a? perf's order, so that both
 * tools name a sample alike: a sized symbol, then a non-weak one, then a
 * global one, then fewer leading underscores, then the longer name; on a tie
 * the first in the table stays. (A weak alias loses even to a local one:
 * libc's resolver of wmemchr, run by ld.so, is __wmemchr_ifunc, not wmemchr.)
 */
static int better(const struct sym *a, const struct sym *b)
{
	size_t ua, ub;

	if ((a->end > a->start) != (b->end > b->start))
		return b->end > b->start;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return ub < ua;
	return strlen(b->name) > strlen(a->name);
}

/*
 * Drop the zero-sized symbols that start inside a sized one before them: a
 * label such as a deopt entry within a builtin names one address, not the
 * rest of the function, as perf also gives those samples to the function.
 */
static void drop_inner_labels(struct symtab *t)
{
	uint64_t covered = 0; /* the furthest end of a sized symbol so far */
	size_t i, out = 0;

	for (i = 0; i < t->nr; i++) {
		const struct sym *s = &t->syms[i];

		if (s->end == s->start && s->start < covered)
			continue;
		if (s->end > covered)
			covered = s->end;
		t->syms[out++] = *s;
	}
	t->nr = out;
}

static void sort_syms(struct symtab *t)
{
	size_t i;

	for (i = 1; i < t->nr && t->syms[i - 1].start <= t->syms[i].start; i++)
		;
	if (i < t->nr) /* kallsyms and most symbol tables come sorted */
		qsort(t->syms, t->nr, sizeof(*t->syms), sym_cmp);
}

/* One symbol per start address, the better one (the last one with last_alias). */
static void keep_one_per_start(struct symtab *t)
{
	size_t i, out = 0;

	for (i = 0; i < t->nr; i++) {
		if (out && t->syms[out - 1].start == t->syms[i].start) {
			if (t->last_alias || better(&t->syms[out - 1], &t->syms[i]))
				t->syms[out - 1] = t->syms[i];
			continue;
		}
		t->syms[out++] = t->syms[i];
	}
	t->nr = out;
}

void symtab__finish_ends_first(struct symtab *t)
{
	size_t i;

	sort_syms(t);
	for (i = 0; i < t->nr; i++) {
		struct sym *s = &t->syms[i];

		if (s->end != s->start)
			continue;
		if (i + 1 < t->nr)
			s->end = t->syms[i + 1].start;
		else
			s->end = (s->start & ~(uint64_t)4095) + (s->start & 4095 ? 8192 : 4096);
	}
	keep_one_per_start(t);
}

void symtab__finish(struct symtab *t, uint64_t max_gap)
{
	size_t i;

	if (!t->nr)
		return;
	sort_syms(t);
	keep_one_per_start(t);
	drop_inner_labels(t);
	for (i = 0; i < t->nr; i++) {
		struct sym *s = &t->syms[i];

		if (s->end > s->start)
			continue;
		if (i + 1 < t->nr && t->syms[i + 1].start - s->start <= max_gap)
			s->end = t->syms[i + 1].start;
		else
			s->end = s->start + (i + 1 < t->nr ? 1 : 4096);
	}
}

const struct sym *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	/* last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (addr < t->syms[lo - 1].end || addr == t->syms[lo - 1].start)
		return &t->syms[lo - 1];
	/* a large symbol that an earlier small one sits inside of */
	if (lo >= 2 && addr < t->syms[lo - 2].end)
		return &t->syms[lo - 2];
	return NULL;
}

void symtab__release(struct symtab *t)
{
	if (!t)
		return;
	if (t->map_len)
		big_free(t->syms, t->map_len);
	else
		free(t->syms);
	memset(t, 0, sizeof(*t));
}
