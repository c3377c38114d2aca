// SPDX-License-Identifier: GPL-2.0
/* perf.data writer: see perf-writer.h for the layout and crash safety. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "fd-io.h"
#include "jrec-sections.h"
#include "perf-file.h"
#include "perf-writer.h"

#define WRITER_BUF_SIZE (256 * 1024)

/* perf's tool record type for compressed records, and its COMPRESSED feature's zstd */
#define PERF_RECORD_COMPRESSED 81
#define PERF_COMP_ZSTD 1
/*
 * With -z, records wait in a buffer of this size and are compressed when
 * flush() finds at least COMPRESSED_BATCH_MIN of them: zstd keeps less of
 * the stream's history across many small flushes.
 */
#define COMPRESSED_BUF_SIZE (512 * 1024)
#define COMPRESSED_BATCH_MIN (256 * 1024)
/* a COMPRESSED record's payload: what its u16 size leaves after the header */
#define COMPRESSED_PAYLOAD_MAX (UINT16_MAX - sizeof(struct perf_event_header))

struct writer_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name; /* for EVENT_DESC, or NULL */
	uint32_t nr_members; /* a group's leader: its events; else 0 */
};

struct perf_writer {
	struct perf_writer_buf b; /* first: perf_writer__reserve() reads it inline */
	int fd;
	struct perf_file_header hdr;
	struct writer_attr *attrs;
	size_t nr_attrs;
	struct buf feat[PERF_FILE_FEAT_BITS];
	uint64_t data_written; /* bytes of the data section already in the file */
	uint64_t file_size;
	int pipe; /* perf's pipe format, written in order */
	uint8_t sent[PERF_FILE_FEAT_BITS]; /* pipe: the features begin() wrote */
	ZSTD_CCtx *cctx; /* -z: the data section compressed */
	int level;
	uint8_t *zrec;   /* one COMPRESSED record being filled */
	uint64_t raw_bytes, comp_bytes;
};

static int flush_buf(struct perf_writer *w);
static int compressed_feature(struct perf_writer *w);
static int write_compressed(struct perf_writer *w, const void *p, size_t len,
			    ZSTD_EndDirective mode);

/* A writer on @fd (a pipe's when @pipe), its buffer allocated. 0 or -ENOMEM. */
static int writer_alloc(int fd, int pipe, struct perf_writer **out)
{
	struct perf_writer *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->b.cap = WRITER_BUF_SIZE;
	w->b.buf = malloc(w->b.cap);
	if (!w->b.buf) {
		free(w);
		return -ENOMEM;
	}
	/* touched now, as perf's ring is: not a page fault at a time while the workload runs */
	memset(w->b.buf, 0, w->b.cap);
	w->fd = fd;
	w->pipe = pipe;
	*out = w;
	return 0;
}

int perf_writer__new(const char *path, struct perf_writer **out)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), err;

	if (fd < 0)
		return -errno;
	err = writer_alloc(fd, 0, out);
	if (err)
		close(fd);
	return err;
}

int perf_writer__new_pipe(int fd, struct perf_writer **out)
{
	return writer_alloc(fd, 1, out);
}

