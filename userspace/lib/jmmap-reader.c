// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jmmap-reader.h"
#include "byteorder.h"

struct jr {
	bool swapped;
};

static uint16_t g16(const struct jr *j, const uint8_t *p)
{
	return bo_u16(p, j->swapped);
}

static uint32_t g32(const struct jr *j, const uint8_t *p)
{
	return bo_u32(p, j->swapped);
}

static uint64_t g64(const struct jr *j, const uint8_t *p)
{
	return bo_u64(p, j->swapped);
}

static const char *tail_str(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, 0, (size_t)(end - p)))
		return "";
	return (const char *)p;
}

#define FIELD(type, f) (offsetof(struct type, f))

#define JMMAP_REC_SIZE_MAX (64 * 1024) /* a larger record means a corrupt stream */

/* Whether a header's size is one the module can write. */
static bool size_possible(uint32_t size)
{
	return size >= sizeof(struct jmmap_rec_header) && !(size % 8) && size <= JMMAP_REC_SIZE_MAX;
}

/*
 * The size of the record at @off: positive when it is whole in @len bytes,
 * 0 when it is cut off at the end, -EBADMSG when its header is impossible.
 */
static long record_size(const struct jr *j, const uint8_t *p, size_t len, size_t off)
{
	uint32_t size;

	if (len - off < sizeof(struct jmmap_rec_header))
		return 0;
	size = g32(j, p + off + FIELD(jmmap_rec_header, size));
	if (!size_possible(size))
		return -EBADMSG;
	return size > len - off ? 0 : (long)size;
}

/*
 * The sum of the counts of the LOST record of @size bytes at @r, slots 1 on:
 * as many slots as its size holds (JMMAP_REC_SLOTS_V1 in the first layout),
 * JMMAP_REC_SLOTS at most (a later module's fields follow them). -EBADMSG
 * for a record shorter than the first layout.
 */
static int lost_sum(const struct jr *j, const uint8_t *r, uint32_t size, uint64_t *sum)
{
	size_t slots = (size - FIELD(jmmap_rec_lost, lost)) / 8, i;

	if (size < JMMAP_REC_LOST_SIZE_V1)
		return -EBADMSG;
	if (slots > JMMAP_REC_SLOTS)
		slots = JMMAP_REC_SLOTS;
	for (i = 1; i < slots; i++)
		*sum += g64(j, r + FIELD(jmmap_rec_lost, lost) + 8 * i);
	return 0;
}

