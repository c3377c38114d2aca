// SPDX-License-Identifier: GPL-2.0
/*
 * perf-records: walk the data section of a perf.data file and decode each
 * record into a struct pr_event, checking every length against the record.
 */
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <zstd.h>

#include "perf-reader-internal.h"

/* perf-tool record types (not in the kernel's uapi header) */
#define PR_RECORD_USER_TYPE_START 64
#define PR_RECORD_COMPRESSED 81
#define PR_RECORD_COMPRESSED2 83 /* the same, with its payload aligned (newer perf) */


#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/* A bounded cursor over one record. */
struct cursor {
	const struct perf_reader *r;
	const uint8_t *p, *end;
};

static bool cur_u64(struct cursor *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return false;
	*v = pr_u64(c->r, c->p);
	c->p += 8;
	return true;
}

static bool cur_skip(struct cursor *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n)
		return false;
	c->p += n;
	return true;
}

static bool cur_u32_pair(struct cursor *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return false;
	*a = pr_u32(c->r, c->p);
	*b = pr_u32(c->r, c->p + 4);
	c->p += 8;
	return true;
}

/* Which attribute produced a sample, from the first attribute's layout. */
static const struct pr_attr *sample_attr(const struct perf_reader *r, const uint8_t *body,
					 const uint8_t *end)
{
	uint64_t st = r->attrs_v[0].sample_type, id;
	unsigned int pos = 0;

	if (r->nr_attrs == 1)
		return &r->attrs_v[0];
	if (!(st & PERF_SAMPLE_IDENTIFIER)) {
		if (!(st & PERF_SAMPLE_ID))
			return NULL;
		pos += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
		       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
	}
	if ((size_t)(end - body) < (pos + 1) * 8)
		return NULL;
	id = pr_u64(r, body + pos * 8);
	return pr_attr_by_id(r, id);
}

/* The same for other records, whose sample_id_all trailer sits at the end. */
static const struct pr_attr *trailer_attr(const struct perf_reader *r, const uint8_t *body,
					  const uint8_t *end)
{
	uint64_t st = r->attrs_v[0].sample_type;
	unsigned int back = 1;

	if (r->nr_attrs == 1)
		return &r->attrs_v[0];
	if (!r->attrs_v[0].sample_id_all)
		return NULL;
	if (!(st & PERF_SAMPLE_IDENTIFIER)) {
		if (!(st & PERF_SAMPLE_ID))
			return NULL;
		back += !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU);
	}
	if ((size_t)(end - body) < back * 8)
		return NULL;
	return pr_attr_by_id(r, pr_u64(r, end - back * 8));
}