int perf_writer__is_pipe(const struct perf_writer *w)
{
	return w->pipe;
}

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const uint64_t *ids, size_t nr_ids)
{
	struct writer_attr *a;

	if (w->b.begun)
		return -EBUSY;
	a = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(a->attr);
	if (nr_ids) {
		a->ids = calloc(nr_ids, sizeof(*ids));
		if (!a->ids)
			return -ENOMEM;
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	}
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

int perf_writer__name_attr(struct perf_writer *w, size_t idx, const char *name)
{
	char *n;

	if (idx >= w->nr_attrs)
		return -EINVAL;
	n = strdup(name);
	if (!n)
		return -ENOMEM;
	free(w->attrs[idx].name);
	w->attrs[idx].name = n;
	return 0;
}

int perf_writer__group(struct perf_writer *w, size_t leader, size_t nr_members)
{
	if (leader >= w->nr_attrs || nr_members < 2 || nr_members > w->nr_attrs - leader)
		return -EINVAL;
	w->attrs[leader].nr_members = (uint32_t)nr_members;
	return 0;
}

/*
 * perf's GROUP_DESC: the number of groups, then for each its name as a perf
 * string (perf's "{anon_group}" for a group without one), its leader's
 * index and its number of events.
 */
static int group_desc_feature(struct perf_writer *w)
{
	struct buf b = BUF_INIT;
	uint32_t nr = 0, v[2];
	size_t i;
	int err;

	for (i = 0; i < w->nr_attrs; i++)
		nr += w->attrs[i].nr_members > 1;
	if (!nr)
		return 0;
	err = buf__append(&b, &nr, sizeof(nr));
	for (i = 0; i < w->nr_attrs && !err; i++) {
		if (w->attrs[i].nr_members < 2)
			continue;
		v[0] = (uint32_t)i;
		v[1] = w->attrs[i].nr_members;
		err = buf__append_perf_string(&b, "{anon_group}");
		if (!err)
			err = buf__append(&b, v, sizeof(v));
	}
	if (!err)
		err = perf_writer__add_feature(w, PERF_FEAT_GROUP_DESC, &b);
	buf__release(&b);
	return err;
}

/*
 * perf's EVENT_DESC (read by perf-reader.c's read_event_names()): the
 * number of events and the attr size, then for each event its attr, the
 * number of its ids, its name as a perf string, and the ids. Events without
 * a name get the empty one, which readers keep their own name for.
 */
static int event_desc_feature(struct perf_writer *w)
{
	struct buf b = BUF_INIT;
	uint32_t nr = (uint32_t)w->nr_attrs, sz = sizeof(struct perf_event_attr), nids;
	size_t i;
	int err;

	err = buf__append(&b, &nr, sizeof(nr));
	if (!err)
		err = buf__append(&b, &sz, sizeof(sz));
	for (i = 0; i < w->nr_attrs && !err; i++) {
		const struct writer_attr *a = &w->attrs[i];

		nids = (uint32_t)a->nr_ids;
		err = buf__append(&b, &a->attr, sz);
		if (!err)
			err = buf__append(&b, &nids, sizeof(nids));
		if (!err)
			err = buf__append_perf_string(&b, a->name ? a->name : "");
		if (!err && nids)
			err = buf__append(&b, a->ids, nids * sizeof(*a->ids));
	}
	if (!err)
		err = perf_writer__add_feature(w, PERF_FEAT_EVENT_DESC, &b);
	buf__release(&b);
	return err;
}

static int write_header(struct perf_writer *w)
{
	return fd__pwrite_all(w->fd, &w->hdr, sizeof(w->hdr), 0);
}

/*
 * Pipe mode's start, as perf 6.1 writes it: the header, each attr with its
 * ids, the tracepoints' formats, then each feature queued so far (perf's;
 * BUILD_ID, known at the end, waits for finish()), the event names and
 * groups, and with -z the COMPRESSED feature.
 */
static int begin_pipe(struct perf_writer *w)
{
	uint64_t hdr[2] = { PERF_FILE_MAGIC, PERF_PIPE_HEADER_SIZE };
	struct perf_event_header h;
	size_t i;
	int err;

	err = fd__write_all(w->fd, hdr, sizeof(hdr));
	for (i = 0; i < w->nr_attrs && !err; i++) {
		size_t n = w->attrs[i].nr_ids * sizeof(uint64_t);

		h = (struct perf_event_header){ PERF_RECORD_HEADER_ATTR, 0,
						(uint16_t)(sizeof(h) + sizeof(w->attrs[i].attr) + n) };
		if (sizeof(h) + sizeof(w->attrs[i].attr) + n > UINT16_MAX)
			return -E2BIG;
		err = fd__write_all(w->fd, &h, sizeof(h));
		if (!err)
			err = fd__write_all(w->fd, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		if (!err && n)
			err = fd__write_all(w->fd, w->attrs[i].ids, n);
	}
	if (!err && w->feat[PERF_FEAT_TRACING_DATA].data) {
		/* its payload follows the 16-byte record, its size and itself padded to 8 */
		const struct buf *t = &w->feat[PERF_FEAT_TRACING_DATA];
		struct {
			struct perf_event_header h;
			uint32_t size, pad;
		} rec = { { PERF_RECORD_HEADER_TRACING_DATA, 0, sizeof(rec) },
			  (uint32_t)((t->len + 7) & ~(size_t)7), 0 };
		static const uint8_t zeros[8];

		err = fd__write_all(w->fd, &rec, sizeof(rec));
		if (!err)
			err = fd__write_all(w->fd, t->data, t->len);
		if (!err)
			err = fd__write_all(w->fd, zeros, (8 - t->len % 8) % 8);
		w->sent[PERF_FEAT_TRACING_DATA] = 1;
	}
	for (i = 0; i < w->nr_attrs && !err; i++) {
		if (w->attrs[i].name && !w->feat[PERF_FEAT_EVENT_DESC].data)
			err = event_desc_feature(w);
	}
	if (!err && !w->feat[PERF_FEAT_GROUP_DESC].data)
		err = group_desc_feature(w);
	/* -z: perf decompresses by what this says, at the start (its ratio unknown yet) */
	if (!err && w->cctx && !w->feat[PERF_FEAT_COMPRESSED].data)
		err = compressed_feature(w);
	for (i = 1; i < JREC_FEAT_FIRST && !err; i++) {
		const struct buf *f = &w->feat[i];
		uint64_t id = i;

		if (!f->data || w->sent[i] || i == PERF_FEAT_BUILD_ID)
			continue;
		if (sizeof(h) + sizeof(id) + f->len > UINT16_MAX)
			continue; /* too big for a record: sent at the end as jrec's */
		h = (struct perf_event_header){ PERF_RECORD_HEADER_FEATURE, 0,
						(uint16_t)(sizeof(h) + sizeof(id) + f->len) };
		err = fd__write_all(w->fd, &h, sizeof(h));
		if (!err)
			err = fd__write_all(w->fd, &id, sizeof(id));
		if (!err)
			err = fd__write_all(w->fd, f->data, f->len);
		w->sent[i] = 1;
	}
	w->b.begun = !err;
	return err;
}

int perf_writer__finished_init(struct perf_writer *w)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_INIT, 0, sizeof(h) };

	return w->pipe ? perf_writer__write(w, &h, sizeof(h)) : 0;
}

