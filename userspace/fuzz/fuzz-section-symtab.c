// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_SYMTAB decoder (stored-syms.c): index
 * the section, then open every entry as a symbol table. The first byte
 * chooses the byte order.
 */
#include <stddef.h>
#include <stdint.h>

#include "elf-image.h"
#include "stored-syms.h"
#include "symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stored_syms ss;
	struct elf_image *img;
	size_t i;

	if (!size || stored_syms__parse(&ss, data + 1, size - 1, data[0] & 1))
		return 0;
	for (i = 0; i < ss.nr; i++) {
		if (stored_syms__open(&ss, &ss.files[i], &img))
			continue;
		symtab__find(elf_image__symtab(img), size);
		elf_image__offset_to_vaddr(img, size);
		elf_image__close(img);
	}
	if (ss.nr)
		stored_syms__find(&ss, &ss.files[ss.nr - 1].cookie);
	stored_syms__release(&ss);
	return 0;
}