static void parse_trailer(const struct perf_reader *r, const struct pr_attr *a,
			  const uint8_t *start, const uint8_t *end, struct pr_sample_id *id)
{
	struct cursor c = { r, start, end };
	uint64_t st = a->sample_type, v;

	if (st & PERF_SAMPLE_TID)
		cur_u32_pair(&c, &id->pid, &id->tid);
	if ((st & PERF_SAMPLE_TIME) && cur_u64(&c, &id->time))
		id->has_time = true;
	if (st & PERF_SAMPLE_ID)
		cur_u64(&c, &id->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		cur_u64(&c, &v);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		cur_u32_pair(&c, &id->cpu, &res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		cur_u64(&c, &id->id);
}

/* PERF_SAMPLE_READ: the values in @s (read_format's layout), stepped over. */
static bool take_read(struct cursor *c, uint64_t rf, struct pr_sample *s)
{
	uint64_t nr = 1, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t hdr = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if ((rf & PERF_FORMAT_GROUP) && (!cur_u64(c, &nr) || nr > 4096))
		return false;
	if (rf & PERF_FORMAT_GROUP) {
		/* the times come before a group's values, after a single one's value */
		if (!cur_skip(c, hdr * 8))
			return false;
		hdr = 0;
	}
	s->read = c->p;
	s->read_nr = nr;
	s->read_stride = (uint32_t)(per + hdr);
	s->read_id_at = (rf & PERF_FORMAT_ID) ? (uint32_t)(1 + hdr) : 0;
	return cur_skip(c, (hdr + nr * per) * 8);
}

/*
 * RAW and BRANCH_STACK come between the call chain and the user registers:
 * both pointed at. Then the user registers and the copy of the user stack
 * that --call-graph dwarf records, the weight (perf record -W), the data
 * source, the interrupt registers, the physical address and the page sizes.
 */
static int parse_after_chain(struct cursor *c, const struct pr_attr *a, struct pr_sample *s)
{
	uint64_t st = a->sample_type, v, size;

	if (st & PERF_SAMPLE_RAW) {
		if (c->end - c->p < 4)
			return -EBADMSG;
		v = pr_u32(c->r, c->p);
		if (!cur_skip(c, 4 + v))
			return -EBADMSG;
		s->raw = c->p - v;
		s->raw_size = (uint32_t)v;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (!cur_u64(c, &v) || v > (uint64_t)(c->end - c->p) / 24)
			return -EBADMSG;
		if ((a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && !cur_skip(c, 8))
			return -EBADMSG;
		s->branches = c->p;
		if (!cur_skip(c, v * 24))
			return -EBADMSG;
		s->nr_branches = v;
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		if (!cur_u64(c, &s->regs_abi))
			return -EBADMSG;
		if (s->regs_abi) {
			s->nr_regs = (unsigned int)__builtin_popcountll(a->sample_regs_user);
			s->regs = c->p;
			if (!cur_skip(c, (uint64_t)s->nr_regs * 8))
				return -EBADMSG;
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		if (!cur_u64(c, &size))
			return -EBADMSG;
		if (size) {
			s->stack = c->p;
			if (!cur_skip(c, size) || !cur_u64(c, &v))
				return -EBADMSG;
			/* the dynamic size: how much of the copy the kernel filled */
			s->stack_size = v < size ? v : size;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (!cur_u64(c, &v))
			return -EBADMSG;
		s->weight = (st & PERF_SAMPLE_WEIGHT_STRUCT) ? (uint32_t)v : v;
		if (st & PERF_SAMPLE_WEIGHT_STRUCT)
			s->ins_lat = (uint16_t)(v >> 32);
	}
	if ((st & PERF_SAMPLE_DATA_SRC) && !cur_u64(c, &s->data_src))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_TRANSACTION) && !cur_skip(c, 8))
		return -EBADMSG;
	if (st & PERF_SAMPLE_REGS_INTR) {
		if (!cur_u64(c, &s->iregs_abi))
			return -EBADMSG;
		if (s->iregs_abi) {
			s->iregs = c->p;
			if (!cur_skip(c, (uint64_t)__builtin_popcountll(a->sample_regs_intr) * 8))
				return -EBADMSG;
		}
	}
	if ((st & PERF_SAMPLE_PHYS_ADDR) && !cur_u64(c, &s->phys_addr))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_CGROUP) && !cur_skip(c, 8))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && !cur_u64(c, &s->data_page_size))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && !cur_u64(c, &s->code_page_size))
		return -EBADMSG;
	return 0;
}

