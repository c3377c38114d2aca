// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the recorder's framing of the jmmap record stream
 * (what read() on /dev/jmmap returns): whole records only, sizes checked
 * against the bytes there, and every MMAP3 handed on in place with a
 * filename that ends inside its record; and the copy out of a mapped ring
 * (the input as the ring, its first 16 bytes the reader's tail and the
 * module's head), which gives whole records or nothing; and the input as
 * an answer of GET_STATS, in either layout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jmmap-reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	const uint8_t *buf;
	size_t len;
	uint64_t nr;
};

static int on_mmap3(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx)
{
	struct seen *s = ctx;
	const uint8_t *r = (const uint8_t *)m;
	size_t name_len = strlen(name);

	if (r < s->buf || r + m->hdr.size > s->buf + s->len || m->hdr.type != JMMAP_REC_MMAP3 ||
	    m->hdr.size < sizeof(*m) || m->cookie_len > JMMAP_COOKIE_MAX)
		__builtin_trap();
	if (name_len && (name != m->filename || r + sizeof(*m) + name_len >= r + m->hdr.size))
		__builtin_trap();
	s->nr++;
	return 0;
}

static void copy_ring(const uint8_t *data, size_t size)
{
	uint64_t tail, head, ring = 8, by_type[JMMAP_REC_MAX] = { 0 }, lost = 0;
	uint8_t *out;
	long n;

	if (size < 16 + 8)
		return;
	memcpy(&tail, data, 8);
	memcpy(&head, data + 8, 8);
	while (ring * 2 <= size - 16)
		ring *= 2;
	/* a head at most two rings past the tail: the copy must say no to the rest */
	head = tail + head % (2 * ring + 1);
	out = malloc(head - tail ? head - tail : 1);
	if (!out)
		return;
	n = jmmap_reader__copy_ring(data + 16, ring, tail, head, out);
	if (n >= 0 && ((uint64_t)n != head - tail || head - tail > ring ||
		       jmmap_reader__scan(out, (size_t)n, by_type, &lost, NULL) != n))
		__builtin_trap();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t by_type[JMMAP_REC_MAX] = { 0 }, again[JMMAP_REC_MAX] = { 0 }, lost = 0;
	long whole = jmmap_reader__scan(data, size, by_type, &lost, NULL);
	struct seen s = { NULL, size, 0 };
	uint64_t others = 0, known_others = 0;
	struct jm_scan_mmap3 each = { on_mmap3, &s, 0, &others };
	uint8_t *aligned;

	if (whole > (long)size || (whole >= 0 && whole % 8))
		__builtin_trap();
	/* in place, as the recorder reads its buffer: 8-byte aligned */
	aligned = malloc(size ? size : 1);
	if (!aligned)
		return 0;
	memcpy(aligned, data, size);
	s.buf = aligned;
	lost = 0;
	if (jmmap_reader__scan(aligned, size, again, &lost, &each) != whole || each.err ||
	    s.nr > again[JMMAP_REC_MMAP3] || memcmp(by_type, again, sizeof(again)))
		__builtin_trap();
	/* every record of a known type but MMAP3 and MUNMAP is among the others */
	for (int t = 0; t < JMMAP_REC_MAX; t++)
		if (t != JMMAP_REC_MMAP3 && t != JMMAP_REC_MUNMAP)
			known_others += again[t];
	if (others < known_others)
		__builtin_trap();
	free(aligned);
	copy_ring(data, size);
	/* the same bytes as an answer of GET_STATS, in either layout */
	{
		uint64_t emitted[JMMAP_REC_SLOTS], st_lost[JMMAP_REC_SLOTS];

		jmmap_reader__stats(data, size, emitted, st_lost);
	}
	return 0;
}
