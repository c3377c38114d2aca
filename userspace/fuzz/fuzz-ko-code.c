// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for a kernel module's object file as jrec annotate reads
 * it: the input decompressed as its first bytes say (xz, zstd, or as it is;
 * unpack__all) and function "f" read out of it with its relocations
 * (ko_code__read), at an address near the top of the address space so that
 * relocation arithmetic wraps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ko-code.h"
#include "unpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int resolve(void *ctx, const char *name, uint64_t *addr)
{
	*addr = 0xffffffff81000000ull + strlen(name);
	return name[0] == 'g' ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ko_code c;
	void *img;
	size_t len, i;

	if (unpack__all(unpack__kind(data, size), data, size, 1u << 20, &img, &len))
		return 0;
	if (!ko_code__read(img, len, "f", 0xffffffffc0001000ull, 4096, resolve, NULL, &c)) {
		/* what the reader promises: relocations inside the bytes, in order, named */
		for (i = 0; i < c.nr_relocs; i++)
			if (c.relocs[i].off >= c.len || !c.relocs[i].sym ||
			    (i && c.relocs[i].off < c.relocs[i - 1].off))
				__builtin_trap();
		if (c.nr_unapplied > c.nr_relocs)
			__builtin_trap();
	}
	ko_code__release(&c);
	free(img);
	return 0;
}
