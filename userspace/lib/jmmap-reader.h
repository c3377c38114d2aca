/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap-reader: walk the module's records as stored in a recording's
 * JREC_FEAT_JMMAP section, decoded into host byte order. Every record's size
 * is checked against the bytes left and against its type's minimum. The
 * recorder's scan of what it reads from /dev/jmmap checks sizes the same way.
 */
#ifndef JREC_JMMAP_READER_H
#define JREC_JMMAP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jmmap.h"

struct jm_event {
	uint16_t type, flags;
	uint32_t pid, tid, ppid, ptid;
	uint64_t time;
	uint64_t start, len, vma_start, vma_end, pgoff;
	uint32_t prot, mflags, cause;
	uint32_t dev_major, dev_minor;
	uint64_t ino, ino_generation;
	uint8_t cookie_kind, cookie_len;
	uint8_t cookie[JMMAP_COOKIE_MAX];
	char comm[17];
	const char *filename; /* NUL-terminated inside the buffer, or "" */
	uint64_t lost_total;  /* LOST: sum over types */
};

typedef int (*jm_event_fn)(const struct jm_event *ev, void *ctx);

/* 0, -EBADMSG when a record is impossible (the walk stops there), or @fn's value. */
int jmmap_reader__walk(const void *buf, size_t len, bool swapped, jm_event_fn fn, void *ctx);

/*
 * What the recorder does with each MMAP3 jmmap_reader__scan() frames: @fn
 * gets it in place (host byte order, @bytes 8-byte aligned), checked as the
 * walk checks it, with its filename ("" unless NUL-padded to the record's
 * end, as the module writes it: then the record's own field, of a multiple
 * of 8 bytes, at least 8). A non-zero return stops the calls, not the
 * framing, and is kept in @err. A JIT's every code mapping call passes here.
 */
struct jm_scan_mmap3 {
	int (*fn)(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx);
	void *ctx;
	int err;
	/* if not NULL: one added for each record but MMAP3 and MUNMAP, as it is met */
	uint64_t *others;
};

/*
 * The recorder's account of records as read from the device (host byte
 * order, the last one possibly incomplete): counts per type and LOST
 * totals added to @nr_by_type and *@lost, each MMAP3 to @each (may be
 * NULL). Returns the number of bytes that form whole records, or -EINVAL
 * when a record header is impossible.
 */
long jmmap_reader__scan(const uint8_t *bytes, size_t len, uint64_t nr_by_type[JMMAP_REC_MAX],
			uint64_t *lost, struct jm_scan_mmap3 *each);

/*
 * The answer of JMMAP_IOC_GET_STATS (@len bytes, host byte order) as counts
 * by type in @emitted and @lost, JMMAP_REC_SLOTS each: the layout is the
 * one whose size the module wrote back (struct jmmap_stats, or the first
 * one of JMMAP_STATS_SIZE_V1 bytes, all that modules before
 * JMMAP_REC_SLOTS answer); slots the answer has not are 0. 0, or -EBADMSG
 * for a size no module writes or an answer cut short.
 */
int jmmap_reader__stats(const void *answer, size_t len, uint64_t emitted[JMMAP_REC_SLOTS],
			uint64_t lost[JMMAP_REC_SLOTS]);

/*
 * The records of a mapped ring (struct jmmap_ring_page): those between byte
 * positions @tail and @head of the @size-byte buffer @data (a power of two)
 * copied to @out, which has room for @head - @tail bytes. The bytes go in
 * pieces of up to 2 KiB (one large copy would be a `rep movsb`, which is
 * what read() costs, a copy per record a call per record), a record that
 * wraps at the buffer's end in two; then every header of the copy is
 * checked, the copy being what the caller reads whatever the ring holds by
 * then. The bytes copied, or -EINVAL for positions or a header the module
 * never writes (a tail that is not a multiple of 8 among them).
 */
long jmmap_reader__copy_ring(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
			     uint8_t *out);
/*
 * The same copy with the positions checked and not the headers: for a
 * caller that frames the copy with jmmap_reader__scan() at once and takes
 * anything short of whole records as -EINVAL (the recorder: one walk over
 * the records, not two).
 */
long jmmap_reader__copy_ring_raw(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
				 uint8_t *out);

#endif
