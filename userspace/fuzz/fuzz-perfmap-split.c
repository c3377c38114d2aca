// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf-map line splitter: the same bytes fed in one
 * piece and in chunks chosen by the first input byte must give the same
 * lines, none empty, none longer than PERFMAP_LINE_MAX, none with a newline.
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "jrec-sections.h"
#include "perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int collect(const char *line, size_t len, void *ctx)
{
	struct buf *b = ctx;
	struct jrec_perfmap_rec l = {1, 2, line, len};

	if (!len || len > PERFMAP_LINE_MAX || memchr(line, '\n', len))
		__builtin_trap();
	if (jrec_perfmaps__emit(b, &l))
		return -1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap_split a = {BUF_INIT, 0, 0}, c = {BUF_INIT, 0, 0};
	struct buf la = BUF_INIT, lc = BUF_INIT;
	size_t chunk, off;

	if (!size)
		return 0;
	chunk = (size_t)data[0] % 37 + 1;
	data++;
	size--;
	perfmap_split__feed(&a, (const char *)data, size, collect, &la);
	for (off = 0; off < size; off += chunk)
		perfmap_split__feed(&c, (const char *)data + off,
				    chunk < size - off ? chunk : size - off, collect, &lc);
	if (la.len != lc.len || (la.len && memcmp(la.data, lc.data, la.len)) ||
	    a.dropped != c.dropped)
		__builtin_trap();
	buf__release(&la);
	buf__release(&lc);
	perfmap_split__release(&a);
	perfmap_split__release(&c);
	return 0;
}
