/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symtab: a sorted table of address ranges with names, for native code and
 * kernel symbols. The table does not own the names: whoever fills it keeps
 * them alive (an ELF file's string tables, a kallsyms text buffer).
 */
#ifndef JREC_SYMTAB_H
#define JREC_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct sym {
	uint64_t start, end; /* [start, end) */
	const char *name;
	uint8_t bind;    /* STB_* for ELF symbols, 0 otherwise */
	uint8_t is_plt;  /* a synthesized "name@plt" entry: name excludes the suffix */
	uint16_t module; /* kernel: index into the owner's module names, 0 = core */
	uint32_t seq;    /* the order added (wrapping), so that sorting keeps aliases in it */
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	size_t map_len; /* syms is a bigalloc mapping of this size, else malloc'd */
	/*
	 * kallsyms: of the names at one address the last listed stays, as perf
	 * gives each zero-sized name the room up to the next one before it
	 * chooses (memcpy, __memcpy, __pi_memcpy: __pi_memcpy).
	 */
	_Bool last_alias;
};

/* Room for @nr symbols in all (an estimate: symtab__add still grows past it). */
int symtab__reserve(struct symtab *t, size_t nr);
int symtab__add(struct symtab *t, uint64_t start, uint64_t size, const char *name, uint8_t bind);
/*
 * Sort, keep one symbol per start address (perf's preference: sized, not
 * weak, global, fewer leading underscores, longer name, the first; or the
 * last with last_alias), drop
 * zero-sized symbols that lie inside a sized one (labels within a function,
 * which would otherwise take the rest of its addresses), and give the other
 * zero-sized symbols the room up to the next one, at most @max_gap bytes.
 */
void symtab__finish(struct symtab *t, uint64_t max_gap);
/*
 * perf's order for a file's whole table (dso__load_sym(): functions and
 * objects), which names data addresses: sort, give each zero-sized symbol
 * the room up to the next one's start (the last one up to the page after
 * the one it starts in) and only then keep one symbol per start, by the
 * same preference; no gap limit, no label dropped. A symbol still of no
 * size (another starts where it does and lost) is gone; one that won keeps
 * its address alone, which symtab__find() matches.
 */
void symtab__finish_ends_first(struct symtab *t);
const struct sym *symtab__find(const struct symtab *t, uint64_t addr);
void symtab__release(struct symtab *t);

#endif
