/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz-section-* targets share: the input is one byte that chooses
 * the byte order (bit 0: the other one) and a section's payload; each target
 * defines fuzz_section() over it and checks that everything the decoder
 * hands out lies inside the payload.
 */
#ifndef JREC_FUZZ_SECTION_H
#define JREC_FUZZ_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct span {
	const uint8_t *p;
	size_t len;
};

/* @len bytes at @q lie inside @in. */
static inline bool span_holds(const struct span *in, const void *q, size_t len)
{
	const uint8_t *b = q;

	return b >= in->p && b <= in->p + in->len && len <= (size_t)(in->p + in->len - b);
}

/* A NUL-terminated string at @s lies inside @in. */
static inline bool span_holds_str(const struct span *in, const char *s)
{
	const uint8_t *b = (const uint8_t *)s;

	return span_holds(in, b, 0) && b < in->p + in->len &&
	       memchr(b, 0, (size_t)(in->p + in->len - b));
}

/* Each target's own part: hand the payload to its decoder and check what comes out. */
static void fuzz_section(struct span *in, bool swapped);

/* The driver every fuzz-section-* target shares. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span in = {data + 1, size - 1};

	if (size)
		fuzz_section(&in, data[0] & 1);
	return 0;
}

#endif
