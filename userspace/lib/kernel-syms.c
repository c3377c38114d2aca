// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "bigalloc.h"
#include "kernel-syms.h"

static int module_index(struct kernel_syms *k, const char *name)
{
	size_t i;

	for (i = k->nr_modules; i-- > 1;)
		if (!strcmp(k->modules[i], name))
			return (int)i;
	if (k->nr_modules >= 65535)
		return 0;
	if (array_grow(&k->modules, &k->cap_modules, k->nr_modules + 1))
		return -ENOMEM;
	k->modules[k->nr_modules] = name;
	return (int)k->nr_modules++;
}

/* Each hex digit's value plus one; 0 for any other byte. */
static const uint8_t hex_digit[256] = {
	['0'] = 1,  ['1'] = 2,	['2'] = 3,  ['3'] = 4,	['4'] = 5,  ['5'] = 6,	['6'] = 7,  ['7'] = 8,
	['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int parse_hex(const char *s, const char *end, uint64_t *v, const char **next)
{
	const char *start = s, *stop = end - s > 16 ? s + 16 : end;
	uint64_t x = 0;
	uint8_t d;

	while (s < stop && (d = hex_digit[(uint8_t)*s])) {
		x = x << 4 | (uint64_t)(d - 1);
		s++;
	}
	if (s == start)
		return -EINVAL;
	*v = x;
	*next = s;
	return 0;
}

static size_t count_lines(const char *p, size_t len)
{
	const char *end = p + len;
	size_t n = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	return n;
}

int kernel_syms__parse_owned(struct kernel_syms *k, char *text, size_t len, size_t map_len)
{
	char *p, *end;
	int err;

	memset(k, 0, sizeof(*k));
	k->text = text;
	k->text_map_len = map_len;
	k->text[len] = 0;
	k->tab.last_alias = 1;
	/* at most a symbol a line: room for them all at once, not grown twelve times */
	err = symtab__reserve(&k->tab, count_lines(text, len) + 1);
	if (err)
		goto out_err;
	err = module_index(k, "[kernel.kallsyms]");
	if (err < 0)
		goto out_err;
	p = k->text;
	end = k->text + len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *lend = nl ? nl : end;
		const char *q;
		char *name, *mod = NULL, type;
		uint64_t addr;

		*lend = 0;
		if (parse_hex(p, lend, &addr, &q) || q + 3 > lend || q[0] != ' ' || q[2] != ' ')
			goto next;
		type = q[1];
		name = (char *)q + 3;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			goto next;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = 0;
			if (*mod == '[') {
				char *c = strchr(mod, ']');

				if (c)
					c[1] = 0;
			}
		}
		if (!*name)
			goto next;
		if (!strcmp(name, "_text") && !mod)
			k->text_addr = addr;
		err = symtab__add(&k->tab, addr, 0, name, 0);
		if (err)
			goto out_err;
		if (mod) {
			err = module_index(k, mod);
			if (err < 0)
				goto out_err;
			k->tab.syms[k->tab.nr - 1].module = (uint16_t)err;
		}
next:
		p = lend + 1;
	}
	symtab__finish(&k->tab, 1 << 20);
	return 0;
out_err:
	kernel_syms__release(k);
	return err;
}

int kernel_syms__parse(struct kernel_syms *k, const char *buf, size_t len)
{
	/* a kallsyms text is megabytes: a populated mapping for it (bigalloc.h) */
	size_t map_len = len >= (1u << 20) ? len + 1 : 0;
	char *text = map_len ? big_zalloc(map_len) : malloc(len + 1);

	if (!text) {
		memset(k, 0, sizeof(*k));
		return -ENOMEM;
	}
	memcpy(text, buf, len);
	return kernel_syms__parse_owned(k, text, len, map_len);
}

int kernel_syms__from_symtab(struct kernel_syms *k, const struct symtab *tab, uint64_t text_addr)
{
	size_t i;
	int err;

	memset(k, 0, sizeof(*k));
	err = module_index(k, "[kernel.kallsyms]");
	if (err < 0)
		return err;
	for (i = 0; i < tab->nr; i++) {
		err = symtab__add(&k->tab, tab->syms[i].start, tab->syms[i].end - tab->syms[i].start,
				  tab->syms[i].name, tab->syms[i].bind);
		if (err) {
			kernel_syms__release(k);
			return err;
		}
	}
	k->text_addr = text_addr;
	symtab__finish(&k->tab, 1 << 20);
	return 0;
}

