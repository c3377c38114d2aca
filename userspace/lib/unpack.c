// SPDX-License-Identifier: GPL-2.0
/* unpack: whole-buffer xz and zstd decompression (unpack.h). */
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "unpack.h"

static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

enum unpack_kind unpack__kind(const void *in, size_t len)
{
	if (len >= sizeof(xz_magic) && !memcmp(in, xz_magic, sizeof(xz_magic)))
		return UNPACK_XZ;
	if (len >= sizeof(zstd_magic) && !memcmp(in, zstd_magic, sizeof(zstd_magic)))
		return UNPACK_ZSTD;
	return UNPACK_NONE;
}

/* An output buffer of @*cap bytes at least @need, grown by doubling up to @max. */
static int grow(uint8_t **buf, size_t *cap, size_t need, size_t max)
{
	size_t n = *buf ? *cap : need;
	uint8_t *p;

	while (n < need)
		n *= 2;
	if (*buf && n == *cap)
		n *= 2;
	if (n > max)
		n = max;
	if (*buf && n <= *cap)
		return -EFBIG;
	p = realloc(*buf, n ? n : 1);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

static int unpack_xz(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen)
{
	lzma_stream z = LZMA_STREAM_INIT;
	size_t cap = 0;
	uint8_t *buf = NULL;
	lzma_ret ret;
	int err = 0;

	if (lzma_stream_decoder(&z, 256u << 20, 0) != LZMA_OK)
		return -ENOMEM;
	z.next_in = in;
	z.avail_in = len;
	do {
		if (!z.avail_out) {
			size_t got = z.total_out;

			err = grow(&buf, &cap, len * 4 > 4096 ? len * 4 : 4096, max);
			if (err)
				break;
			z.next_out = buf + got;
			z.avail_out = cap - got;
		}
		ret = lzma_code(&z, LZMA_FINISH);
		if (ret == LZMA_MEM_ERROR || ret == LZMA_MEMLIMIT_ERROR) {
			err = -ENOMEM;
		} else if (ret != LZMA_OK && ret != LZMA_STREAM_END &&
			   !(ret == LZMA_BUF_ERROR && !z.avail_out)) {
			err = -EINVAL; /* corrupt, or the input ends inside the stream */
		}
	} while (!err && ret != LZMA_STREAM_END);
	*outlen = (size_t)z.total_out;
	lzma_end(&z);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

static int unpack_zstd(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer ib = {in, len, 0};
	size_t cap = 0, got = 0, ret = 1;
	uint8_t *buf = NULL;
	int err = 0;

	if (!dctx)
		return -ENOMEM;
	while (ret) {
		ZSTD_outBuffer ob;

		if (got == cap) {
			err = grow(&buf, &cap, len * 4 > 4096 ? len * 4 : 4096, max);
			if (err)
				break;
		}
		ob = (ZSTD_outBuffer){buf, cap, got};
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
