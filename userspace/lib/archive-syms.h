/* SPDX-License-Identifier: GPL-2.0 */
/*
 * archive-syms: the JREC_FEAT_ARCHIVE section (see perf-file.h), written by
 * `jrec archive` and read by the report. The writer takes, for each file
 * that has samples, the symbols the report found there and the source lines
 * of the ranges that were sampled, and shares one string table among them all;
 * the reader indexes the section, checked, and opens an entry as an
 * elf_image (symbols, PT_LOAD layout, line table and the sampled addresses'
 * inline scopes, no ELF behind it).
 */
#ifndef JREC_ARCHIVE_SYMS_H
#define JREC_ARCHIVE_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cookie.h"

struct elf_image;
struct elf_line;
struct kernel_syms;
struct symtab;

/* What the writer is given for one file. */
struct archive_file_in {
	struct jrec_cookie cookie;
	const char *path;
	bool full_symtab;
	bool had_symbols; /* the file had symbols, though perhaps none is in @syms */
	bool kernel; /* the kernel or a module, @path its "[name]": syms at run-time addresses */
	const uint64_t (*loads)[3];   /* {offset, filesz, vaddr} */
	unsigned int nr_loads;	      /* at most JREC_SYMTAB_MAX_LOADS */
	const struct symtab *syms;    /* finished */
	const struct elf_line *lines; /* sorted by addr, as elf_image__lines() gives them */
	size_t nr_lines;
	const struct elf_inline *inlines; /* sampled addresses' inline scopes, sorted by addr */
	size_t nr_inlines;
	const char *const *inline_names; /* what their first/nr index */
};

struct archive_writer;

int archive_writer__new(struct archive_writer **out);
/* Queue one file's entry; the inputs are copied. 0, -EINVAL, -ENOMEM. */
int archive_writer__add(struct archive_writer *w, const struct archive_file_in *f);
/* Append the whole section, prefix included, to @b. 0 or -ENOMEM. */
int archive_writer__finish(struct archive_writer *w, struct buf *b);
void archive_writer__free(struct archive_writer *w);

struct archive_file {
	struct jrec_cookie cookie;
	const char *path;
	uint16_t flags;
	uint32_t nr_loads;
	uint64_t nr_syms, nr_lines, nr_inlines;
	const uint8_t *loads, *syms, *lines, *inlines; /* raw, in file byte order */
};

struct archive_syms {
	struct archive_file *files;
	size_t nr;
	const char *strtab;
	uint64_t strtab_len;
	const uint8_t *inline_names; /* uint32_t offsets into strtab, raw */
	uint64_t nr_inline_names;
	bool swapped;
};

/*
 * Index the payload after the section's prefix. The bytes must outlive @as.
 * 0, -EBADMSG on any count, offset or length that does not fit, -ENOMEM.
 */
int archive_syms__parse(struct archive_syms *as, const void *data, size_t len, bool swapped);
/*
 * The kernel's symbols from the kernel entries, module names pointing into
 * the section; k is left empty without any. 0, -EBADMSG or -ENOMEM.
 */
int archive_syms__kernel(const struct archive_syms *as, struct kernel_syms *k);
/*
 * The entry (not the kernel's) recorded for @cookie, or for @path when the recording gave the
 * file no cookie (the vdso of a kernel without build-ids), or NULL.
 */
const struct archive_file *archive_syms__find(const struct archive_syms *as, const char *path,
					      const struct jrec_cookie *cookie);
/* An elf_image with the entry's symbols, layout and source lines. 0 or -errno. */
int archive_syms__open(const struct archive_syms *as, const struct archive_file *f,
		       struct elf_image **out);
void archive_syms__release(struct archive_syms *as);

#endif
