// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_FILES decoder (jrec-sections.c). The
 * first byte chooses the byte order; every path handed out must be a string
 * inside the input, every cookie at most JMMAP_COOKIE_MAX bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jrec-sections.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct span {
	const uint8_t *p;
	size_t len;
};

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	const struct span *in = ctx;
	const uint8_t *path = (const uint8_t *)f->path;

	if (path < in->p || path >= in->p + in->len ||
	    !memchr(path, 0, (size_t)(in->p + in->len - path)) || f->cookie.len > JMMAP_COOKIE_MAX)
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span in = {data + 1, size - 1};

	if (!size)
		return 0;
	jrec_files__walk(in.p, in.len, data[0] & 1, on_file, &in);
	return 0;
}
