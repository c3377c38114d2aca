// SPDX-License-Identifier: GPL-2.0
/*
 * perf-pipe: the header of a pipe-mode perf.data (`perf record -o -`),
 * whose 16-byte file header is followed by records only. What a file's
 * header sections hold comes as records of the stream, before the samples
 * that need them:
 *
 *   HEADER_ATTR      an event's perf_event_attr (attr.size bytes), then its ids
 *   HEADER_FEATURE   u64 feature id, then the bytes of that feature section
 *   HEADER_BUILD_ID  one entry of the BUILD_ID feature, in the same layout
 *   HEADER_TRACING_DATA  u32 size, then that many bytes after the record: the
 *                    TRACING_DATA feature (the tracepoints' formats)
 *   EVENT_UPDATE     u64 kind, u64 id, then data: kind 2 is the event's name
 *   HEADER_EVENT_TYPE with the "JRPS" magic (struct jrec_pipe_section): a
 *                    piece of a section that `jrec record -o -` wrote at the
 *                    end (BUILD_ID, jrec's own), the pieces in order
 *
 * The whole stream is in the reader's buffer (a pipe read from standard
 * input was spooled first), so these are gathered in one walk at open time;
 * the data section is everything after the header and the record walk of
 * perf-records.c passes these records on like any of a type it does not
 * decode. A stream that ends inside a record is cut short there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jrec-sections.h"
#include "perf-reader-internal.h"

#define PR_EVENT_UPDATE_NAME 2
#define PIPE_MAX_ATTRS 4096
#define PIPE_MAX_IDS (1u << 22)

/* The next record at @off of the stream: its type and size, and where the one after starts. */
static bool next_record(const struct perf_reader *r, uint64_t off, uint32_t *type,
			uint16_t *size, uint64_t *next)
{
	const uint8_t *rec = r->buf + off;
	uint64_t extra;

	if (!pr_in_file(r, off, 8))
		return false;
	*type = pr_u32(r, rec);
	*size = pr_u16(r, rec + 6);
	if (*size < 8 || !pr_in_file(r, off, *size))
		return false;
	extra = pr_payload_size(r, rec, *type, *size);
	if (extra > r->len - off - *size)
		return false;
	*next = off + *size + extra;
	return true;
}

/* An attr record's attr size and id count; false when they do not fit the record. */
static bool attr_record(const struct perf_reader *r, const uint8_t *rec, uint16_t size,
			uint32_t *asz, uint64_t *nids)
{
	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return false;
	*asz = pr_u32(r, rec + 8 + 4);
	if (*asz < PERF_ATTR_SIZE_VER0 || *asz > size - 8u)
		return false;
	*nids = (size - 8u - *asz) / 8;
	return true;
}

/* The name of EVENT_UPDATE's kind 2 for the event of its id. */
static void event_update(struct perf_reader *r, const uint8_t *rec, uint16_t size)
{
	const struct pr_attr *a;
	const char *name = (const char *)rec + 24;

	if (size <= 24 || pr_u64(r, rec + 8) != PR_EVENT_UPDATE_NAME)
		return;
	a = pr_attr_by_id(r, pr_u64(r, rec + 16));
	if (a && memchr(name, 0, size - 24u) && name[0])
		snprintf(r->attrs_v[a - r->attrs_v].name, sizeof(a->name), "%s", name);
}

/* HEADER_BUILD_ID records, gathered as the BUILD_ID feature's bytes. */
static int add_build_id(struct perf_reader *r, const uint8_t *rec, uint16_t size)
{
	struct buf *b = &r->unpacked[PERF_FEAT_BUILD_ID];
	int err;

	if (size < sizeof(struct perf_file_build_id))
		return 0;
	err = buf__append(b, rec, size);
	if (err)
		return err;
	r->feat[PERF_FEAT_BUILD_ID].offset = 0;
	r->feat[PERF_FEAT_BUILD_ID].size = b->len;
	return 0;
}

/*
 * The sections that `jrec record -o -` writes at the end (BUILD_ID, jrec's
 * own) come in JRPS pieces (struct jrec_pipe_section), in order: each one's
 * bytes appended here. A piece that does not follow on from the one before
 * (lost, repeated, another total) leaves its section out, as a corrupt
 * section of a file is left out; so does a section whose pieces stop short.
 */
#define PIPE_SECTION_MAX (1ull << 32)

struct pipe_pieces {
	struct buf sec[PERF_FILE_FEAT_BITS];
	uint64_t total[PERF_FILE_FEAT_BITS];
	bool bad[PERF_FILE_FEAT_BITS];
};

static void add_piece(struct perf_reader *r, const uint8_t *rec, uint16_t size,
		      struct pipe_pieces *p)
{
	const size_t hdr = sizeof(struct jrec_pipe_section);
	uint64_t off, total, n;
	uint32_t id;

	if (size < hdr || pr_u32(r, rec + 8) != JREC_PIPE_SECTION_MAGIC)
		return; /* another writer's event types: not jrec's */
	id = pr_u16(r, rec + 12);
	off = pr_u64(r, rec + 16);
	total = pr_u64(r, rec + 24);
	if (id >= PERF_FILE_FEAT_BITS || p->bad[id])
		return;
	if (!off)
		p->total[id] = total;
	if (total > PIPE_SECTION_MAX || total != p->total[id] || off != p->sec[id].len ||
	    off >= total) {
		p->bad[id] = true;
		return;
	}
	n = total - off < size - hdr ? total - off : size - hdr;
	if (buf__append(&p->sec[id], rec + hdr, (size_t)n))
		p->bad[id] = true;
}

