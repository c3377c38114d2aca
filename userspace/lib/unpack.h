/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unpack: whole-buffer decompression of the compressed files jrec reads
 * (xz: MiniDebugInfo and Debian's .ko.xz modules; zstd: .ko.zst), bytes in,
 * a malloc'd buffer out, never more than a caller's limit.
 */
#ifndef JREC_UNPACK_H
#define JREC_UNPACK_H

#include <stddef.h>

enum unpack_kind { UNPACK_NONE, UNPACK_XZ, UNPACK_ZSTD };

/* What @in (@len bytes) starts with: an xz stream, a zstd frame, or neither. */
enum unpack_kind unpack__kind(const void *in, size_t len);
/*
 * Decompress @in (@len bytes) of @kind into a malloc'd *@out of *@outlen
 * bytes, at most @max. 0; -EINVAL (corrupt, or not of @kind), -EFBIG (more
 * than @max), -ENOMEM. UNPACK_NONE copies.
 */
int unpack__all(enum unpack_kind kind, const void *in, size_t len, size_t max, void **out,
		size_t *outlen);

#endif
