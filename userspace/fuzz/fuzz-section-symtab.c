// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_SYMTAB decoder (stored-syms.c): index
 * the section, then open every entry as a symbol table.
 */
#include "elf-image.h"
#include "fuzz-section.h"
#include "stored-syms.h"
#include "symtab.h"

static void fuzz_section(struct span *in, bool swapped)
{
	struct stored_syms ss;
	struct elf_image *img;
	size_t i;

	if (stored_syms__parse(&ss, in->p, in->len, swapped))
		return;
	for (i = 0; i < ss.nr; i++) {
		if (stored_syms__open(&ss, &ss.files[i], &img))
			continue;
		symtab__find(elf_image__symtab(img), in->len);
		elf_image__offset_to_vaddr(img, in->len);
		elf_image__close(img);
	}
	if (ss.nr)
		stored_syms__find(&ss, &ss.files[ss.nr - 1].cookie);
	stored_syms__release(&ss);
}
