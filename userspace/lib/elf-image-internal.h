/* SPDX-License-Identifier: GPL-2.0 */
/* elf_image's state, shared by elf-image.c (the file, symbols, layout) and elf-lines.c (DWARF lines and inlines). */
#ifndef JREC_ELF_IMAGE_INTERNAL_H
#define JREC_ELF_IMAGE_INTERNAL_H

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf-image.h"
#include "symtab.h"

#define MAX_LOADS 16

struct load_seg {
	uint64_t offset, filesz, vaddr;
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

#endif
