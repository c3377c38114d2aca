// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for jitdump__scan, the recorder's incremental copy: the bytes arrive in
 * chunks whose sizes the input's first byte chooses, as a JIT appending to
 * its dump would deliver them. The committed prefix must only grow, stay
 * within the bytes seen, and equal what one scan of everything commits.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t chunk, seen = 0, committed = 0, prev = 0, once = 0;
	int err = 0, err_once;

	if (!size)
		return 0;
	chunk = (size_t)data[0] % 61 + 1;
	data++;
	size--;
	while (seen < size && !err) {
		seen += chunk < size - seen ? chunk : size - seen;
		err = jitdump__scan(data, seen, &committed);
		if (committed < prev || committed > seen)
			__builtin_trap();
		prev = committed;
	}
	err_once = jitdump__scan(data, size, &once);
	if (!err && !err_once && once != committed)
		__builtin_trap();
	return 0;
}
