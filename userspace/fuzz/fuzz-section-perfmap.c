// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_PERFMAP decoder (jrec-sections.c), and
 * the perf-map line parser over each line it hands out: every line, and
 * every name in it, lies inside the input.
 */
#include "fuzz-section.h"
#include "jrec-sections.h"
#include "perfmap.h"

static int on_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	uint64_t start, len;
	const char *name;
	size_t name_len;

	if (!span_holds(ctx, l->line, l->len))
		__builtin_trap();
	if (!perfmap__parse_line(l->line, l->len, &start, &len, &name, &name_len) &&
	    (name < l->line || name + name_len > l->line + l->len))
		__builtin_trap();
	return 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	jrec_perfmaps__walk(in->p, in->len, swapped, on_line, in);
}
