// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target for perf-map text and the JIT symbol table built from it. */
#include <stddef.h>
#include <stdint.h>

#include "jit-symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_symbols js = { 0 };

	if (!jit_symbols__add_perfmap(&js, 1, size, (const char *)data, size) &&
	    !jit_symbols__finish(&js, NULL))
		jit_symbols__find(&js, 1, 0x1000, size);
	jit_symbols__release(&js);
	return 0;
}
