/* SPDX-License-Identifier: GPL-2.0 */
/* perf-reader's private state, shared by perf-reader.c and perf-records.c. */
#ifndef JREC_PERF_READER_INTERNAL_H
#define JREC_PERF_READER_INTERNAL_H

#include "bigalloc.h"
#include "buf.h"
#include "byteorder.h"
#include "perf-reader.h"

/* the data section is streamed through a buffer of this size */
#define STREAM_BUF (256u << 10)

/* perf-tool record types (not in the kernel's uapi header) that the reader looks into */
#define PR_RECORD_HEADER_ATTR 64
#define PR_RECORD_HEADER_TRACING_DATA 66 /* followed by its payload, outside header.size */
#define PR_RECORD_HEADER_BUILD_ID 67
#define PR_RECORD_AUXTRACE 71 /* followed by its payload (AUX area data), outside header.size */
#define PR_RECORD_EVENT_UPDATE 78
#define PR_RECORD_HEADER_FEATURE 80

struct pr_id_map {
	uint64_t id;
	const struct pr_attr *attr;
};

struct perf_reader {
	const uint8_t *buf;
	size_t len;
	int fd; /* the file, for streaming the data section; -1 for a caller's buffer */
	uint8_t *stream_buf; /* STREAM_BUF bytes from big_zalloc() */
	bool mapped;
	bool swapped;
	enum pr_cut cut;
	uint64_t nr_bad;
	uint64_t hdr_attr_size;
	struct perf_file_section attrs, data;
	struct perf_file_section private; /* header.event_types: jrec's table of sections */
	uint64_t features[PERF_FILE_FEAT_BITS / 64];
	struct perf_file_section feat[PERF_FILE_FEAT_BITS];
	struct buf unpacked[PERF_FILE_FEAT_BITS]; /* compressed private sections, decompressed */
	struct pr_attr *attrs_v;
	size_t nr_attrs;
	struct pr_id_map *ids;
	size_t nr_ids;
	bool skip_samples; /* pass only type, misc, size and time-less ids of samples */
	bool pipe; /* pipe mode: attrs and features came as records of the data (perf-pipe.c) */
};

static inline uint32_t pr_u32(const struct perf_reader *r, const void *p)
{
	return bo_u32(p, r->swapped);
}

static inline uint64_t pr_u64(const struct perf_reader *r, const void *p)
{
	return bo_u64(p, r->swapped);
}

static inline uint16_t pr_u16(const struct perf_reader *r, const void *p)
{
	return bo_u16(p, r->swapped);
}

bool pr_in_file(const struct perf_reader *r, uint64_t off, uint64_t len);
const struct pr_attr *pr_attr_by_id(const struct perf_reader *r, uint64_t id);
/* The attr at @p, of at most @asz bytes, into @a (its name made from type and config). */
int pr_parse_attr(struct perf_reader *r, const uint8_t *p, uint64_t asz, struct pr_attr *a);
/* Feature @id's bytes at @offset, @size bytes (compressed private ones unpacked). */
int pr_take_feature(struct perf_reader *r, unsigned int id, uint64_t offset, uint64_t size);
/* Sort the id map, nr_ids entries, for pr_attr_by_id(). */
void pr_sort_ids(struct perf_reader *r);
/* EVENT_DESC's names and GROUP_DESC's groups, into the attrs. */
void pr_read_event_names(struct perf_reader *r);
void pr_read_groups(struct perf_reader *r);
/*
 * The bytes that follow the record at @rec (@size bytes, of @type) outside
 * its header.size: an AUXTRACE record's AUX data, a TRACING_DATA record's
 * tracing data; 0 for every other record.
 */
uint64_t pr_payload_size(const struct perf_reader *r, const uint8_t *rec, uint32_t type,
			 uint16_t size);
/* perf-pipe.c: the header of a pipe-mode recording, from the records of its stream. */
int pr_setup_pipe(struct perf_reader *r, char *errbuf, size_t errlen);

#endif