static int flush_buf(struct perf_writer *w);

/*
 * Pipe mode's end: the records still buffered (with -z the last batch, which
 * ends the zstd frame), then the sections not sent yet, in
 * jrec_pipe_section pieces.
 */
static int finish_pipe(struct perf_writer *w)
{
	static const uint8_t zeros[8];
	unsigned int i;
	int err = 0;

	if (w->cctx && w->b.len) {
		err = write_compressed(w, w->b.buf, w->b.len, ZSTD_e_end);
		w->b.len = 0;
	}
	if (!err)
		err = flush_buf(w);

	for (i = 1; i < PERF_FILE_FEAT_BITS && !err; i++) {
		const struct buf *f = &w->feat[i];
		uint64_t off = 0;

		if (!f->data || w->sent[i])
			continue;
		do {
			size_t n = f->len - off < JREC_PIPE_SECTION_PIECE ? f->len - off
									  : JREC_PIPE_SECTION_PIECE;
			size_t pad = (8 - n % 8) % 8;
			struct jrec_pipe_section p = {
				{ PERF_RECORD_HEADER_EVENT_TYPE, 0, (uint16_t)(sizeof(p) + n + pad) },
				JREC_PIPE_SECTION_MAGIC, (uint16_t)i, 0, off, f->len
			};

			err = fd__write_all(w->fd, &p, sizeof(p));
			if (!err)
				err = fd__write_all(w->fd, f->data + off, n);
			if (!err)
				err = fd__write_all(w->fd, zeros, pad);
			off += n;
		} while (!err && off < f->len);
		w->sent[i] = 1;
	}
	return err;
}

