// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap_reader__copy_ring(), the copy out of the module's mapped ring: a
 * record that wraps at the ring's end comes out whole, after the one before
 * it; positions and headers the module never writes (a tail not at a record
 * boundary, a head past the ring, a record longer than what is queued) are
 * -EINVAL with nothing promised copied. And the recorder's read of a
 * mapped ring (jmmap_client__read()): one walk frames and counts the copy,
 * each MMAP3 goes to its callback, and a copy that ends inside a record is
 * -EINVAL with the whole records before it kept.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "jmmap-reader.h"
#include "record/jmmap-client.h"
#include "tap.h"

#define RING 128

/* @rec (@len bytes) into the @size-byte @ring at byte position @pos, wrapping. */
static void put_in(uint8_t *ring, uint64_t size, uint64_t pos, const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring[(pos + i) % size] = ((const uint8_t *)rec)[i];
}

static void put(uint8_t *ring, uint64_t pos, const void *rec, size_t len)
{
	put_in(ring, RING, pos, rec, len);
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

/* An MMAP3 of anonymous code at 0x30000, its name padded as the module pads it. */
struct anon_code {
	struct jmmap_rec_mmap3 m;
	char name[8];
};

static void anon_code(struct anon_code *code)
{
	memset(code, 0, sizeof(*code));
	code->m.hdr.type = JMMAP_REC_MMAP3;
	code->m.hdr.size = sizeof(*code);
	code->m.start = 0x30000;
	code->m.prot = 5;
	memcpy(code->name, "//anon", 7);
}

static int count_mmap3(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx)
{
	/* the name as the module pads it */
	if (m->start == 0x30000 && !strcmp(name, "//anon"))
		++*(int *)ctx;
	else
		*(int *)ctx = -1000;
	return 0;
}

#define CLIENT_RING 256

/* Two MUNMAPs and an MMAP3 through a mapped ring, as the recorder reads it. */
static void client_read(void)
{
	struct {
		struct jmmap_ring_page page;
		uint8_t data[CLIENT_RING];
	} r __attribute__((aligned(8)));
	struct anon_code code;
	struct jmmap_rec_munmap a, b;
	struct jmmap_client s;
	int seen = 0;
	struct jm_scan_mmap3 each = {count_mmap3, &seen, 0, NULL};
	uint64_t pos = 3 * CLIENT_RING - 8; /* the MMAP3 wraps */
	int err;

	memset(&r, 0, sizeof(r));
	memset(&s, 0, sizeof(s));
	r.page.data_offset = offsetof(__typeof__(r), data);
	r.page.data_size = CLIENT_RING;
	s.fd = -1;
	s.spool_fd = -1;
	s.ring = &r.page;
	s.ring_size = CLIENT_RING;
	s.ring_tail = pos;
	if (buf__reserve(&s.records, 4 * CLIENT_RING)) {
		check(0, "memory for the records");
		return;
	}
	munmap_rec(&a, 0x10000);
	munmap_rec(&b, 0x20000);
	anon_code(&code);
	put_in(r.data, CLIENT_RING, pos, &code, sizeof(code));
	put_in(r.data, CLIENT_RING, pos + sizeof(code), &a, sizeof(a));
	r.page.data_head = pos + sizeof(code) + sizeof(a);
	err = jmmap_client__read(&s, &each);
	check(!err && seen == 1 && s.nr_records == 2 && s.nr_by_type[JMMAP_REC_MMAP3] == 1 &&
		      s.nr_by_type[JMMAP_REC_MUNMAP] == 1 && s.records.len == sizeof(code) + sizeof(a) &&
		      !memcmp(s.records.data, &code, sizeof(code)) && r.page.data_tail == r.page.data_head,
	      "the recorder's read: an MMAP3 that wraps and a MUNMAP, framed, counted, kept, the "
	      "MMAP3 given to its callback once, the tail moved to the head");
	/* b's header says it is whole; the module moved data_head to its middle */
	pos = r.page.data_head;
	put_in(r.data, CLIENT_RING, pos, &b, sizeof(b));
	put_in(r.data, CLIENT_RING, pos + sizeof(b), &a, sizeof(a));
	r.page.data_head = pos + sizeof(b) + sizeof(a) - 8;
	err = jmmap_client__read(&s, &each);
	check(err == -EINVAL && s.nr_by_type[JMMAP_REC_MUNMAP] == 2 &&
		      s.records.len == sizeof(code) + sizeof(a) + sizeof(b) && !s.partial,
	      "a copy that ends inside a record: EINVAL, the whole record before it kept and counted");
	buf__release(&s.records);
}

/*
 * What the scan counts in each->others: every record but MMAP3 and MUNMAP,
 * of a type it knows or not (what the recorder takes for a change of perf's
 * maps, synth.c).
 */
static void scan_others(void)
{
	struct anon_code code;
	struct jmmap_rec_munmap un;
	struct jmmap_rec_fork fork;
	struct jmmap_rec_exit unknown;
	uint64_t recs[64], by_type[JMMAP_REC_MAX] = {0}, lost = 0, others = 0;
	int seen = 0;
	struct jm_scan_mmap3 each = {count_mmap3, &seen, 0, &others};
	/* MMAP3, MUNMAP, FORK, MMAP3, a type from a later module, MUNMAP */
	const void *order[] = {&code, &un, &fork, &code, &unknown, &un};
	size_t len = 0;
	long n;

	anon_code(&code);
	munmap_rec(&un, 0x30000);
	memset(&fork, 0, sizeof(fork));
	fork.hdr.type = JMMAP_REC_FORK;
	fork.hdr.size = sizeof(fork);
	memset(&unknown, 0, sizeof(unknown));
	unknown.hdr.type = 0x7777;
	unknown.hdr.size = sizeof(unknown);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint32_t size = ((const struct jmmap_rec_header *)order[i])->size;

		memcpy((uint8_t *)recs + len, order[i], size);
		len += size;
	}
	n = jmmap_reader__scan((const uint8_t *)recs, len, by_type, &lost, &each);
	check(n == (long)len && seen == 2 && others == 2 && by_type[JMMAP_REC_FORK] == 1,
	      "the scan counts the FORK and the unknown type as others, not the two MMAP3s nor "
	      "the two MUNMAPs");
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
	client_read();
	scan_others();
	return tap_done();
}
