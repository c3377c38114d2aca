// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_FILES decoder (jrec-sections.c): every
 * path handed out is a string inside the input, every cookie at most
 * JMMAP_COOKIE_MAX bytes.
 */
#include "fuzz-section.h"
#include "jrec-sections.h"

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	if (!span_holds_str(ctx, f->path) || f->cookie.len > JMMAP_COOKIE_MAX)
		__builtin_trap();
	return 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	jrec_files__walk(in->p, in->len, swapped, on_file, in);
}