static int parse_sample(const struct perf_reader *r, struct pr_event *ev, const uint8_t *body,
			const uint8_t *end)
{
	struct cursor c = { r, body, end };
	const struct pr_attr *a = ev->attr;
	uint64_t st = a->sample_type, v;
	struct pr_sample *s = &ev->sample;

	s->ip = s->addr = s->nr_callchain = 0;
	s->callchain = NULL;
	s->regs_abi = s->stack_size = 0;
	s->nr_regs = 0;
	s->regs = s->stack = NULL;
	s->nr_branches = 0;
	s->branches = NULL;
	s->raw = NULL;
	s->raw_size = 0;
	s->read = NULL;
	s->read_nr = 0;
	s->weight = s->data_src = s->phys_addr = s->data_page_size = s->code_page_size = 0;
	s->ins_lat = 0;
	s->iregs_abi = 0;
	s->iregs = NULL;
	s->swapped = r->swapped;
	if ((st & PERF_SAMPLE_IDENTIFIER) && !cur_u64(&c, &ev->id.id))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_IP) && !cur_u64(&c, &s->ip))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_TID) && !cur_u32_pair(&c, &ev->id.pid, &ev->id.tid))
		return -EBADMSG;
	if (st & PERF_SAMPLE_TIME) {
		if (!cur_u64(&c, &ev->id.time))
			return -EBADMSG;
		ev->id.has_time = true;
	}
	if ((st & PERF_SAMPLE_ADDR) && !cur_u64(&c, &s->addr))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_ID) && !cur_u64(&c, &ev->id.id))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_STREAM_ID) && !cur_u64(&c, &v))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		if (!cur_u32_pair(&c, &ev->id.cpu, &res))
			return -EBADMSG;
	}
	/* without PERIOD in the sample, the attribute's fixed period (perf record -c N), as perf's */
	s->period = a->freq ? 1 : a->sample_period;
	if ((st & PERF_SAMPLE_PERIOD) && !cur_u64(&c, &s->period))
		return -EBADMSG;
	if ((st & PERF_SAMPLE_READ) && !take_read(&c, a->read_format, s))
		return -EBADMSG;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!cur_u64(&c, &s->nr_callchain))
			return -EBADMSG;
		if (s->nr_callchain > (uint64_t)(c.end - c.p) / 8)
			return -EBADMSG;
		s->callchain = c.p;
		c.p += s->nr_callchain * 8;
	}
	if (!(st & (PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT |
		    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR |
		    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)))
		return 0; /* nothing after the call chain is used */
	return parse_after_chain(&c, a, s);
}

