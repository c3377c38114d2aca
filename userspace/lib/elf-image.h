/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf-image: one ELF file opened for symbolization with libelf/libdw:
 * function symbols from .symtab, else .dynsym plus MiniDebugInfo
 * (.gnu_debugdata), PLT entries, the PT_LOAD layout that turns file offsets
 * into addresses, and source lines from DWARF.
 */
#ifndef JREC_ELF_IMAGE_H
#define JREC_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

struct elf_image;

/* 0, or -errno (-ENOEXEC: not an ELF file). */
int elf_image__open(const char *path, struct elf_image **out);
/* The same over an open descriptor, which the elf_image then owns (closed on failure too). */
int elf_image__open_fd(int fd, struct elf_image **out);
/* The same over a malloc'd image, which the elf_image then owns (freed on close). */
int elf_image__open_mem(void *buf, size_t len, struct elf_image **out);
void elf_image__close(struct elf_image *img);
/* The bytes of an image opened with elf_image__open_mem() (a running vdso), else NULL. */
const void *elf_image__mem(const struct elf_image *img, size_t *len);
/*
 * An image with no ELF file behind it (symbols stored in a recording): the
 * PT_LOAD layout as {offset, filesz, vaddr} triples, and a malloc'd buffer
 * the image owns and frees, where the symbol names live. The caller fills
 * elf_image__symtab_mut() and calls symtab__finish(). 0 or -ENOMEM.
 */
int elf_image__open_syms(void *strings, const uint64_t (*loads)[3], unsigned int nr_loads,
			 struct elf_image **out);
struct symtab *elf_image__symtab_mut(struct elf_image *img);
void elf_image__set_full_symtab(struct elf_image *img, bool full);
/*
 * Replace the image's PT_LOAD layout by that of the file at @path, which
 * must carry the same build-id: a separate debuginfo file keeps the
 * addresses of the segments but not where their bytes were in the file,
 * nor its PLT: the binary's PLT entries are added when the image has none.
 * 0 or -errno (the layout unchanged).
 */
int elf_image__take_layout(struct elf_image *img, const char *path);
/* Replace the PT_LOAD layout by @nr {offset, filesz, vaddr} triples. */
void elf_image__set_layout(struct elf_image *img, const uint64_t (*loads)[3], unsigned int nr);
/* The PT_LOAD layout as {offset, filesz, vaddr}, at most @max; how many. */
unsigned int elf_image__loads(const struct elf_image *img, uint64_t (*loads)[3], unsigned int max);

/* The value of symbol @name of any type in .symtab (e.g. a vmlinux's _text). 0 or -ENOENT. */
int elf_image__symbol_value(const struct elf_image *img, const char *name, uint64_t *value);
/* The GNU build-id, or 0 bytes. */
size_t elf_image__build_id(const struct elf_image *img, uint8_t *id, size_t max);
/* Translate a file offset of a mapped segment into the address symbols use. */
uint64_t elf_image__offset_to_vaddr(const struct elf_image *img, uint64_t off);
const struct symtab *elf_image__symtab(const struct elf_image *img);
/*
 * The table that names data addresses, as perf's whole table of the file:
 * functions, labels, objects and PLT entries, each at its file offset (the
 * address's offset in its mapping is looked up), zero-sized ones given the
 * room up to the next (symtab__finish_ends_first()). Made when first asked
 * for; empty when there is no memory for it.
 */
const struct symtab *elf_image__data_symtab(struct elf_image *img);
bool elf_image__has_symbols(const struct elf_image *img);
/* Whether the full symbol table (.symtab or MiniDebugInfo) was there, not just .dynsym. */
bool elf_image__has_full_symtab(const struct elf_image *img);
bool elf_image__has_dwarf(struct elf_image *img);
/*
 * The separate debug file a .gnu_debuglink section names: its file name
 * (NUL-terminated, into @name of @len bytes) and the CRC-32 of its contents.
 * 0; -ENOENT without the section; -EINVAL when it is malformed or the name
 * does not fit.
 */
int elf_image__debuglink(const struct elf_image *img, char *name, size_t len, uint32_t *crc);
/*
 * "file.c:123" (the file's base name) for @vaddr into @buf, or NULL: from
 * DWARF, else from the stored lines of elf_image__set_lines().
 */
const char *elf_image__srcline(struct elf_image *img, uint64_t vaddr, char *buf, size_t len);
/*
 * The same, the file's full name (a relative one joined to its unit's
 * compilation directory) into @file of @len bytes, and the line. 0 or -ENOENT.
 */
int elf_image__line(struct elf_image *img, uint64_t vaddr, char *file, size_t len, int *lineno);

/* The most inlined functions one address gives (deeper nests are cut at the outer end). */
#define ELF_INLINE_MAX 8
/*
 * The functions inlined at @vaddr, innermost first, from DWARF's inline
 * scopes: their names (DW_AT_linkage_name when the scope has one, else
 * DW_AT_name, pointing into the image) into @names, at most @max; without
 * DWARF, from the scopes of elf_image__set_inlines(). How many; 0 outside
 * any inlined function.
 */
size_t elf_image__inlines(struct elf_image *img, uint64_t vaddr, const char **names, size_t max);
/* The functions inlined at @addr, innermost first: names[first, first + nr) of the array beside. */
struct elf_inline {
	uint64_t addr;
	uint32_t first, nr;
};
/*
 * Give an image without DWARF these addresses' inline scopes (sorted by
 * addr, each nr at most ELF_INLINE_MAX) and their names: the image frees
 * the two arrays, not the names.
 */
void elf_image__set_inlines(struct elf_image *img, struct elf_inline *inl, size_t nr,
			    const char **names);

/* A source line from @addr up to the next one's addr; file NULL: no line there. */
struct elf_line {
	uint64_t addr;
	const char *file; /* the full name as DWARF has it */
	uint32_t line;
};
/*
 * Append to *arr (*nr used, *cap allocated) the lines that
 * elf_image__srcline() gives over [@lo, @hi), one entry where the line
 * changes and a line-0 entry at @hi; names point into the image. Ranges are
 * added in increasing order (-EINVAL otherwise). 0 when there is no DWARF.
 */
int elf_image__lines(struct elf_image *img, uint64_t lo, uint64_t hi, struct elf_line **arr,
		     size_t *nr, size_t *cap);
/* Give an image without DWARF these lines (malloc'd, sorted by addr; the image frees them). */
void elf_image__set_lines(struct elf_image *img, struct elf_line *lines, size_t nr);

#endif