int perf_writer__begin(struct perf_writer *w)
{
	uint64_t off, ids_off;
	size_t i;
	int err;

	if (w->b.begun)
		return -EBUSY;
	if (w->pipe)
		return begin_pipe(w);
	w->hdr.magic = PERF_FILE_MAGIC;
	w->hdr.size = sizeof(w->hdr);
	w->hdr.attr_size = sizeof(struct perf_file_attr);

	/* header | id arrays | attrs | data, as perf lays it out */
	ids_off = sizeof(w->hdr);
	off = ids_off;
	for (i = 0; i < w->nr_attrs; i++)
		off += w->attrs[i].nr_ids * sizeof(uint64_t);
	w->hdr.attrs.offset = off;
	w->hdr.attrs.size = w->nr_attrs * sizeof(struct perf_file_attr);
	off += w->hdr.attrs.size;
	w->hdr.data.offset = off;
	w->hdr.data.size = 0;

	for (i = 0; i < w->nr_attrs; i++) {
		struct perf_file_attr fa;
		size_t n = w->attrs[i].nr_ids * sizeof(uint64_t);

		memset(&fa, 0, sizeof(fa));
		fa.attr = w->attrs[i].attr;
		fa.ids.offset = ids_off;
		fa.ids.size = n;
		err = fd__pwrite_all(w->fd, w->attrs[i].ids, n, ids_off);
		if (err)
			return err;
		err = fd__pwrite_all(w->fd, &fa, sizeof(fa),
				 w->hdr.attrs.offset + i * sizeof(struct perf_file_attr));
		if (err)
			return err;
		ids_off += n;
	}
	err = write_header(w);
	if (err)
		return err;
	w->file_size = w->hdr.data.offset;
	w->b.begun = 1;
	return 0;
}

/* @len bytes at the end of the data section, as they are. */
static int write_raw(struct perf_writer *w, const void *p, size_t len)
{
	int err = w->pipe ? fd__write_all(w->fd, p, len)
			  : fd__pwrite_all(w->fd, p, len, w->hdr.data.offset + w->data_written);

	if (err)
		return err;
	w->data_written += len;
	w->file_size = w->hdr.data.offset + w->data_written;
	return 0;
}

/*
 * @len bytes of records into the zstd stream, flushed into COMPRESSED
 * records (@mode ZSTD_e_flush), or the frame ended (ZSTD_e_end). One stream
 * for the whole data section, as perf writes it: each batch compresses with
 * the ones before it as its history.
 */
static int write_compressed(struct perf_writer *w, const void *p, size_t len,
			    ZSTD_EndDirective mode)
{
	ZSTD_inBuffer in = {p, len, 0};
	size_t left;
	int err;

	w->raw_bytes += len;
	do {
		struct perf_event_header h = {PERF_RECORD_COMPRESSED, 0, 0};
		ZSTD_outBuffer out = {w->zrec + sizeof(h), COMPRESSED_PAYLOAD_MAX, 0};

		left = ZSTD_compressStream2(w->cctx, &out, &in, mode);
		if (ZSTD_isError(left))
			return -EIO;
		if (!out.pos)
			continue;
		h.size = (uint16_t)(sizeof(h) + out.pos);
		memcpy(w->zrec, &h, sizeof(h));
		err = write_raw(w, w->zrec, h.size);
		if (err)
			return err;
		w->comp_bytes += h.size;
	} while (left);
	return 0;
}

static int write_data(struct perf_writer *w, const void *p, size_t len)
{
	return w->cctx ? write_compressed(w, p, len, ZSTD_e_flush) : write_raw(w, p, len);
}

static int flush_buf(struct perf_writer *w)
{
	int err;

	if (!w->b.len)
		return 0;
	err = write_data(w, w->b.buf, w->b.len);
	if (err)
		return err;
	w->b.len = 0;
	return 0;
}

int perf_writer__write(struct perf_writer *w, const void *rec, size_t len)
{
	int err;

	if (!w->b.begun)
		return -EINVAL;
	if (len > w->b.cap - w->b.len) {
		err = flush_buf(w);
		if (err)
			return err;
		if (len > w->b.cap)
			return write_data(w, rec, len);
	}
	memcpy(w->b.buf + w->b.len, rec, len);
	w->b.len += len;
	return 0;
}

int perf_writer__reserve_flush(struct perf_writer *w, size_t len, void **room)
{
	int err;

	if (!w->b.begun || len > UINT16_MAX)
		return -EINVAL;
	if (len > w->b.cap - w->b.len) {
		err = flush_buf(w);
		if (err)
			return err;
	}
	*room = w->b.buf + w->b.len;
	return 0;
}

