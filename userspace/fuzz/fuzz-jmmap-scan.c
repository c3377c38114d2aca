// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the recorder's framing of the jmmap record stream
 * (what read() on /dev/jmmap returns): whole records only, sizes checked
 * against the bytes there.
 */
#include <stdint.h>
#include <string.h>

#include "jmmap-reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t by_type[JMMAP_REC_MAX] = { 0 }, lost = 0;
	long whole = jmmap_reader__scan(data, size, by_type, &lost);

	if (whole > (long)size || (whole >= 0 && whole % 8))
		__builtin_trap();
	return 0;
}
