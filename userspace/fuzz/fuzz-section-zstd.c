// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for a compressed private section (JREC_FEAT_ZSTD,
 * jrec-sections.c): the input is a whole section after the byte-order byte.
 * What decompresses is the plain section of the same id, never longer than
 * its raw_len says, and its payload is handed on as the readers get it.
 */
#include "fuzz-section.h"
#include "jrec-sections.h"
#include "perf-file.h"

static int on_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	(void)ctx;
	return l->len > 4096 ? 1 : 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	struct buf out = BUF_INIT;
	const void *p;
	size_t len;
	int ret = jrec_section__decompress(in->p, in->len, swapped, JREC_FEAT_PERFMAP, &out);

	if (ret < 0 && out.data)
		__builtin_trap(); /* a failure leaves nothing behind */
	if (ret == 1) {
		if (jrec_section__payload(out.data, out.len, swapped, JREC_FEAT_PERFMAP, &p, &len))
			__builtin_trap(); /* the plain form is a section of the same id */
		jrec_perfmaps__walk(p, len, swapped, on_line, NULL);
	}
	buf__release(&out);
}
