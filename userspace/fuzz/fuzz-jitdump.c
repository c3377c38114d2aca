// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target for the jitdump parser and the JIT symbol table built from it. */
#include <stddef.h>
#include <stdint.h>

#include "jit-symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_symbols js = { 0 };
	const struct jit_sym *s;
	char line[128];
	bool trunc;

	if (!jit_symbols__add_jitdump(&js, 1, data, size, &trunc) && !jit_symbols__finish(&js, NULL)) {
		s = jit_symbols__find(&js, 1, size > 8 ? *(const uint64_t *)(const void *)data : 0,
				      UINT64_MAX - 1);
		if (s)
			jit_symbols__srcline(&js, s, s->start, line, sizeof(line));
	}
	jit_symbols__release(&js);
	return 0;
}
