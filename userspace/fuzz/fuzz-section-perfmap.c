// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_PERFMAP decoder (jrec-sections.c), and
 * the perf-map line parser over each line it hands out. The first byte
 * chooses the byte order; every line must lie inside the input.
 */
#include <stddef.h>
#include <stdint.h>

#include "jrec-sections.h"
#include "perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct span {
	const uint8_t *p;
	size_t len;
};

static int on_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	const struct span *in = ctx;
	const uint8_t *line = (const uint8_t *)l->line;
	uint64_t start, len;
	const char *name;
	size_t name_len;

	if (line < in->p || l->len > (size_t)(in->p + in->len - line))
		__builtin_trap();
	if (!perfmap__parse_line(l->line, l->len, &start, &len, &name, &name_len) &&
	    (name < l->line || name + name_len > l->line + l->len))
		__builtin_trap();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span in = {data + 1, size - 1};

	if (!size)
		return 0;
	jrec_perfmaps__walk(in.p, in.len, data[0] & 1, on_line, &in);
	return 0;
}
