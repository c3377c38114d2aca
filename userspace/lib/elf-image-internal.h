/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_image's state, shared by elf-image.c (the file, symbols, layout),
 * elf-lines.c (DWARF lines and inlines) and elf-syms.c (reading a symbol
 * section, and the table of all symbols that names data addresses).
 */
#ifndef JREC_ELF_IMAGE_INTERNAL_H
#define JREC_ELF_IMAGE_INTERNAL_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf-image.h"
#include "symtab.h"

#define MAX_LOADS 16

struct load_seg {
	uint64_t offset, filesz, vaddr;
	uint64_t memsz; /* filesz where only the triples are known (elf_image__set_layout()) */
};

struct elf_image {
	int fd;
	Elf *elf;
	Elf *mini;       /* MiniDebugInfo, decompressed */
	void *mini_buf;
	void *mem; /* the image itself, for elf_image__open_mem() */
	size_t mem_len;
	Dwarf *dw;
	bool dw_tried;
	bool full_symtab;
	struct symtab syms;
	/* elf_image__data_symtab(): functions and objects by file offset, made when first asked */
	struct symtab data_syms;
	bool data_tried;
	struct load_seg loads[MAX_LOADS];
	unsigned int nr_loads;
	uint8_t build_id[20];
	size_t build_id_len;
	struct elf_line *lines; /* stored source lines, when there is no DWARF */
	size_t nr_lines;
	struct elf_inline *inl; /* stored inline scopes, when there is no DWARF */
	size_t nr_inl;
	const char **inl_names;
	char *plt_names; /* the PLT entries' names, when taken from the binary of a debug file */
};

/* @elf's section named @want (its header into @out), or NULL. */
Elf_Scn *elf_scn__by_name(Elf *elf, const char *want, GElf_Shdr *out);
/* @elf's first section of type @type (its header into @out), or NULL. */
Elf_Scn *elf_scn__by_type(Elf *elf, Elf64_Word type, GElf_Shdr *out);
/*
 * The symbols of symbol section @scn (@sh) of @elf into @t, as perf takes
 * them: functions, and untyped labels in code sections. With @data, the
 * image whose PT_LOAD segments place them, objects too and the labels of
 * data sections (those whose name says text or data), each at its file
 * offset (perf's dso__load_sym(): a symbol no segment holds is left out).
 * 0 or -ENOMEM.
 */
int elf_syms__add(struct symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		  const struct elf_image *data);

#endif
