// SPDX-License-Identifier: GPL-2.0
/*
 * The JREC_FEAT_SYMTAB section: this test program's own symbols written as
 * the recorder writes them, read back and looked up; then every truncation
 * and a set of corrupt counts and lengths, each rejected cleanly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cookie.h"
#include "elf-image.h"
#include "perf-file.h"
#include "stored-syms.h"
#include "tap.h"

__attribute__((noinline)) int test_stored_marker(int x);
__attribute__((noinline)) int test_stored_marker(int x)
{
	return x * 5 + 2;
}

/* the address test_stored_marker has in the file's own layout */
static uint64_t marker_vaddr(void)
{
	struct elf_image *img;
	const struct symtab *t;
	uint64_t v = 0;
	size_t i;

	if (elf_image__open("/proc/self/exe", &img))
		return 0;
	t = elf_image__symtab(img);
	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, "test_stored_marker"))
			v = t->syms[i].start;
	elf_image__close(img);
	return v;
}

/* parse and open every entry: 0, or the first error */
static int parse_open(const void *p, size_t len)
{
	struct stored_syms ss;
	struct elf_image *img;
	size_t i;
	int err = stored_syms__parse(&ss, p, len, false);

	for (i = 0; !err && i < ss.nr; i++) {
		err = stored_syms__open(&ss, &ss.files[i], &img);
		elf_image__close(img);
	}
	stored_syms__release(&ss);
	return err;
}

int main(void)
{
	struct buf b = BUF_INIT;
	struct jrec_cookie ck, other;
	struct stored_syms ss;
	const struct stored_file *f;
	struct elf_image *img = NULL;
	const struct sym *s;
	uint64_t v = marker_vaddr();
	struct jrec_symtab_entry *e;
	uint8_t *copy;
	size_t len, i, bad = 0;
	int fd, err;

	printf("TAP version 13\n");
	check(test_stored_marker(1) == 7 && v, "own marker symbol found in .symtab");
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	check(fd >= 0 && !jrec_cookie_from_fd(fd, &ck), "own cookie");
	err = stored_syms__emit(fd, "/some/where/test-stored-syms", &ck, &b);
	check(!err && b.len > sizeof(struct jrec_symtab_entry) && b.len % 8 == 0,
	      "entry written, 8-byte aligned");
	close(fd);
	/* two entries, the second a copy with another cookie */
	len = b.len;
	if (buf__reserve(&b, len) || buf__append(&b, b.data, len))
		return 1;
	e = (struct jrec_symtab_entry *)(b.data + len);
	e->cookie[0] ^= 0xff;

	err = stored_syms__parse(&ss, b.data, b.len, false);
	check(!err && ss.nr == 2, "two entries parsed");
	f = stored_syms__find(&ss, &ck);
	check(f && f == &ss.files[0] && !strcmp(f->path, "/some/where/test-stored-syms"),
	      "entry found by cookie, with its path");
	other = ck;
	other.bytes[1] ^= 0x55;
	check(!stored_syms__find(&ss, &other), "no entry for another cookie");
	err = f ? stored_syms__open(&ss, f, &img) : -ENOENT;
	s = err ? NULL : symtab__find(elf_image__symtab(img), v + 1);
	check(s && !strcmp(s->name, "test_stored_marker"), "marker resolved from stored symbols");
	elf_image__close(img);
	stored_syms__release(&ss);
	stored_syms__release(&ss); /* twice is fine */

	/* every cut that is not at an entry boundary is rejected */
	copy = malloc(b.len);
	if (!copy)
		return 1;
	for (i = 1; i < b.len; i++) {
		memcpy(copy, b.data, i);
		err = stored_syms__parse(&ss, copy, i, false);
		if (i == len ? err : err != -EBADMSG)
			bad++;
		stored_syms__release(&ss);
	}
	check(!bad, "every truncation rejected with -EBADMSG, the entry boundary accepted");

#define CORRUPT(what, stmt)                                                                        \
	do {                                                                                       \
		memcpy(copy, b.data, b.len);                                                       \
		e = (struct jrec_symtab_entry *)copy;                                              \
		stmt;                                                                              \
		check(parse_open(copy, b.len) == -EBADMSG, "corrupt " what " rejected");         \
	} while (0)
	CORRUPT("cookie length", e->cookie_len = 21);
	CORRUPT("load count", e->nr_loads = JREC_SYMTAB_MAX_LOADS + 1);
	CORRUPT("path length", e->path_len = 0xffffffffu);
	CORRUPT("path without NUL", e->path_len = 3);
	CORRUPT("symbol count", e->nr_syms = 0xffffffffu);
	CORRUPT("string table length", e->strtab_len = ~0ULL);
	CORRUPT("string table without NUL", copy[len - 1] = 'x'; copy[len - 2] = 'x';
		copy[len - 3] = 'x'; copy[len - 4] = 'x'; copy[len - 5] = 'x';
		copy[len - 6] = 'x'; copy[len - 7] = 'x'; copy[len - 8] = 'x');
	CORRUPT("symbol name offset",
		((struct jrec_symtab_sym *)(copy + sizeof(*e) + ((e->path_len + 7) & ~7u) +
					    e->nr_loads * sizeof(struct jrec_symtab_load)))
			->name_off = (uint32_t)e->strtab_len);
	free(copy);
	buf__release(&b);
	return tap_done();
}
