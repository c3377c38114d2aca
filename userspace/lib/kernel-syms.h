/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel-syms: kernel text symbols from a kallsyms copy or a System.map,
 * relocated to where the recorded kernel had its text (KASLR).
 */
#ifndef JREC_KERNEL_SYMS_H
#define JREC_KERNEL_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "symtab.h"

struct kernel_syms {
	struct symtab tab;
	char *text;           /* owned copy of the parsed text; names point into it */
	size_t text_map_len;  /* text is an anonymous mapping of this size, else malloc'd */
	const char **modules; /* modules[0] = "[kernel.kallsyms]", others "[name]" */
	size_t nr_modules, cap_modules;
	uint64_t text_addr; /* _text in the table as parsed, 0 if absent */
	/* kernel_syms__in_core()'s memo: the core kernel's first and last symbol, for core_nr symbols */
	size_t core_lo, core_hi, core_nr;
};

/* Parse "ADDR TYPE NAME [MODULE]" lines (kallsyms and System.map). 0 or -errno. */
int kernel_syms__parse(struct kernel_syms *k, const char *buf, size_t len);
/*
 * The same, in place: @text has @len bytes and room for a NUL after them; it
 * is malloc'd, or a mapping of @map_len bytes to munmap(). @k owns it from
 * here on, on failure too.
 */
int kernel_syms__parse_owned(struct kernel_syms *k, char *text, size_t len, size_t map_len);
/*
 * Take the function symbols of a vmlinux (@tab, names owned by the caller's
 * image) with @text_addr the link-time _text. 0 or -errno.
 */
int kernel_syms__from_symtab(struct kernel_syms *k, const struct symtab *tab, uint64_t text_addr);
/*
 * Whether @addr lies within the kernel's own symbols (not a module's): from
 * the first of them to the end of the last. @k finished (symtab__finish()).
 */
bool kernel_syms__in_core(struct kernel_syms *k, uint64_t addr);
/* Move every symbol so that _text lands on @recorded_text. -ENOENT without _text. */
int kernel_syms__relocate(struct kernel_syms *k, uint64_t recorded_text);
/* The index of module @name ("[name]"), added if new; @name must outlive @k. */
int kernel_syms__add_module(struct kernel_syms *k, const char *name, int *idx);
void kernel_syms__release(struct kernel_syms *k);

/*
 * The lines of the kallsyms text @text (@len bytes) that a report of
 * samples at @addrs (@nr addresses, sorted ascending) needs, appended to
 * @out verbatim in address order: the core kernel's _text (what relocation
 * keys on), every text symbol that holds one of the addresses and, for each
 * of them, the text symbol after it (where it ends). 0 or -ENOMEM.
 */
int kernel_syms__select(const char *text, size_t len, const uint64_t *addrs, size_t nr,
			struct buf *out);

#endif
