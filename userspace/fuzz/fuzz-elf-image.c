// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for an ELF file opened for symbolization (elf_image over
 * the input's bytes, through libelf): its code table, and the data table of
 * all its symbols by file offset (elf-syms.c), each looked up over its
 * range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf-image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lookups(const struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct sym *s = symtab__find(t, t->syms[i].start);

		/* what the table promises: sorted, and a start finds a symbol there */
		if (!s || (i && t->syms[i - 1].start > t->syms[i].start))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_image *img;
	void *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	/* the image owns the copy from here, also when it fails */
	if (elf_image__open_mem(copy, size, &img))
		return 0;
	lookups(elf_image__symtab(img));
	lookups(elf_image__data_symtab(img));
	elf_image__offset_to_vaddr(img, size);
	elf_image__close(img);
	return 0;
}
