// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_JMMAP decoder (jmmap-reader.c): every
 * file name handed out is "" or a string inside the input.
 */
#include "fuzz-section.h"
#include "jmmap-reader.h"

static int on_record(const struct jm_event *e, void *ctx)
{
	if (!e->filename || (e->filename[0] && !span_holds_str(ctx, e->filename)) ||
	    e->cookie_len > JMMAP_COOKIE_MAX || e->comm[16])
		__builtin_trap();
	return 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	jmmap_reader__walk(in->p, in->len, swapped, on_record, in);
}
