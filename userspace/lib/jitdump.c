// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jitdump.h"
#include "byteorder.h"

#define JITDUMP_MAX_LINES (1u << 20)

struct jd {
	const uint8_t *p;
	size_t len;
	bool swapped;
};

static uint32_t u32(const struct jd *j, const uint8_t *p)
{
	return bo_u32(p, j->swapped);
}

static uint64_t u64(const struct jd *j, const uint8_t *p)
{
	return bo_u64(p, j->swapped);
}

/* The header's byte order and size; -EINVAL when @buf is not a jitdump. */
static int header(const uint8_t *buf, size_t len, bool *swapped, uint32_t *size)
{
	uint32_t magic;

	if (len < 12)
		return -EINVAL;
	magic = bo_u32(buf, false);
	if (magic == JITDUMP_MAGIC)
		*swapped = false;
	else if (magic == __builtin_bswap32(JITDUMP_MAGIC))
		*swapped = true;
	else
		return -EINVAL;
	*size = bo_u32(buf + 8, *swapped);
	return *size < JITDUMP_HEADER_MIN || *size > JITDUMP_HEADER_MAX ? -EINVAL : 0;
}

/*
 * The size of the record at @off: positive when it is whole in @buf, 0 when
 * it is cut off at the end, -EINVAL when its size is impossible.
 */
static long record_size(const uint8_t *buf, size_t len, size_t off, bool swapped)
{
	uint32_t size;

	if (len - off < JITDUMP_RECORD_MIN)
		return 0;
	size = bo_u32(buf + off + 4, swapped);
	if (size < JITDUMP_RECORD_MIN || size > JITDUMP_RECORD_MAX)
		return -EINVAL;
	return size > len - off ? 0 : (long)size;
}

int jitdump__scan(const uint8_t *buf, size_t len, size_t *committed)
{
	size_t off = *committed;
	uint32_t hsize;
	bool swapped;
	long size;

	if (len < 12)
		return off ? -EINVAL : 0;
	if (header(buf, len, &swapped, &hsize))
		return -EINVAL;
	if (off == 0) {
		if (len < hsize)
			return 0;
		off = hsize;
	} else if (off < hsize || off > len) {
		return -EINVAL;
	}
	while ((size = record_size(buf, len, off, swapped)) > 0)
		off += (size_t)size;
	*committed = off;
	return size < 0 ? -EINVAL : 0;
}

static const char *str(const uint8_t *p, const uint8_t *end, const uint8_t **after)
{
	const uint8_t *nul;

	if (p >= end)
		return NULL;
	nul = memchr(p, 0, (size_t)(end - p));
	if (!nul)
		return NULL;
	*after = nul + 1;
	return (const char *)p;
}

static int debug_info(const struct jd *j, const uint8_t *b, const uint8_t *end,
		      struct jitdump_event *ev, struct jitdump_line **scratch, size_t *cap)
{
	uint64_t nr, i;
	const uint8_t *p;

	if (end - b < 16)
		return -EBADMSG;
	ev->code_addr = u64(j, b);
	nr = u64(j, b + 8);
	/* each entry needs at least 17 bytes: addr, lineno, discrim, a NUL */
	if (nr > (uint64_t)(end - b - 16) / 17 || nr > JITDUMP_MAX_LINES)
		return -EBADMSG;
	if (nr > *cap) {
		struct jitdump_line *n = realloc(*scratch, nr * sizeof(*n));

		if (!n)
			return -ENOMEM;
		*scratch = n;
		*cap = nr;
	}
	p = b + 16;
	for (i = 0; i < nr; i++) {
		if (end - p < 17)
			return -EBADMSG;
		(*scratch)[i].addr = u64(j, p);
		(*scratch)[i].lineno = u32(j, p + 8);
		(*scratch)[i].file = str(p + 16, end, &p);
		if (!(*scratch)[i].file)
			return -EBADMSG;
	}
	ev->lines = *scratch;
	ev->nr_lines = nr;
	return 0;
}

int jitdump__parse(const void *buf, size_t len, jitdump_fn fn, void *ctx,
		   struct jitdump_info *info)
{
	struct jd j = { buf, len, false };
	struct jitdump_line *scratch = NULL;
	size_t cap = 0, off;
	uint32_t hsize;
	int err = 0;

	memset(info, 0, sizeof(*info));
	if (len < JITDUMP_HEADER_MIN || header(j.p, len, &j.swapped, &hsize))
		return -EINVAL;
	info->swapped = j.swapped;
	info->version = u32(&j, j.p + 4);
	info->elf_mach = u32(&j, j.p + 12);
	info->pid = u32(&j, j.p + 20);
	info->time = u64(&j, j.p + 24);
	info->flags = u64(&j, j.p + 32);
	if (hsize > len)
		return -EINVAL;
	if (!fn)
		return 0; /* header only */
	off = hsize;
	while (off < len) {
		const uint8_t *r = j.p + off, *b = r + JITDUMP_RECORD_MIN, *end;
		long size = record_size(j.p, len, off, j.swapped);
		struct jitdump_event ev;
		const uint8_t *after;

		if (size <= 0) {
			info->truncated = true;
			break;
		}
		end = r + size;
		memset(&ev, 0, sizeof(ev));
		ev.type = u32(&j, r);
		ev.time = u64(&j, r + 8);
		switch (ev.type) {
		case JITDUMP_LOAD:
			if (end - b < 40)
				goto bad;
			ev.pid = u32(&j, b);
			ev.tid = u32(&j, b + 4);
			ev.vma = u64(&j, b + 8);
			ev.code_addr = u64(&j, b + 16);
			ev.code_size = u64(&j, b + 24);
			ev.code_index = u64(&j, b + 32);
			ev.name = str(b + 40, end, &after);
			if (!ev.name || ev.code_size > (uint64_t)(end - after))
				goto bad;
			ev.code = (const uint8_t *)after;
			break;
		case JITDUMP_MOVE:
			if (end - b < 48)
				goto bad;
			ev.pid = u32(&j, b);
			ev.tid = u32(&j, b + 4);
			ev.vma = u64(&j, b + 8);
			ev.old_addr = u64(&j, b + 16);
			ev.new_addr = u64(&j, b + 24);
			ev.code_size = u64(&j, b + 32);
			ev.code_index = u64(&j, b + 40);
			break;
		case JITDUMP_DEBUG_INFO:
			err = debug_info(&j, b, end, &ev, &scratch, &cap);
			if (err == -EBADMSG)
				goto bad;
			if (err)
				goto out;
			break;
		case JITDUMP_UNWINDING_INFO:
			if (end - b < 24)
				goto bad;
			ev.unwind_size = u64(&j, b);
			ev.unwind_hdr_size = u64(&j, b + 8);
			ev.unwind_mapped_size = u64(&j, b + 16);
			if (ev.unwind_size > (uint64_t)(end - b - 24) ||
			    ev.unwind_hdr_size > ev.unwind_size)
				goto bad;
			ev.unwind = b + 24;
			break;
		default:
			break; /* CLOSE and unknown types: passed on by type */
		}
		info->records++;
		err = fn(&ev, ctx);
		if (err)
			goto out;
		off += size;
		continue;
bad:
		/* a record too short for its type: the rest cannot be trusted */
		info->truncated = true;
		break;
	}
	err = 0;
out:
	free(scratch);
	return err;
}
