/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko-code: one function's machine code out of a kernel module's relocatable
 * object (a .ko, decompressed), placed at the address the function ran at.
 * A .ko's code carries its relocations unapplied: a relocation is applied
 * when its symbol's address is known (a symbol of the function's own
 * section, placed relative to the function, or one @resolve names), and each
 * one left is listed, so that the instructions it touches can be marked.
 */
#ifndef JREC_KO_CODE_H
#define JREC_KO_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A module file of more than this, decompressed, is refused. */
#define KO_CODE_MAX_FILE (512u << 20)

struct ko_reloc {
	uint32_t off;  /* of the relocated field, from the function's start */
	uint32_t type; /* R_* of the object's machine */
	int64_t addend;
	const char *sym; /* its symbol's name (the section's for a section symbol); in ko_code */
	bool applied;
};

struct ko_code {
	uint16_t machine; /* EM_* */
	uint8_t *bytes;	  /* the function's code, malloc'd */
	size_t len;
	struct ko_reloc *relocs; /* those inside the function, by offset */
	size_t nr_relocs, nr_unapplied;
	char *names; /* where the relocs' names live */
};

/* The address of kernel symbol @name, into *@addr: 0, or -ENOENT when unknown. */
typedef int (*ko_resolve_fn)(void *ctx, const char *name, uint64_t *addr);

/*
 * Function @name of the relocatable ELF object @img (@len bytes, 64-bit,
 * either byte order), which ran at @addr: its st_size bytes (at most @max;
 * @max when the symbol has no size), with the relocations applied that can
 * be. 0; -ENOEXEC (not a 64-bit relocatable ELF object), -ENOENT (no
 * defined function @name with bytes in the file), -EINVAL (corrupt),
 * -ENOMEM.
 */
int ko_code__read(const void *img, size_t len, const char *name, uint64_t addr, size_t max,
		  ko_resolve_fn resolve, void *ctx, struct ko_code *out);
void ko_code__release(struct ko_code *c);

/*
 * Whether file name @base (no directory: "nf_tables.ko", "snd-hda-intel.ko.xz",
 * "jmmap.ko.zst") is the file of module @mod ("nf_tables", "snd_hda_intel"):
 * the kernel names a module with '_' where its file may have '-'.
 */
bool ko_code__file_is(const char *base, const char *mod);

#endif
