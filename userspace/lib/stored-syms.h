/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stored-syms: the JREC_FEAT_SYMTAB section (see perf-file.h). The recorder
 * turns a mapped ELF file's function symbols into one entry; the reporter
 * indexes the section, checked, and opens an entry as an elf_image when no
 * copy of the file with the recorded cookie is found.
 */
#ifndef JREC_STORED_SYMS_H
#define JREC_STORED_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cookie.h"
#include "buf.h"

struct elf_image;

/* Append the entry for the ELF file open at @fd (pread only). 0, -ENOEXEC, or -errno. */
int stored_syms__emit(int fd, const char *path, const struct jrec_cookie *cookie, struct buf *b);

struct stored_file {
	struct jrec_cookie cookie;
	const char *path;
	const uint8_t *loads, *syms; /* raw, in file byte order */
	const char *strtab;
	uint32_t nr_loads, nr_syms;
	uint64_t strtab_len;
};

struct stored_syms {
	struct stored_file *files;
	size_t nr;
	bool swapped;
};

/*
 * Index the payload after the section's prefix. The bytes must outlive @ss.
 * 0, -EBADMSG on any count or length that does not fit, -ENOMEM.
 */
int stored_syms__parse(struct stored_syms *ss, const void *data, size_t len, bool swapped);
/* The entry recorded for @cookie, or NULL. */
const struct stored_file *stored_syms__find(const struct stored_syms *ss,
					    const struct jrec_cookie *cookie);
/* An elf_image with the entry's symbols and layout (no ELF behind it). 0 or -errno. */
int stored_syms__open(const struct stored_syms *ss, const struct stored_file *f,
		      struct elf_image **out);
void stored_syms__release(struct stored_syms *ss);

#endif
