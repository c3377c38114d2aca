// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_JMMAP decoder (jmmap-reader.c). The
 * first byte chooses the byte order; every file name handed out must be a
 * string inside the input or "".
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jmmap-reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct span {
	const uint8_t *p;
	size_t len;
};

static int on_record(const struct jm_event *e, void *ctx)
{
	const struct span *in = ctx;
	const uint8_t *f = (const uint8_t *)e->filename;

	if (!f ||
	    (*f &&
	     (f < in->p || f >= in->p + in->len || !memchr(f, 0, (size_t)(in->p + in->len - f)))) ||
	    e->cookie_len > JMMAP_COOKIE_MAX || e->comm[16])
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span in = {data + 1, size - 1};

	if (!size)
		return 0;
	jmmap_reader__walk(in.p, in.len, data[0] & 1, on_record, &in);
	return 0;
}