static int decode(const struct jr *j, const uint8_t *r, uint32_t size, struct jm_event *e)
{
	const uint8_t *end = r + size;

	switch (e->type) {
	case JMMAP_REC_MMAP3:
		if (size < sizeof(struct jmmap_rec_mmap3))
			return -EBADMSG;
		e->pid = g32(j, r + FIELD(jmmap_rec_mmap3, pid));
		e->tid = g32(j, r + FIELD(jmmap_rec_mmap3, tid));
		e->time = g64(j, r + FIELD(jmmap_rec_mmap3, time));
		e->start = g64(j, r + FIELD(jmmap_rec_mmap3, start));
		e->len = g64(j, r + FIELD(jmmap_rec_mmap3, len));
		e->vma_start = g64(j, r + FIELD(jmmap_rec_mmap3, vma_start));
		e->vma_end = g64(j, r + FIELD(jmmap_rec_mmap3, vma_end));
		e->pgoff = g64(j, r + FIELD(jmmap_rec_mmap3, pgoff));
		e->prot = g32(j, r + FIELD(jmmap_rec_mmap3, prot));
		e->mflags = g32(j, r + FIELD(jmmap_rec_mmap3, flags));
		e->dev_major = g32(j, r + FIELD(jmmap_rec_mmap3, dev_major));
		e->dev_minor = g32(j, r + FIELD(jmmap_rec_mmap3, dev_minor));
		e->ino = g64(j, r + FIELD(jmmap_rec_mmap3, ino));
		e->ino_generation = g64(j, r + FIELD(jmmap_rec_mmap3, ino_generation));
		e->cause = g16(j, r + FIELD(jmmap_rec_mmap3, cause));
		e->cookie_kind = r[FIELD(jmmap_rec_mmap3, cookie_kind)];
		e->cookie_len = r[FIELD(jmmap_rec_mmap3, cookie_len)];
		if (e->cookie_len > JMMAP_COOKIE_MAX)
			return -EBADMSG;
		memcpy(e->cookie, r + FIELD(jmmap_rec_mmap3, cookie), JMMAP_COOKIE_MAX);
		e->filename = tail_str(r + sizeof(struct jmmap_rec_mmap3), end);
		return 0;
	case JMMAP_REC_MUNMAP:
		if (size < sizeof(struct jmmap_rec_munmap))
			return -EBADMSG;
		e->pid = g32(j, r + FIELD(jmmap_rec_munmap, pid));
		e->tid = g32(j, r + FIELD(jmmap_rec_munmap, tid));
		e->time = g64(j, r + FIELD(jmmap_rec_munmap, time));
		e->start = g64(j, r + FIELD(jmmap_rec_munmap, start));
		e->len = g64(j, r + FIELD(jmmap_rec_munmap, len));
		e->cause = g32(j, r + FIELD(jmmap_rec_munmap, cause));
		return 0;
	case JMMAP_REC_EXEC:
		if (size < sizeof(struct jmmap_rec_exec))
			return -EBADMSG;
		e->pid = g32(j, r + FIELD(jmmap_rec_exec, pid));
		e->tid = g32(j, r + FIELD(jmmap_rec_exec, tid));
		e->time = g64(j, r + FIELD(jmmap_rec_exec, time));
		memcpy(e->comm, r + FIELD(jmmap_rec_exec, comm), 16);
		e->comm[16] = 0;
		e->cookie_kind = r[FIELD(jmmap_rec_exec, cookie_kind)];
		e->cookie_len = r[FIELD(jmmap_rec_exec, cookie_len)];
		if (e->cookie_len > JMMAP_COOKIE_MAX)
			return -EBADMSG;
		memcpy(e->cookie, r + FIELD(jmmap_rec_exec, cookie), JMMAP_COOKIE_MAX);
		e->filename = tail_str(r + sizeof(struct jmmap_rec_exec), end);
		return 0;
	case JMMAP_REC_FORK:
		if (size < sizeof(struct jmmap_rec_fork))
			return -EBADMSG;
		e->pid = g32(j, r + FIELD(jmmap_rec_fork, pid));
		e->tid = g32(j, r + FIELD(jmmap_rec_fork, tid));
		e->ppid = g32(j, r + FIELD(jmmap_rec_fork, ppid));
		e->ptid = g32(j, r + FIELD(jmmap_rec_fork, ptid));
		e->time = g64(j, r + FIELD(jmmap_rec_fork, time));
		return 0;
	case JMMAP_REC_EXIT:
		if (size < sizeof(struct jmmap_rec_exit))
			return -EBADMSG;
		e->pid = g32(j, r + FIELD(jmmap_rec_exit, pid));
		e->tid = g32(j, r + FIELD(jmmap_rec_exit, tid));
		e->time = g64(j, r + FIELD(jmmap_rec_exit, time));
		return 0;
	case JMMAP_REC_LOST:
		if (size < JMMAP_REC_LOST_SIZE_V1)
			return -EBADMSG;
		e->time = g64(j, r + FIELD(jmmap_rec_lost, time));
		return lost_sum(j, r, size, &e->lost_total);
	default:
		return 0; /* unknown types are skipped by size */
	}
}

int jmmap_reader__walk(const void *buf, size_t len, bool swapped, jm_event_fn fn, void *ctx)
{
	const struct jr j = { swapped };
	const uint8_t *p = buf;
	size_t off = 0;
	int err;

	while (len - off >= sizeof(struct jmmap_rec_header)) {
		long size = record_size(&j, p, len, off);
		struct jm_event e;

		if (size <= 0)
			return -EBADMSG; /* impossible, or cut off */
		memset(&e, 0, sizeof(e));
		e.type = g16(&j, p + off);
		e.flags = g16(&j, p + off + 2);
		e.filename = "";
		err = decode(&j, p + off, (uint32_t)size, &e);
		if (err)
			return err;
		if (e.type > 0 && e.type < JMMAP_REC_MAX) {
			err = fn(&e, ctx);
			if (err)
				return err;
		}
		off += size;
	}
	return 0;
}

/* @each's call for the MMAP3 of @size bytes at @r, once it is known good. */
static void scan_mmap3(const uint8_t *r, uint32_t size, struct jm_scan_mmap3 *each)
{
	const struct jmmap_rec_mmap3 *m = (const void *)r;
	const char *name;

	if (size < sizeof(*m) || m->cookie_len > JMMAP_COOKIE_MAX)
		return; /* the walk would stop here; the recorder just skips it */
	name = size > sizeof(*m) && !r[size - 1] ? m->filename : "";
	each->err = each->fn(m, name, each->ctx);
}