int perf_writer__set_compression(struct perf_writer *w, int level)
{
	if (w->b.begun || level < 1 || level > ZSTD_maxCLevel())
		return -EINVAL;
	if (w->b.cap < COMPRESSED_BUF_SIZE) {
		uint8_t *b = realloc(w->b.buf, COMPRESSED_BUF_SIZE);

		if (!b)
			return -ENOMEM;
		w->b.buf = b;
		w->b.cap = COMPRESSED_BUF_SIZE;
	}
	if (!w->zrec)
		w->zrec = malloc(UINT16_MAX);
	if (!w->cctx)
		w->cctx = ZSTD_createCCtx();
	if (!w->zrec || !w->cctx)
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, level)))
		return -EINVAL;
	w->level = level;
	return 0;
}

void perf_writer__compression(const struct perf_writer *w, uint64_t *raw, uint64_t *compressed)
{
	*raw = w->raw_bytes;
	*compressed = w->comp_bytes;
}

/*
 * perf's COMPRESSED feature: version 0, type zstd, level, ratio, and the
 * most bytes one COMPRESSED record decompresses to (perf sizes its buffer
 * by it): a batch is at most the buffer.
 */
static int compressed_feature(struct perf_writer *w)
{
	struct buf b = BUF_INIT;
	uint32_t v[5] = {0, PERF_COMP_ZSTD, (uint32_t)w->level,
			 (uint32_t)(w->comp_bytes ? w->raw_bytes / w->comp_bytes : 0),
			 (uint32_t)w->b.cap};
	int err = buf__append(&b, v, sizeof(v));

	if (!err)
		err = perf_writer__add_feature(w, PERF_FEAT_COMPRESSED, &b);
	buf__release(&b);
	return err;
}

int perf_writer__flush(struct perf_writer *w)
{
	int err;

	if (!w->b.begun)
		return -EINVAL;
	/* with -z, small batches would cost more than they keep: they wait */
	err = w->cctx && w->b.len < COMPRESSED_BATCH_MIN ? 0 : flush_buf(w);
	if (err || w->pipe)
		return err;
	if (w->hdr.data.size == w->data_written)
		return 0;
	/* Records first, then the size that covers them. */
	w->hdr.data.size = w->data_written;
	return fd__pwrite_all(w->fd, &w->hdr.data, sizeof(w->hdr.data),
			  offsetof(struct perf_file_header, data));
}

int perf_writer__add_feature(struct perf_writer *w, unsigned int id, struct buf *b)
{
	if (id == 0 || id >= PERF_FILE_FEAT_BITS)
		return -EINVAL;
	if (w->feat[id].data)
		return -EEXIST;
	w->feat[id] = *b;
	if (!w->feat[id].data) {
		/* an empty section still gets announced */
		if (buf__reserve(&w->feat[id], 1))
			return -ENOMEM;
	}
	b->data = NULL;
	b->len = b->cap = 0;
	return 0;
}

/*
 * Write each queued section of an id in [@from, @to) at *@off, in id order,
 * and its place in @secs[] (one a section, in the same order). *@off moves
 * past them.
 */
static int write_sections(struct perf_writer *w, unsigned int from, unsigned int to,
			  struct perf_file_section *secs, uint64_t *off)
{
	unsigned int i;
	int err;

	for (i = from; i < to; i++) {
		if (!w->feat[i].data)
			continue;
		secs->offset = *off;
		secs->size = w->feat[i].len;
		err = fd__pwrite_all(w->fd, w->feat[i].data, w->feat[i].len, *off);
		if (err)
			return err;
		*off += w->feat[i].len;
		secs++;
	}
	return 0;
}

/*
 * After perf's feature sections (@off): jrec's private ones, then the table
 * of them (8-aligned) that header.event_types points at. *@off moves past
 * it all; nothing is written when there is no private section.
 */
