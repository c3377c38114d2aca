// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the JREC_FEAT_CODE / JREC_FEAT_ARCHIVE_CODE decoder
 * (code-bytes.c): every entry's bytes lie inside the input and keep to the
 * format's limits; the lookup table built from the same payload answers
 * for each entry it took.
 */
#include "code-bytes.h"
#include "fuzz-section.h"
#include "jmmap.h"

static int on_code(const struct code_rec *c, void *ctx)
{
	if (!span_holds(ctx, c->bytes, c->len) || c->len > JREC_CODE_MAX ||
	    c->cookie.len > JMMAP_COOKIE_MAX)
		__builtin_trap();
	return 0;
}

static void fuzz_section(struct span *in, bool swapped)
{
	struct code_table t = { 0 };
	size_t i;

	code_bytes__walk(in->p, in->len, swapped, on_code, in);
	code_table__add(&t, in->p, in->len, swapped);
	code_table__kernel(&t, 0); /* sorts the table: recs[] stay put from here */
	for (i = 0; i < t.nr; i++) {
		const struct code_rec *c = &t.recs[i], *f;

		if (c->kind == JREC_CODE_PROCESS)
			f = code_table__process(&t, c->pid, c->addr, c->time);
		else if (c->kind == JREC_CODE_FILE)
			f = code_table__file(&t, &c->cookie, c->addr);
		else
			f = code_table__kernel(&t, c->addr);
		if (!f || f->addr != c->addr)
			__builtin_trap();
	}
	code_table__release(&t);
}