long jmmap_reader__scan(const uint8_t *bytes, size_t len, uint64_t nr_by_type[JMMAP_REC_MAX],
			uint64_t *lost, struct jm_scan_mmap3 *each)
{
	const struct jr j = {false};
	size_t off = 0;
	long size;

	if (each && (uintptr_t)bytes % 8)
		each->err = -EINVAL;
	while ((size = record_size(&j, bytes, len, off)) > 0) {
		uint16_t type = g16(&j, bytes + off + FIELD(jmmap_rec_header, type));

		if (type < JMMAP_REC_MAX)
			nr_by_type[type]++;
		if (type == JMMAP_REC_MMAP3) {
			if (each && !each->err)
				scan_mmap3(bytes + off, (uint32_t)size, each);
		} else if (type != JMMAP_REC_MUNMAP && each && each->others) {
			++*each->others;
		}
		if (type == JMMAP_REC_LOST)
			lost_sum(&j, bytes + off, (uint32_t)size, lost);
		off += (size_t)size;
	}
	return size < 0 ? -EINVAL : (long)off;
}

int jmmap_reader__stats(const void *answer, size_t len, uint64_t emitted[JMMAP_REC_SLOTS],
			uint64_t lost[JMMAP_REC_SLOTS])
{
	const struct jr j = {false};
	const uint8_t *a = answer;
	size_t slots, lost_at;
	uint32_t size;

	if (len < JMMAP_STATS_SIZE_V1)
		return -EBADMSG;
	size = g32(&j, a + FIELD(jmmap_stats, size));
	if (size >= sizeof(struct jmmap_stats) && len >= sizeof(struct jmmap_stats)) {
		slots = JMMAP_REC_SLOTS;
		lost_at = FIELD(jmmap_stats, lost);
	} else if (size >= JMMAP_STATS_SIZE_V1 && size < sizeof(struct jmmap_stats)) {
		slots = JMMAP_REC_SLOTS_V1;
		lost_at = FIELD(jmmap_stats, emitted) + 8 * JMMAP_REC_SLOTS_V1;
	} else {
		return -EBADMSG;
	}
	memset(emitted, 0, 8 * JMMAP_REC_SLOTS);
	memset(lost, 0, 8 * JMMAP_REC_SLOTS);
	for (size_t i = 0; i < slots; i++) {
		emitted[i] = g64(&j, a + FIELD(jmmap_stats, emitted) + 8 * i);
		lost[i] = g64(&j, a + lost_at + 8 * i);
	}
	return 0;
}

/*
 * Where the copy's pieces stop: glibc's memcpy() moves a piece this small
 * with vector registers, one of a few hundred bytes with a `rep movsb`.
 */
#define COPY_PIECE 2048

/* @len bytes from the ring at byte position @pos to @out, in pieces. */
static void copy_pieces(uint8_t *out, const uint8_t *data, uint64_t mask, uint64_t pos,
			uint64_t len)
{
	while (len) {
		uint64_t off = pos & mask;
		uint64_t piece = len < COPY_PIECE ? len : COPY_PIECE;

		if (piece > mask + 1 - off)
			piece = mask + 1 - off; /* to the ring's end; the rest from its start */
		memcpy(out, data + off, (size_t)piece);
		out += piece;
		pos += piece;
		len -= piece;
	}
}

long jmmap_reader__copy_ring_raw(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
				 uint8_t *out)
{
	/* headers are 8 bytes at 8-byte positions, so that none wraps */
	if (size < 8 || size & (size - 1) || tail % 8 || head % 8 || head - tail > size)
		return -EINVAL;
	copy_pieces(out, data, size - 1, tail, head - tail);
	return (long)(head - tail);
}

long jmmap_reader__copy_ring(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
			     uint8_t *out)
{
	const struct jr j = {false};
	long len = jmmap_reader__copy_ring_raw(data, size, tail, head, out), off, rec;

	if (len < 0)
		return len;
	/* the headers as copied: what the caller will read, whatever the ring holds now */
	for (off = 0; off < len; off += rec) {
		rec = record_size(&j, out, (size_t)len, (size_t)off);
		if (rec <= 0)
			return -EINVAL; /* impossible, or longer than what is queued */
	}
	return len;
}
