/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loads of unaligned fixed-width fields from bytes read off a file, in the
 * file's byte order: @swap says it is the other one than the host's.
 */
#ifndef JREC_BYTEORDER_H
#define JREC_BYTEORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t bo_u16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t bo_u32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t bo_u64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

#endif /* JREC_BYTEORDER_H */
