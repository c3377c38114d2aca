// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_JITDUMP decoder (jrec-sections.c), and
 * the jitdump parser over each copy it hands out. The first byte chooses
 * the byte order; every copy must lie inside the input.
 */
#include <stddef.h>
#include <stdint.h>

#include "jitdump.h"
#include "jrec-sections.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct span {
	const uint8_t *p;
	size_t len;
};

static int on_record(const struct jitdump_event *ev, void *ctx)
{
	return 0;
}

static int on_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	const struct span *in = ctx;
	struct jitdump_info info;

	if (j->data < in->p || j->len > (uint64_t)(in->p + in->len - j->data))
		__builtin_trap();
	jitdump__parse(j->data, j->len, on_record, NULL, &info);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span in = {data + 1, size - 1};

	if (!size)
		return 0;
	jrec_jitdumps__walk(in.p, in.len, data[0] & 1, on_jitdump, &in);
	return 0;
}
