/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data writer: header, attributes with their sample ids, a data section
 * of standard records appended as they come, and feature sections at the end.
 *
 * Crash safety: every perf_writer__flush() writes the buffered records and
 * then rewrites header.data.size, so a writer killed at any point leaves a
 * file whose header covers every record flushed before the last header update
 * and whose feature bitmap is empty (features are written, and announced in
 * the header, only by perf_writer__finish()). A reader tells a recording cut
 * short by the missing JREC_FEAT_INFO section.
 */
#ifndef JREC_PERF_WRITER_H
#define JREC_PERF_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "buf.h"

struct perf_writer;

/*
 * The writer's buffer of records not yet written: the first member of
 * struct perf_writer, read by perf_writer__reserve() and
 * perf_writer__commit() inline, since every record goes through them.
 * Nothing else of the writer's is public.
 */
struct perf_writer_buf {
	uint8_t *buf;
	size_t len, cap;
	int begun; /* perf_writer__begin() done */
};

/* Create path (mode 0600, truncated). 0 or -errno. */
int perf_writer__new(const char *path, struct perf_writer **out);

/*
 * Write perf's pipe format to @fd (perf record -o -; perf-file.h): begin()
 * writes the header, the attributes, and the features queued before it
 * (perf's, but BUILD_ID) as perf writes them at the start; the sections
 * queued after it are written by finish() as jrec_pipe_section records.
 * With compression, COMPRESSED is sent at the start with a ratio of 0, as
 * perf's pipe has it. The fd is not closed by perf_writer__free(). 0 or -errno.
 */
int perf_writer__new_pipe(int fd, struct perf_writer **out);

/* Pipe mode: the end of the synthesized records (FINISHED_INIT). 0 or -errno; else nothing. */
int perf_writer__finished_init(struct perf_writer *w);

/* Whether the writer writes a pipe. */
int perf_writer__is_pipe(const struct perf_writer *w);

/* Add an attribute and the ids of its events, before perf_writer__begin(). */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const uint64_t *ids, size_t nr_ids);

/*
 * Name attribute @idx (in the order added) as perf record names an event
 * in its EVENT_DESC section ("cpu-clock:u"), which perf's tools show
 * instead of a name made from the attribute. Written by finish() when any
 * attribute has a name. 0, -EINVAL or -ENOMEM.
 */
int perf_writer__name_attr(struct perf_writer *w, size_t idx, const char *name);

/*
 * Make attribute @leader (in the order added) lead a group of @nr_members
 * (itself and the ones added after it), as perf's GROUP_DESC says of
 * `-e '{a,b}'`: written by finish() when there is a group. 0 or -EINVAL.
 */
int perf_writer__group(struct perf_writer *w, size_t leader, size_t nr_members);

/*
 * Compress the data section as `perf record -z` does, at zstd @level
 * (1..22), before perf_writer__begin(): the records go into one zstd
 * stream, flushed into PERF_RECORD_COMPRESSED records by a flush() that
 * has at least 256 KiB of records buffered (so a file cut short is readable
 * up to its last such batch), and by finish(), which ends the stream's frame
 * and adds the COMPRESSED feature.
 * 0, -EINVAL or -ENOMEM.
 */
int perf_writer__set_compression(struct perf_writer *w, int level);
/* With compression: bytes of records given and bytes they took in the file. */
void perf_writer__compression(const struct perf_writer *w, uint64_t *raw, uint64_t *compressed);

/* Write header, attributes and ids; records may follow. 0 or -errno. */
int perf_writer__begin(struct perf_writer *w);

/* Append one record (header.size bytes at rec) to the data section. */
int perf_writer__write(struct perf_writer *w, const void *rec, size_t len);
/*
 * Room for a record of @len bytes (at most 64 KiB) at the data section's
 * end, into which the caller writes it before it calls anything else of the
 * writer's; perf_writer__commit() then appends it, or the first bytes of
 * it (a record built by a fixed-size copy larger than itself). 0 or -errno.
 * perf_writer__reserve_flush() is its way when the buffer has no room: what
 * it holds is written first.
 */
int perf_writer__reserve_flush(struct perf_writer *w, size_t len, void **room);
static inline const struct perf_writer_buf *perf_writer__buf(const struct perf_writer *w)
{
	return (const struct perf_writer_buf *)w;
}

static inline int perf_writer__reserve(struct perf_writer *w, size_t len, void **room)
{
	const struct perf_writer_buf *b = perf_writer__buf(w);

	if (b->begun && len <= b->cap - b->len && len <= UINT16_MAX) {
		*room = b->buf + b->len;
		return 0;
	}
	return perf_writer__reserve_flush(w, len, room);
}

static inline void perf_writer__commit(struct perf_writer *w, size_t len)
{
	((struct perf_writer_buf *)w)->len += len;
}

/* Write what is buffered and update header.data.size. 0 or -errno. */
int perf_writer__flush(struct perf_writer *w);

/*
 * Queue a feature section; the writer takes the buffer's contents (b is left
 * empty). Written by perf_writer__finish() in id order. Each id once. An id
 * of jrec's (JREC_FEAT_FIRST and up) is not announced in the feature bitmap
 * but in the table of private sections after perf's (perf-file.h).
 */
int perf_writer__add_feature(struct perf_writer *w, unsigned int id, struct buf *b);

/* Flush, write the feature sections, then the final header. 0 or -errno. */
int perf_writer__finish(struct perf_writer *w);

/* Bytes of data section written so far (flushed or buffered). */
uint64_t perf_writer__data_size(const struct perf_writer *w);
/* Total bytes in the file after finish (or so far). */
uint64_t perf_writer__file_size(const struct perf_writer *w);

/* Close the file (without finishing) and free. NULL-safe. */
void perf_writer__free(struct perf_writer *w);

#endif