/* The whole sections the pieces made, taken as the stream's feature sections. 0 or -ENOMEM. */
static int take_pieces(struct perf_reader *r, struct pipe_pieces *p)
{
	unsigned int id;
	int err;

	for (id = 0; id < PERF_FILE_FEAT_BITS; id++) {
		struct buf plain = BUF_INIT;

		/* HEADER_BUILD_ID records (perf's way) come first */
		if (!p->sec[id].len || p->bad[id] || p->sec[id].len != p->total[id] ||
		    (id == PERF_FEAT_BUILD_ID && r->unpacked[id].len))
			continue;
		/* a compressed private section is kept in its plain form, as a file's is */
		if (id >= JREC_FEAT_FIRST) {
			err = jrec_section__decompress(p->sec[id].data, p->sec[id].len, r->swapped,
						       id, &plain);
			if (err == -ENOMEM)
				return err;
			if (err < 0)
				continue;
			if (err > 0) {
				buf__release(&p->sec[id]);
				p->sec[id] = plain;
			}
		}
		buf__release(&r->unpacked[id]);
		r->unpacked[id] = p->sec[id];
		memset(&p->sec[id], 0, sizeof(p->sec[id]));
		r->features[id / 64] |= 1ULL << (id % 64);
		r->feat[id].offset = 0;
		r->feat[id].size = r->unpacked[id].len;
	}
	return 0;
}

static void pipe_pieces__free(struct pipe_pieces *p)
{
	unsigned int id;

	if (!p)
		return;
	for (id = 0; id < PERF_FILE_FEAT_BITS; id++)
		buf__release(&p->sec[id]);
	free(p);
}

int pr_setup_pipe(struct perf_reader *r, char *errbuf, size_t errlen)
{
	uint64_t off, next, nattrs = 0, nids = 0, n;
	struct pipe_pieces *pieces;
	uint32_t type, asz;
	uint16_t size;
	size_t ai = 0;
	int err = 0;

	r->pipe = true;
	r->data.offset = 16;
	r->data.size = r->len - 16;
	/* count the attrs and ids, then take them, the features and the names */
	for (off = 16; next_record(r, off, &type, &size, &next); off = next) {
		if (type == PR_RECORD_HEADER_ATTR && attr_record(r, r->buf + off, size, &asz, &n)) {
			nattrs++;
			nids += n;
		}
	}
	if (!nattrs || nattrs > PIPE_MAX_ATTRS || nids > PIPE_MAX_IDS) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "corrupt pipe-mode recording: %llu event attributes",
				 (unsigned long long)nattrs);
		return -EBADMSG;
	}
	r->attrs_v = calloc(nattrs, sizeof(*r->attrs_v));
	r->ids = calloc(nids ? nids : 1, sizeof(*r->ids));
	pieces = calloc(1, sizeof(*pieces));
	if (!r->attrs_v || !r->ids || !pieces) {
		free(pieces);
		return -ENOMEM;
	}
	for (off = 16; next_record(r, off, &type, &size, &next); off = next) {
		const uint8_t *rec = r->buf + off;
		uint64_t k;

		switch (type) {
		case PR_RECORD_HEADER_ATTR:
			if (!attr_record(r, rec, size, &asz, &n) ||
			    pr_parse_attr(r, rec + 8, asz, &r->attrs_v[ai]))
				break;
			for (k = 0; k < n; k++) {
				r->ids[r->nr_ids].id = pr_u64(r, rec + 8 + asz + k * 8);
				r->ids[r->nr_ids++].attr = &r->attrs_v[ai];
			}
			ai++;
			break;
		case PR_RECORD_HEADER_FEATURE:
			if (size < 16)
				break;
			n = pr_u64(r, rec + 8);
			if (n < PERF_FILE_FEAT_BITS && n != PERF_FEAT_BUILD_ID) {
				r->features[n / 64] |= 1ULL << (n % 64);
				err = pr_take_feature(r, (unsigned int)n, off + 16, size - 16u);
			}
			break;
		case PR_RECORD_HEADER_BUILD_ID:
			err = add_build_id(r, rec, size);
			break;
		case PR_RECORD_HEADER_TRACING_DATA:
			/* the tracepoints' formats follow the record: the TRACING_DATA feature */
			r->features[PERF_FEAT_TRACING_DATA / 64] |= 1ULL << PERF_FEAT_TRACING_DATA;
			err = pr_take_feature(r, PERF_FEAT_TRACING_DATA, off + size, next - off - size);
			break;
		case PERF_RECORD_HEADER_EVENT_TYPE:
			add_piece(r, rec, size, pieces);
			break;
		default:
			break;
		}
		if (err)
			break;
	}
	if (!err)
		err = take_pieces(r, pieces);
	pipe_pieces__free(pieces);
	if (err)
		return err;
	r->nr_attrs = ai;
	if (!r->nr_attrs) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "corrupt pipe-mode recording: no readable event "
						 "attribute");
		return -EBADMSG;
	}
	pr_sort_ids(r);
	/* names: EVENT_DESC's where a feature record carried it, then EVENT_UPDATE's */
	pr_read_event_names(r);
	pr_read_groups(r);
	for (off = 16; next_record(r, off, &type, &size, &next); off = next)
		if (type == PR_RECORD_EVENT_UPDATE)
			event_update(r, r->buf + off, size);
	return 0;
}
