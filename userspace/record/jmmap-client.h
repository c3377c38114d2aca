/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A jmmap session as the recorder uses it: open /dev/jmmap, check the ABI,
 * target the workload (or a pid, or the whole system), and read records into
 * a buffer that becomes the JREC_FEAT_JMMAP section. When the device cannot be
 * used, jmmap_client__open() fails with an errno and a one-line reason.
 */
#ifndef JREC_JMMAP_CLIENT_H
#define JREC_JMMAP_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "jmmap.h"
#include "buf.h"

struct jmmap_client {
	int fd;
	struct jmmap_version version;
	/*
	 * Whole records, as read: the first @spooled bytes in @spool_fd, the
	 * rest in @records (records.len bytes), followed in the same memory by
	 * @partial bytes of a record a read split (read() writes straight
	 * there, with no copy in between)
	 */
	int spool_fd;
	uint64_t spooled;
	struct buf records;
	size_t partial;
	/*
	 * The ring mapped (JMMAP_FEAT_MMAP_RING): its page, then @ring_size
	 * bytes of records; @ring_tail is where this reader is. NULL: read().
	 */
	struct jmmap_ring_page *ring;
	size_t ring_len;
	uint64_t ring_size, ring_tail;
	uint64_t nr_records;
	uint64_t nr_by_type[JMMAP_REC_MAX];
	uint64_t lost; /* summed from LOST records */
};

/*
 * Open the device at path (NULL: /dev/jmmap) and check its ABI. On failure,
 * reason gets one line: not loaded, no permission, ABI mismatch.
 */
int jmmap_client__open(const char *path, struct jmmap_client **out, char *reason,
		       size_t reason_len);

/*
 * Target pid (0 with system_wide) and its future descendants. snapshot 0
 * skips the SNAPSHOT records of what pid has mapped already (a workload
 * that has not exec'ed yet has only the recorder's own mappings). 0 or -errno.
 */
int jmmap_client__add_target(struct jmmap_client *s, uint32_t pid, int system_wide, int snapshot);

/*
 * Keep the records read in an unlinked file in @dir (the recording's
 * directory) once they pass JMMAP_CLIENT_SPOOL bytes, rather than in memory
 * that grows with the recording. Where the file cannot be made they stay in
 * memory. 0, or -errno when @dir cannot hold such a file.
 */
int jmmap_client__spool_in(struct jmmap_client *s, const char *dir);

/*
 * Read what is ready (the fd is non-blocking); each whole MMAP3 this read
 * added goes to @each (jmmap_reader__scan()) as the records are counted.
 * 0, -EINVAL for a record the module should never write, @each's error, or
 * -errno.
 */
struct jm_scan_mmap3;
int jmmap_client__read(struct jmmap_client *s, struct jm_scan_mmap3 *each);

/* Append every whole record read so far, in order, to @b. 0 or -errno. */
int jmmap_client__append_records(struct jmmap_client *s, struct buf *b);

/*
 * Ask the module how many records it dropped for this session since open
 * and raise s->lost to that if the LOST records seen so far say less (drops
 * since the last LOST record have not been reported in the stream yet).
 * 0 or -errno.
 */
int jmmap_client__sync_lost(struct jmmap_client *s);

void jmmap_client__free(struct jmmap_client *s);

#endif
