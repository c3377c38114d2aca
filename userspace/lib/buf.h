/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buf: a growable byte buffer, for whatever builds bytes before they go
 * somewhere: a feature section, a file read whole, an incomplete line.
 */
#ifndef JREC_BUF_H
#define JREC_BUF_H

#include <stddef.h>
#include <stdint.h>

struct buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT                                                                                   \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Make room for at least extra more bytes. 0 or -ENOMEM. */
int buf__reserve(struct buf *b, size_t extra);
/* Append len bytes. 0 or -ENOMEM. */
int buf__append(struct buf *b, const void *p, size_t len);
/* Append n zero bytes. 0 or -ENOMEM. */
int buf__append_zeros(struct buf *b, size_t n);
/* Append zero bytes until len is a multiple of align (a power of two). */
int buf__pad(struct buf *b, size_t align);
/* Append a u32 length (with NUL and padding to 64) and the string, as perf does. */
int buf__append_perf_string(struct buf *b, const char *s);
/* Forget the contents, keep nothing. NULL-safe. */
void buf__release(struct buf *b);

#endif
