/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable byte buffer: what the recorder collects for a feature section
 * (jmmap records, jitdump copies, timed perf-map lines) before it is written.
 */
#ifndef JREC_REC_BUF_H
#define JREC_REC_BUF_H

#include <stddef.h>
#include <stdint.h>

struct rec_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

#define REC_BUF_INIT                                                                               \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Make room for at least extra more bytes. 0 or -ENOMEM. */
int rec_buf__reserve(struct rec_buf *b, size_t extra);
/* Append len bytes. 0 or -ENOMEM. */
int rec_buf__append(struct rec_buf *b, const void *p, size_t len);
/* Append zero bytes until len is a multiple of align (a power of two). */
int rec_buf__pad(struct rec_buf *b, size_t align);
/* Append a u32 length (with NUL and padding to 64) and the string, as perf does. */
int rec_buf__append_perf_string(struct rec_buf *b, const char *s);
/* Forget the contents, keep nothing. NULL-safe. */
void rec_buf__release(struct rec_buf *b);

#endif
