// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_ARCHIVE decoder (archive-syms.c): index
 * the section, check that every path lies inside it, then open every entry
 * as a symbol table with its source lines and look an address up.
 */
#include <stdlib.h>

#include "archive-syms.h"
#include "elf-image.h"
#include "fuzz-section.h"
#include "symtab.h"

static void fuzz_section(struct span *in, bool swapped)
{
	struct archive_syms as;
	struct elf_image *img;
	char line[256];
	size_t i;

	if (archive_syms__parse(&as, in->p, in->len, swapped))
		return;
	for (i = 0; i < as.nr; i++) {
		const struct archive_file *f = &as.files[i];

		if (!span_holds_str(in, f->path))
			abort();
		if (archive_syms__open(&as, f, &img))
			continue;
		symtab__find(elf_image__symtab(img), in->len);
		elf_image__srcline(img, in->len, line, sizeof(line));
		elf_image__offset_to_vaddr(img, in->len);
		elf_image__close(img);
	}
	if (as.nr)
		archive_syms__find(&as, as.files[0].path, &as.files[as.nr - 1].cookie);
	archive_syms__release(&as);
}