bool kernel_syms__in_core(struct kernel_syms *k, uint64_t addr)
{
	size_t lo, hi;

	/*
	 * Sorted by address: the kernel's own symbols run from the first to the
	 * last with module 0. The indices are kept until the table grows (more
	 * symbols are added, then finished); relocation moves addresses, not
	 * order, so they are read here each time.
	 */
	if (k->core_nr != k->tab.nr || !k->core_nr) {
		for (lo = 0; lo < k->tab.nr && k->tab.syms[lo].module; lo++)
			;
		for (hi = k->tab.nr; hi > lo && k->tab.syms[hi - 1].module; hi--)
			;
		k->core_lo = lo;
		k->core_hi = hi;
		k->core_nr = k->tab.nr;
	}
	lo = k->core_lo;
	hi = k->core_hi;
	return lo < hi && addr >= k->tab.syms[lo].start && addr < k->tab.syms[hi - 1].end;
}

int kernel_syms__relocate(struct kernel_syms *k, uint64_t recorded_text)
{
	uint64_t delta;
	size_t i;

	if (!k->text_addr)
		return -ENOENT;
	delta = recorded_text - k->text_addr;
	if (!delta)
		return 0;
	for (i = 0; i < k->tab.nr; i++) {
		/* module symbols are not moved by the core kernel's KASLR offset */
		if (k->tab.syms[i].module)
			continue;
		k->tab.syms[i].start += delta;
		k->tab.syms[i].end += delta;
	}
	k->text_addr = recorded_text;
	return 0;
}

int kernel_syms__add_module(struct kernel_syms *k, const char *name, int *idx)
{
	int i = module_index(k, name);

	if (i < 0)
		return i;
	*idx = i;
	return 0;
}

struct ksym_line {
	uint64_t addr;
	size_t off, len; /* the line in the text, without its newline */
	bool keep;
};

static int line_cmp(const void *a, const void *b)
{
	const struct ksym_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int kernel_syms__select(const char *text, size_t len, const uint64_t *addrs, size_t nr,
			struct buf *out)
{
	struct ksym_line *l = NULL;
	size_t n = 0, cap = 0, i, a, lo, hi, g;
	const char *p = text, *end = text + len;
	int err = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *lend = nl ? nl : end;
		const char *q, *name;
		uint64_t addr;
		char type;

		if (parse_hex(p, lend, &addr, &q) || q + 3 > lend || q[0] != ' ' || q[2] != ' ')
			goto next;
		type = q[1];
		name = q + 3;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			goto next;
		if (array_grow(&l, &cap, n + 1)) {
			err = -ENOMEM;
			goto out;
		}
		l[n].addr = addr;
		l[n].off = (size_t)(p - text);
		l[n].len = (size_t)(lend - p);
		/* the core kernel's _text: no module column after the name */
		l[n].keep = lend - name == 5 && !memcmp(name, "_text", 5);
		n++;
next:
		p = lend + 1;
	}
	qsort(l, n, sizeof(*l), line_cmp);
	for (a = 0, i = 0; a < nr; a++) {
		/* the last symbol at or below the address; addresses ascend, so i only grows */
		while (i < n && l[i].addr <= addrs[a])
			i++;
		if (!i)
			continue;
		for (lo = i - 1; lo > 0 && l[lo - 1].addr == l[i - 1].addr; lo--)
			;
		for (g = lo; g < i; g++)
			l[g].keep = true;
		for (hi = i; hi < n && l[hi].addr == l[i].addr; hi++)
			l[hi].keep = true; /* the next symbol (and its aliases): where this one ends */
	}
	for (i = 0; i < n && !err; i++) {
		if (!l[i].keep)
			continue;
		err = buf__append(out, text + l[i].off, l[i].len);
		if (!err)
			err = buf__append(out, "\n", 1);
	}
out:
	free(l);
	return err;
}

void kernel_syms__release(struct kernel_syms *k)
{
	if (!k)
		return;
	symtab__release(&k->tab);
	free(k->modules);
	if (k->text_map_len)
		big_free(k->text, k->text_map_len);
	else
		free(k->text);
	memset(k, 0, sizeof(*k));
}
