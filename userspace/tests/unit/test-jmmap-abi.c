// SPDX-License-Identifier: GPL-2.0
/*
 * The jmmap ABI as it grows: jmmap-reader takes LOST records and stats
 * answers in the first layout (arrays of JMMAP_REC_SLOTS_V1 counts, what
 * modules wrote while the arrays were sized by JMMAP_REC_MAX), in the
 * current one (JMMAP_REC_SLOTS), and from a module newer than this header
 * (a LOST record with a field after its counts; a stats answer larger than
 * the caller's): the same counts come out of each, and nothing past the
 * counts is taken for one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jmmap-reader.h"
#include "tap.h"

/* A LOST record of @size bytes with @n counts: slot i holds @counts[i]. */
static size_t put_lost(uint8_t *p, uint32_t size, const uint64_t *counts, int n)
{
	struct jmmap_rec_header h = { .type = JMMAP_REC_LOST, .size = size };
	uint64_t time = 1000 + size;

	memset(p, 0xa5, size); /* what follows the counts must not count */
	memcpy(p, &h, sizeof(h));
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, counts, 8 * (size_t)n);
	return size;
}

struct sums {
	uint64_t total[4];
	int n;
};

static int on_event(const struct jm_event *ev, void *ctx)
{
	struct sums *s = ctx;

	if (ev->type == JMMAP_REC_LOST && s->n < 4)
		s->total[s->n++] = ev->lost_total;
	return 0;
}

static void check_stats(const void *answer, size_t len, uint64_t want_lost, const char *what)
{
	uint64_t emitted[JMMAP_REC_SLOTS], lost[JMMAP_REC_SLOTS], sum = 0;
	int err = jmmap_reader__stats(answer, len, emitted, lost);

	for (int i = 1; i < JMMAP_REC_SLOTS; i++)
		sum += lost[i];
	check(!err && sum == want_lost && emitted[JMMAP_REC_MMAP3] == 40 &&
		      lost[JMMAP_REC_MMAP3] == 3 && emitted[JMMAP_REC_LOST] == 2,
	      what);
}

int main(void)
{
	uint64_t v1[JMMAP_REC_SLOTS_V1] = { 0, 3, 2, 0, 0, 0, 0 }; /* 5 lost */
	uint64_t now[JMMAP_REC_SLOTS] = { 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 7 }; /* 12 */
	uint64_t later[JMMAP_REC_SLOTS] = { 0, 1 }; /* 1, then a field of a later module */
	uint64_t by_type[JMMAP_REC_MAX] = { 0 }, lost = 0;
	uint8_t buf[1024] __attribute__((aligned(8)));
	struct sums sums = { { 0 }, 0 };
	size_t len = 0;
	int err;

	check(JMMAP_REC_LOST_SIZE_V1 == 72 && JMMAP_STATS_SIZE_V1 == 120 &&
		      sizeof(struct jmmap_rec_lost) == 16 + 8 * JMMAP_REC_SLOTS &&
		      JMMAP_REC_MAX <= JMMAP_REC_SLOTS,
	      "the first layouts are 72 and 120 bytes, the current arrays have room for every type");

	/* LOST records */
	len += put_lost(buf + len, JMMAP_REC_LOST_SIZE_V1, v1, JMMAP_REC_SLOTS_V1);
	len += put_lost(buf + len, sizeof(struct jmmap_rec_lost), now, JMMAP_REC_SLOTS);
	len += put_lost(buf + len, sizeof(struct jmmap_rec_lost) + 16, later, JMMAP_REC_SLOTS);
	err = jmmap_reader__walk(buf, len, false, on_event, &sums);
	check(!err && sums.n == 3, "a LOST record of each layout is walked");
	check(sums.total[0] == 5, "the first layout's LOST (7 slots, 72 bytes) counts 5");
	check(sums.total[1] == 12, "the current layout's LOST (16 slots) counts 12, a type "
				   "this header does not know included");
	check(sums.total[2] == 1, "a later module's LOST, with a field after its 16 slots, "
				  "counts its slots alone");
	check(jmmap_reader__scan(buf, len, by_type, &lost, NULL) == (long)len && lost == 18 &&
		      by_type[JMMAP_REC_LOST] == 3,
	      "the recorder's scan counts 18 lost in the three layouts");
	put_lost(buf, 64, v1, 6);
	check(jmmap_reader__walk(buf, 64, false, on_event, &sums) == -EBADMSG,
	      "a LOST record shorter than the first layout is EBADMSG");

	/* stats answers: the size the module wrote back tells the layout */
	{
		struct {
			uint32_t size, reserved;
			uint64_t emitted[JMMAP_REC_SLOTS_V1], lost[JMMAP_REC_SLOTS_V1];
		} a1 = { .size = JMMAP_STATS_SIZE_V1 };
		struct jmmap_stats a2, big;

		a1.emitted[JMMAP_REC_MMAP3] = 40;
		a1.emitted[JMMAP_REC_LOST] = 2;
		a1.lost[JMMAP_REC_MMAP3] = 3;
		a1.lost[JMMAP_REC_EXEC] = 1;
		check_stats(&a1, sizeof(a1), 4, "stats in the first layout (120 bytes): 4 lost");
		/* a module before the fixed arrays, asked with today's size: the rest zeroed */
		memset(&big, 0, sizeof(big));
		memcpy(&big, &a1, sizeof(a1));
		check_stats(&big, sizeof(big), 4,
			    "stats of an old module in today's buffer: its size says the first layout");

		memset(&a2, 0, sizeof(a2));
		a2.size = sizeof(a2);
		a2.emitted[JMMAP_REC_MMAP3] = 40;
		a2.emitted[JMMAP_REC_LOST] = 2;
		a2.lost[JMMAP_REC_MMAP3] = 3;
		a2.lost[14] = 6;
		check_stats(&a2, sizeof(a2), 9, "stats in the current layout: 9 lost, a later type's "
						"included");
		a2.size = sizeof(a2) + 64; /* a later module: it wrote what our size holds */
		check_stats(&a2, sizeof(a2), 9, "stats from a later module, larger than ours: "
						"read as the current layout");
		a2.size = JMMAP_STATS_SIZE_V1 - 8;
		check(jmmap_reader__stats(&a2, sizeof(a2), NULL, NULL) == -EBADMSG,
		      "a stats answer smaller than the first layout is EBADMSG");
		check(jmmap_reader__stats(&a1, JMMAP_STATS_SIZE_V1 - 8, NULL, NULL) == -EBADMSG,
		      "a stats answer cut short is EBADMSG");
	}
	return tap_done();
}
