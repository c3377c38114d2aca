// SPDX-License-Identifier: GPL-2.0
/* unpack: whole-buffer xz and zstd decompression (unpack.h). */
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "unpack.h"

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

enum unpack_kind unpack__kind(const void *in, size_t len)
{
	if (len >= sizeof(xz_magic) && !memcmp(in, xz_magic, sizeof(xz_magic)))
		return UNPACK_XZ;
	if (len >= sizeof(zstd_magic) && !memcmp(in, zstd_magic, sizeof(zstd_magic)))
		return UNPACK_ZSTD;
	return UNPACK_NONE;
}

/* One buffer of @cap bytes at most @max: xz's one-shot decoder, the buffer doubled while too small. */
static int unpack_xz(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen)
{
	size_t cap = len * 4 > 4096 ? len * 4 : 4096;

	for (;; cap *= 2) {
		uint64_t memlimit = 256u << 20;
		size_t inpos = 0, outpos = 0;
		uint8_t *buf;
		lzma_ret ret;

		if (cap > max)
			cap = max;
		buf = malloc(cap ? cap : 1);
		if (!buf)
			return -ENOMEM;
		ret = lzma_stream_buffer_decode(&memlimit, 0, NULL, in, &inpos, len, buf, &outpos,
						cap);
		if (ret == LZMA_OK) {
			*out = buf;
			*outlen = outpos;
			return 0;
		}
		free(buf);
		if (ret == LZMA_MEM_ERROR)
			return -ENOMEM;
		if (ret != LZMA_BUF_ERROR)
			return -EINVAL;
		if (cap >= max)
			return -EFBIG;
	}
}

static int unpack_zstd(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t cap = len * 4 > 4096 ? len * 4 : 4096, got = 0, ret = 1;
	uint8_t *buf = NULL;
	int err = 0;

	if (!dctx)
		return -ENOMEM;
	while (ret) {
		ZSTD_outBuffer ob;

		if (got == cap || !buf) {
			uint8_t *n;

			if (buf)
				cap *= 2;
			if (cap > max)
				cap = max;
			if (buf && got >= cap) {
				err = -EFBIG;
				break;
			}
			n = realloc(buf, cap);
			if (!n) {
				err = -ENOMEM;
				break;
			}
			buf = n;
		}
		ob = (ZSTD_outBuffer){ buf, cap, got };
		ret = ZSTD_decompressStream(dctx, &ob, &ib);
		got = ob.pos;
		if (ZSTD_isError(ret) || (ret && ib.pos == ib.size && ob.pos < ob.size)) {
			err = -EINVAL; /* corrupt, or the input ends inside a frame */
			break;
		}
	}
	ZSTD_freeDCtx(dctx);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*outlen = got;
	return 0;
}

int unpack__all(enum unpack_kind kind, const void *in, size_t len, size_t max, void **out,
		size_t *outlen)
{
	uint8_t *buf = NULL;
	int err;

	*out = NULL;
	*outlen = 0;
	switch (kind) {
	case UNPACK_XZ:
		err = unpack_xz(in, len, max, &buf, outlen);
		break;
	case UNPACK_ZSTD:
		err = unpack_zstd(in, len, max, &buf, outlen);
		break;
	default:
		if (len > max)
			return -EFBIG;
		buf = malloc(len ? len : 1);
		if (!buf)
			return -ENOMEM;
		memcpy(buf, in, len);
		*outlen = len;
		err = 0;
		break;
	}
	if (!err)
		*out = buf;
	return err;
}