static const char *bounded_str(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, 0, (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

/* A MMAP or MMAP2 body, up to @tend (its sample_id excluded). */
static int decode_mmap(uint32_t type, uint16_t misc, const uint8_t *body, const uint8_t *tend,
		       bool swapped, struct pr_mmap *mm)
{
	memset(mm, 0, sizeof(*mm));
	if (tend - body < (type == PERF_RECORD_MMAP ? 32 : 64))
		return -EBADMSG;
	mm->pid = bo_u32(body, swapped);
	mm->tid = bo_u32(body + 4, swapped);
	mm->start = bo_u64(body + 8, swapped);
	mm->len = bo_u64(body + 16, swapped);
	mm->pgoff = bo_u64(body + 24, swapped);
	if (type == PERF_RECORD_MMAP) {
		mm->prot = 4; /* PROT_EXEC: MMAP records are executable unless MMAP_DATA */
		mm->filename = bounded_str(body + 32, tend);
		return mm->filename ? 0 : -EBADMSG;
	}
	mm->is_mmap2 = true;
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		uint8_t n = body[32];

		mm->build_id_size = n <= 20 ? n : 20;
		memcpy(mm->build_id, body + 36, 20);
	} else {
		mm->maj = bo_u32(body + 32, swapped);
		mm->min = bo_u32(body + 36, swapped);
		mm->ino = bo_u64(body + 40, swapped);
		mm->ino_generation = bo_u64(body + 48, swapped);
	}
	mm->prot = bo_u32(body + 56, swapped);
	mm->flags = bo_u32(body + 60, swapped);
	mm->filename = bounded_str(body + 64, tend);
	return mm->filename ? 0 : -EBADMSG;
}

int perf_records__decode_mmap(const void *rec, size_t size, size_t trailer, struct pr_mmap *out)
{
	const struct perf_event_header *h = rec;
	const uint8_t *body = (const uint8_t *)rec + sizeof(*h);

	if (size < sizeof(*h) + trailer ||
	    (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2))
		return -EBADMSG;
	return decode_mmap(h->type, h->misc, body, (const uint8_t *)rec + size - trailer, false,
			   out);
}

int perf_records__encode_mmap2(const struct pr_mmap *mm, uint16_t misc, const void *trailer,
			       size_t trailer_len, void *out, size_t cap)
{
	size_t name_len = strlen(mm->filename) + 1, name_room = (name_len + 7) & ~(size_t)7;
	size_t size = sizeof(struct perf_event_header) + 64 + name_room + trailer_len;
	struct perf_event_header h = {PERF_RECORD_MMAP2, misc, 0};
	uint8_t *b = out, *body = b + sizeof(h);

	if (mm->build_id_size > sizeof(mm->build_id))
		return -EINVAL;
	if (size > cap || size > UINT16_MAX)
		return -E2BIG;
	h.size = (uint16_t)size;
	memcpy(b + PR_MMAP2_OFF_PID, &mm->pid, 4);
	memcpy(b + PR_MMAP2_OFF_TID, &mm->tid, 4);
	memcpy(b + PR_MMAP2_OFF_START, &mm->start, 8);
	memcpy(b + PR_MMAP2_OFF_LEN, &mm->len, 8);
	memcpy(b + PR_MMAP2_OFF_PGOFF, &mm->pgoff, 8);
	if (mm->build_id_size) {
		h.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		memset(body + 32, 0, 24);
		body[32] = mm->build_id_size;
		memcpy(body + 36, mm->build_id, mm->build_id_size);
	} else {
		memcpy(body + 32, &mm->maj, 4);
		memcpy(body + 36, &mm->min, 4);
		memcpy(body + 40, &mm->ino, 8);
		memcpy(body + 48, &mm->ino_generation, 8);
	}
	memcpy(b + PR_MMAP2_OFF_PROT, &mm->prot, 4);
	memcpy(b + PR_MMAP2_OFF_FLAGS, &mm->flags, 4);
	/* the name, NUL-padded to 8 bytes: the last 8 cleared, then the name over them */
	memset(body + 64 + name_room - 8, 0, 8);
	memcpy(body + 64, mm->filename, name_len);
	memcpy(body + 64 + name_room, trailer, trailer_len);
	memcpy(b, &h, sizeof(h));
	return (int)size;
}

/* A record other than a sample: decode()'s rarer path, kept out of its line. */
static __attribute__((noinline)) int decode_other(const struct perf_reader *r,
						  struct pr_event *ev, const uint8_t *rec)
{
	const uint8_t *body = rec + 8, *end = rec + ev->size, *tend = end;

	memset(&ev->mmap, 0, sizeof(ev->mmap)); /* the largest member of the union */
	if (ev->type == PERF_RECORD_EVENT_UPDATE) {
		/* type, id, then the type's payload: only the scale is taken */
		ev->update.scale_set = false;
		if (end - body >= 24 && pr_u64(r, body) == PERF_EVENT_UPDATE_SCALE) {
			uint64_t bits = pr_u64(r, body + 16);

			ev->update.id = pr_u64(r, body + 8);
			memcpy(&ev->update.scale, &bits, sizeof(bits));
			ev->update.scale_set = true;
		}
		return 0;
	}
	if (ev->type >= PR_RECORD_USER_TYPE_START)
		return 0;
	ev->attr = trailer_attr(r, body, end);
	if (ev->attr && ev->attr->sample_id_all) {
		if ((size_t)(end - body) < ev->attr->id_sample_size)
			return -EBADMSG;
		tend = end - ev->attr->id_sample_size;
		parse_trailer(r, ev->attr, tend, end, &ev->id);
	}
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(ev->type, ev->misc, body, tend, r->swapped, &ev->mmap);
	case PERF_RECORD_COMM:
		if (tend - body < 8)
			return -EBADMSG;
		ev->comm.pid = pr_u32(r, body);
		ev->comm.tid = pr_u32(r, body + 4);
		ev->comm.exec = ev->misc & PERF_RECORD_MISC_COMM_EXEC;
		ev->comm.comm = bounded_str(body + 8, tend);
		return ev->comm.comm ? 0 : -EBADMSG;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (tend - body < 24)
			return -EBADMSG;
		ev->task.pid = pr_u32(r, body);
		ev->task.ppid = pr_u32(r, body + 4);
		ev->task.tid = pr_u32(r, body + 8);
		ev->task.ptid = pr_u32(r, body + 12);
		ev->task.time = pr_u64(r, body + 16);
		return 0;
	case PERF_RECORD_LOST:
		if (tend - body < 16)
			return -EBADMSG;
		ev->lost.id = pr_u64(r, body);
		ev->lost.lost = pr_u64(r, body + 8);
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (tend - body < 8)
			return -EBADMSG;
		ev->lost.lost = pr_u64(r, body);
		return 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (tend - body < 8)
			return -EBADMSG;
		ev->sw.next_prev_pid = pr_u32(r, body);
		ev->sw.next_prev_tid = pr_u32(r, body + 4);
		return 0;
	default:
		return 0;
	}
}

