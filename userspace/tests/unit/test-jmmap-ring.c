// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap_reader__copy_ring(), the copy out of the module's mapped ring: a
 * record that wraps at the ring's end comes out whole, after the one before
 * it; positions and headers the module never writes (a tail not at a record
 * boundary, a head past the ring, a record longer than what is queued) are
 * -EINVAL with nothing promised copied.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jmmap-reader.h"
#include "tap.h"

#define RING 128

/* @rec (@len bytes) into @ring at byte position @pos, wrapping. */
static void put(uint8_t *ring, uint64_t pos, const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring[(pos + i) % RING] = ((const uint8_t *)rec)[i];
}

static void munmap_rec(struct jmmap_rec_munmap *m, uint64_t start)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = JMMAP_REC_MUNMAP;
	m->hdr.size = sizeof(*m);
	m->pid = m->tid = 42;
	m->time = start / 4096;
	m->start = start;
	m->len = 4096;
	m->cause = JMMAP_UNMAP_MUNMAP;
}

int main(void)
{
	uint8_t ring[RING], out[2 * RING];
	struct jmmap_rec_munmap a, b;
	uint64_t by_type[JMMAP_REC_MAX] = {0}, lost = 0;
	/* five laps in; the first record ends 24 bytes before the ring does, so the second wraps */
	uint64_t tail = 5 * RING + RING - 24 - sizeof(struct jmmap_rec_munmap), head;
	long n;

	memset(ring, 0xee, sizeof(ring));
	munmap_rec(&a, 0x10000);
	munmap_rec(&b, 0x20000);
	put(ring, tail, &a, sizeof(a));
	put(ring, tail + sizeof(a), &b, sizeof(b));
	head = tail + sizeof(a) + sizeof(b);
	if ((tail + sizeof(a)) % RING + sizeof(b) <= RING)
		check(0, "the test's second record wraps");

	n = jmmap_reader__copy_ring(ring, RING, tail, head, out);
	check(n == (long)(head - tail) && !memcmp(out, &a, sizeof(a)) &&
		      !memcmp(out + sizeof(a), &b, sizeof(b)),
	      "two records, the second wrapping at the ring's end, come out whole and in order");
	check(jmmap_reader__scan(out, (size_t)n > 0 ? (size_t)n : 0, by_type, &lost, NULL) == n &&
		      by_type[JMMAP_REC_MUNMAP] == 2,
	      "what it copies frames as two MUNMAP records");
	check(jmmap_reader__copy_ring(ring, RING, head, head, out) == 0,
	      "nothing queued: nothing copied");
	check(jmmap_reader__copy_ring(ring, RING, tail + 4, head, out) == -EINVAL,
	      "a tail that is not a multiple of 8: EINVAL");
	check(jmmap_reader__copy_ring(ring, RING, tail, tail + RING + 8, out) == -EINVAL,
	      "a head more than a ring past the tail: EINVAL");
	check(jmmap_reader__copy_ring(ring, RING, tail, head - 8, out) == -EINVAL,
	      "a record longer than what is queued: EINVAL");
	check(jmmap_reader__copy_ring(ring, RING - 8, tail, head, out) == -EINVAL,
	      "a ring whose size is not a power of two: EINVAL");
	a.hdr.size = 4;
	put(ring, tail, &a, sizeof(a));
	check(jmmap_reader__copy_ring(ring, RING, tail, head, out) == -EINVAL,
	      "a header smaller than itself: EINVAL");
	return tap_done();
}
