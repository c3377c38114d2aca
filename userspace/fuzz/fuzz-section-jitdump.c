// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_JITDUMP decoder (jrec-sections.c), and
 * the jitdump parser over each copy it hands out: every copy lies inside
 * the input.
 */
#include "fuzz-section.h"
#include "jitdump.h"
#include "jrec-sections.h"

static int on_record(const struct jitdump_event *ev, void *ctx)
{
	return 0;
}

static int on_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	struct jitdump_info info;

	if (!span_holds(ctx, j->data, j->len) || (j->path && !span_holds_str(ctx, j->path)))
		__builtin_trap();
	jitdump__parse(j->data, j->len, on_record, NULL, &info);
	return 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	jrec_jitdumps__walk(in->p, in->len, swapped, on_jitdump, in);
}