static inline int decode(const struct perf_reader *r, struct pr_event *ev, const uint8_t *rec)
{
	const uint8_t *body = rec + 8, *end = rec + ev->size;

	if (ev->type != PERF_RECORD_SAMPLE)
		return decode_other(r, ev, rec);
	ev->attr = sample_attr(r, body, end);
	if (!ev->attr)
		return -EBADMSG;
	return parse_sample(r, ev, body, end);
}

/*
 * Data-section bytes: straight from the mapping for in-memory readers, else
 * streamed with pread() through a buffer, so that a large recording is read
 * once per pass without page faults and without staying resident. Samples
 * that carry copies of user stacks (--call-graph dwarf) are the exception:
 * most of their bytes are never looked at, so they are read through the
 * file's mapping, which copies nothing, and the part walked is dropped
 * from memory every DROP_BEHIND bytes.
 */
#define DROP_BEHIND (8u << 20)

struct stream {
	uint8_t *buf;
	size_t cap, have;
	uint64_t pos;
};

/* The buffer refilled from @off on: window()'s rare path, kept out of its line. */
static __attribute__((noinline)) const uint8_t *refill(const struct perf_reader *r,
						       struct stream *st, uint64_t off, size_t need)
{
	ssize_t n;

	st->pos = off;
	st->have = 0;
	while (st->have < st->cap) {
		n = pread(r->fd, st->buf + st->have, st->cap - st->have, (off_t)(off + st->have));
		if (n <= 0)
			break;
		st->have += (size_t)n;
	}
	return need <= st->have ? st->buf : NULL;
}

/* @need bytes at file offset @off: a pointer into the mapping or the buffer, NULL past the end. */
static inline const uint8_t *window(const struct perf_reader *r, struct stream *st, uint64_t off,
				    size_t need)
{
	if (!st->buf)
		return r->buf + off;
	if (off >= st->pos && off - st->pos + need <= st->have)
		return st->buf + (off - st->pos);
	return refill(r, st, off, need);
}

/*
 * Read straight from the mapping, a sample with a copy of the user stack
 * is a few cache lines in 8 KiB or more that nothing has touched: each
 * one's registers and the top of its stack, which the unwinder reads, would
 * be a cache (and TLB) miss after the other. Asking for the next record's
 * first lines while this one is processed overlaps those misses with work.
 */
#define PREFETCH_BYTES 1024

static void prefetch_record(const uint8_t *next, uint64_t left)
{
	size_t i, n = left < PREFETCH_BYTES ? (size_t)left : PREFETCH_BYTES;

	for (i = 0; i < n; i += 64)
		__builtin_prefetch(next + i);
}

static bool has_stack_copies(const struct perf_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_attrs; i++)
		if (r->attrs_v[i].sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	return false;
}

/*
 * perf's compressed records (`perf record -z`, `jrec record -z`): the
 * payloads of all COMPRESSED records, in order, are one zstd stream (one
 * frame or several) whose content is more records, which may straddle two
 * COMPRESSED records. Decompressed through one context per pass; the bytes
 * of a record not yet complete wait in @out.
 */
#define DECOMP_MAX_PENDING (64u << 20) /* more undelivered bytes than this: corrupt */

struct decomp {
	ZSTD_DCtx *dctx;
	struct buf out;
	size_t pos; /* out[pos..len) not yet passed on */
};

static void decomp__release(struct decomp *d)
{
	ZSTD_freeDCtx(d->dctx);
	buf__release(&d->out);
}

