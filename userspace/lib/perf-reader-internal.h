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

#endif