static int write_private(struct perf_writer *w, uint64_t *off)
{
	struct perf_file_section secs[PERF_FILE_FEAT_BITS - JREC_FEAT_FIRST];
	struct jrec_section_ref refs[PERF_FILE_FEAT_BITS - JREC_FEAT_FIRST];
	struct buf t = BUF_INIT;
	uint32_t nr = 0;
	unsigned int i;
	int err;

	memset(refs, 0, sizeof(refs));
	for (i = JREC_FEAT_FIRST; i < PERF_FILE_FEAT_BITS; i++)
		if (w->feat[i].data)
			refs[nr++].id = i;
	if (!nr)
		return 0;
	err = write_sections(w, JREC_FEAT_FIRST, PERF_FILE_FEAT_BITS, secs, off);
	for (i = 0; i < nr; i++)
		refs[i].sec = secs[i];
	if (!err)
		err = jrec_section_table__emit(&t, refs, nr);
	if (!err) {
		*off = (*off + 7) & ~7ULL;
		err = fd__pwrite_all(w->fd, t.data, t.len, *off);
	}
	if (!err) {
		w->hdr.event_types.offset = *off;
		w->hdr.event_types.size = t.len;
		*off += t.len;
	}
	buf__release(&t);
	return err;
}

int perf_writer__finish(struct perf_writer *w)
{
	struct perf_file_section *sec = NULL;
	uint64_t features[PERF_FILE_FEAT_BITS / 64] = {0};
	uint64_t table_off, off;
	size_t nr = 0, i;
	int err;

	if (w->pipe)
		return w->b.begun ? finish_pipe(w) : -EINVAL;
	if (w->cctx && w->b.begun && w->b.len) {
		/*
		 * The last batch ends the stream's frame. Never a record of the
		 * frame's end alone: perf takes one that decompresses to nothing
		 * for an error.
		 */
		err = write_compressed(w, w->b.buf, w->b.len, ZSTD_e_end);
		if (err)
			return err;
		w->b.len = 0;
	}
	err = perf_writer__flush(w);
	if (!err && w->cctx && !w->feat[PERF_FEAT_COMPRESSED].data)
		err = compressed_feature(w);
	for (i = 0; i < w->nr_attrs && !err; i++) {
		if (w->attrs[i].name && !w->feat[PERF_FEAT_EVENT_DESC].data) {
			err = event_desc_feature(w);
			break;
		}
	}
	if (!err && !w->feat[PERF_FEAT_GROUP_DESC].data)
		err = group_desc_feature(w);
	if (err)
		return err;
	/* perf's feature bitmap announces perf's ids only (see JREC_FEAT_FIRST) */
	for (i = 1; i < JREC_FEAT_FIRST; i++) {
		if (!w->feat[i].data)
			continue;
		features[i / 64] |= 1ULL << (i % 64);
		nr++;
	}
	table_off = w->hdr.data.offset + w->hdr.data.size;
	off = table_off + nr * sizeof(*sec);
	if (nr) {
		sec = calloc(nr, sizeof(*sec));
		if (!sec)
			return -ENOMEM;
	}
	err = write_sections(w, 1, JREC_FEAT_FIRST, sec, &off);
	if (!err)
		err = fd__pwrite_all(w->fd, sec, nr * sizeof(*sec), table_off);
	if (!err)
		err = write_private(w, &off);
	if (err)
		goto out;
	/* drop bytes of an unfinished batch; not possible (EINVAL) on a device */
	if (ftruncate(w->fd, (off_t)off) && errno != EINVAL) {
		err = -errno;
		goto out;
	}
	/* Sections are complete on disk before the header announces them. */
	if (fdatasync(w->fd) && errno != EINVAL) {
		err = -errno;
		goto out;
	}
	memcpy(w->hdr.adds_features, features, sizeof(features));
	err = write_header(w);
	if (err)
		goto out;
	w->file_size = off;
out:
	free(sec);
	return err;
}

uint64_t perf_writer__data_size(const struct perf_writer *w)
{
	return w->data_written + w->b.len;
}

uint64_t perf_writer__file_size(const struct perf_writer *w)
{
	return w->file_size;
}

void perf_writer__free(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	if (w->fd >= 0 && !w->pipe)
		close(w->fd);
	for (i = 0; i < w->nr_attrs; i++)
	{
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++)
		buf__release(&w->feat[i]);
	free(w->b.buf);
	free(w->zrec);
	ZSTD_freeCCtx(w->cctx);
	free(w);
}