/* Append what @src (@len bytes of one record's payload) decompresses to. 0 or -EBADMSG/-ENOMEM. */
static int decomp__feed(struct decomp *d, const uint8_t *src, size_t len)
{
	ZSTD_inBuffer in = {src, len, 0};

	if (!d->dctx && !(d->dctx = ZSTD_createDCtx()))
		return -ENOMEM;
	if (d->pos) { /* drop what was passed on */
		memmove(d->out.data, d->out.data + d->pos, d->out.len - d->pos);
		d->out.len -= d->pos;
		d->pos = 0;
	}
	for (;;) {
		ZSTD_outBuffer o;
		size_t ret;

		if (d->out.len >= DECOMP_MAX_PENDING || buf__reserve(&d->out, 1u << 18))
			return d->out.len >= DECOMP_MAX_PENDING ? -EBADMSG : -ENOMEM;
		o.dst = d->out.data + d->out.len;
		o.size = d->out.cap - d->out.len;
		o.pos = 0;
		ret = ZSTD_decompressStream(d->dctx, &o, &in);
		if (ZSTD_isError(ret))
			return -EBADMSG;
		d->out.len += o.pos;
		/* all input taken and the output not full: nothing more to come from it */
		if (in.pos == in.size && o.pos < o.size)
			return 0;
	}
}

uint64_t pr_payload_size(const struct perf_reader *r, const uint8_t *rec, uint32_t type,
			 uint16_t size)
{
	/* AUXTRACE: u64 size, offset, reference, u32 idx, tid, cpu, reserved; then the data */
	if (type == PR_RECORD_AUXTRACE && size >= 16)
		return pr_u64(r, rec + 8);
	/* TRACING_DATA: u32 size (perf pads the data to 8 bytes); then the data */
	if (type == PR_RECORD_HEADER_TRACING_DATA && size >= 12)
		return pr_u32(r, rec + 8);
	return 0;
}

/* Decode and pass on one whole record at @rec, of ev->type/misc/size. */
/* The record at @rec (file offset @off), of ev->type/misc/size, decoded into @ev: 0 or not. */
static int decode_at(const struct perf_reader *r, struct pr_event *ev, const uint8_t *rec,
		     uint64_t off)
{
	ev->offset = off;
	ev->raw = rec;
	ev->attr = NULL;
	memset(&ev->id, 0, sizeof(ev->id));
	return decode(r, ev, rec);
}

static int one_record(struct perf_reader *r, struct pr_event *ev, const uint8_t *rec,
		      uint64_t off, pr_event_fn fn, void *ctx)
{
	if (decode_at(r, ev, rec, off)) {
		r->nr_bad++;
		return 0;
	}
	return fn(ev, ctx);
}

int perf_reader__decode(const struct perf_reader *r, const void *rec, uint64_t off,
			struct pr_event *ev)
{
	ev->type = pr_u32(r, rec);
	ev->misc = pr_u16(r, (const uint8_t *)rec + 4);
	ev->size = pr_u16(r, (const uint8_t *)rec + 6);
	if (ev->size < 8)
		return -EBADMSG;
	return decode_at(r, ev, rec, off) ? -EBADMSG : 0;
}

