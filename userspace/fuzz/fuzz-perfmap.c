// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perf-map text and the JIT symbol table built from it:
 * the input twice, as an early and a late map, over a mapping made between
 * them, so that late lines are dated back (jit_symbols__finish with mappings).
 */
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "jit-symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_symbols js = { 0 };
	struct addrspace as = { 0 };
	struct as_map m = { .start = 0x1000, .end = 0x7fffffffffff, .prot = 7 };

	if (!jit_symbols__add_perfmap(&js, 1, 10, (const char *)data, size) &&
	    !addrspace__add_map(&as, 1, 20, &m, false, false) &&
	    !jit_symbols__add_perfmap(&js, 1, 30 + size, (const char *)data, size) &&
	    !addrspace__finish(&as) && !jit_symbols__finish(&js, &as)) {
		jit_symbols__find(&js, 1, 0x1000, 15);
		jit_symbols__find(&js, 1, 0x1000, 25);
		jit_symbols__find(&js, 1, 0x1000, 40 + size);
	}
	jit_symbols__release(&js);
	addrspace__release(&as);
	return 0;
}