static bool skipped(const struct perf_reader *r, const struct pr_event *ev)
{
	return r->skip_samples && ev->type == PERF_RECORD_SAMPLE &&
	       (ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL;
}

/*
 * The COMPRESSED record @rec at @off: the records its payload completes.
 * 0, what @fn returned, -ENOMEM, or DECOMP_CORRUPT.
 */
#define DECOMP_CORRUPT 1
static int compressed(struct perf_reader *r, struct decomp *d, const uint8_t *rec, uint16_t size,
		      uint32_t type, uint64_t off, pr_event_fn fn, void *ctx)
{
	const uint8_t *src = rec + 8;
	uint64_t len = size - 8u;
	struct pr_event ev;
	int err;

	if (type == PR_RECORD_COMPRESSED2) {
		/* header, u64 data_size, the payload (padded to 8) */
		if (size < 16 || pr_u64(r, rec + 8) > size - 16u)
			return DECOMP_CORRUPT;
		len = pr_u64(r, rec + 8);
		src = rec + 16;
	}
	err = decomp__feed(d, src, (size_t)len);
	if (err)
		return err == -EBADMSG ? DECOMP_CORRUPT : err;
	while (d->out.len - d->pos >= 8) {
		const uint8_t *in = d->out.data + d->pos;

		ev.type = pr_u32(r, in);
		ev.misc = pr_u16(r, in + 4);
		ev.size = pr_u16(r, in + 6);
		if (ev.size < 8 || ev.type == PR_RECORD_COMPRESSED ||
		    ev.type == PR_RECORD_COMPRESSED2)
			return DECOMP_CORRUPT;
		if (ev.size > d->out.len - d->pos)
			break; /* the rest comes with the next COMPRESSED record */
		d->pos += ev.size;
		if (skipped(r, &ev))
			continue;
		err = one_record(r, &ev, in, off, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

int perf_reader__for_each_event(struct perf_reader *r, pr_event_fn fn, void *ctx)
{
	uint64_t off = r->data.offset, end = r->data.offset + r->data.size;
	struct stream st = { 0 };
	struct decomp d = { 0 };
	struct pr_event ev;
	uint64_t extra;
	int err = 0;

	if (r->fd >= 0 && !(r->mapped && has_stack_copies(r))) {
		/* one buffer per reader, reused by every pass */
		if (!r->stream_buf) {
			r->stream_buf = big_zalloc(STREAM_BUF);
			if (!r->stream_buf)
				return -ENOMEM;
		}
		st.cap = STREAM_BUF;
		st.buf = r->stream_buf;
	}
	r->nr_bad = 0;
	while (off < end) {
		const uint8_t *rec;

		if (end - off < 8 || !(rec = window(r, &st, off, 8))) {
			if (r->cut == PR_CUT_NONE)
				r->cut = PR_CUT_SHORT_FILE;
			break;
		}
		ev.type = pr_u32(r, rec);
		ev.misc = pr_u16(r, rec + 4);
		ev.size = pr_u16(r, rec + 6);
		if (ev.size < 8 || ev.size > end - off) {
			/* a record that does not fit: the writer stopped here */
			if (r->cut == PR_CUT_NONE)
				r->cut = ev.size >= 8 && end == r->len ? PR_CUT_SHORT_FILE
								       : PR_CUT_BAD_RECORD;
			break;
		}
		if (skipped(r, &ev)) {
			off += ev.size;
			continue;
		}
		/* the buffer has the record's header: most often the whole record too */
		if (st.buf && off - st.pos + ev.size > st.have)
			rec = window(r, &st, off, ev.size);
		if (!rec) {
			if (r->cut == PR_CUT_NONE)
				r->cut = PR_CUT_SHORT_FILE;
			break;
		}
		if (!st.buf && end - off > ev.size)
			prefetch_record(rec + ev.size, end - off - ev.size);
		if (ev.type == PR_RECORD_COMPRESSED || ev.type == PR_RECORD_COMPRESSED2) {
			err = compressed(r, &d, rec, ev.size, ev.type, off, fn, ctx);
			if (err == DECOMP_CORRUPT) {
				/* a corrupt stream: nothing after it can be read */
				if (r->cut == PR_CUT_NONE)
					r->cut = PR_CUT_BAD_RECORD;
				err = 0;
				break;
			}
		} else {
			err = one_record(r, &ev, rec, off, fn, ctx);
		}
		if (err)
			break;
		extra = pr_payload_size(r, rec, ev.type, ev.size);
		off += ev.size;
		if (extra > end - off) {
			/* the payload after the record is cut off */
			if (r->cut == PR_CUT_NONE)
				r->cut = end == r->len ? PR_CUT_SHORT_FILE : PR_CUT_BAD_RECORD;
			break;
		}
		off += extra; /* kept in the file for the tools that read it */
		if (!st.buf && r->mapped && off - st.pos > DROP_BEHIND) {
			uint64_t to = off & ~(uint64_t)(DROP_BEHIND - 1);

			/* the pages come back from the page cache if touched again */
			madvise((void *)(r->buf + st.pos), to - st.pos, MADV_DONTNEED);
			st.pos = to;
		}
	}
	decomp__release(&d);
	return err;
}

void perf_reader__skip_samples(struct perf_reader *r, bool skip)
{
	r->skip_samples = skip;
}
