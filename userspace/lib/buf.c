// SPDX-License-Identifier: GPL-2.0
/* Growable byte buffers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int buf__reserve(struct buf *b, size_t extra)
{
	size_t cap;
	uint8_t *p;

	if (extra > SIZE_MAX / 2 - b->len)
		return -ENOMEM;
	if (b->len + extra <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int buf__append(struct buf *b, const void *p, size_t len)
{
	int err;

	if (!len)
		return 0;
	err = buf__reserve(b, len);
	if (err)
		return err;
	memcpy(b->data + b->len, p, len);
	b->len += len;
	return 0;
}

int buf__append_zeros(struct buf *b, size_t n)
{
	int err;

	if (!n)
		return 0;
	err = buf__reserve(b, n);
	if (err)
		return err;
	memset(b->data + b->len, 0, n);
	b->len += n;
	return 0;
}

int buf__pad(struct buf *b, size_t align)
{
	return buf__append_zeros(b, (align - (b->len & (align - 1))) & (align - 1));
}

int buf__append_perf_string(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + 63) & ~(size_t)63);
	int err;

	err = buf__append(b, &len, sizeof(len));
	if (!err)
		err = buf__append(b, s, n);
	if (!err)
		err = buf__reserve(b, len - n);
	if (!err) {
		memset(b->data + b->len, 0, len - n);
		b->len += len - n;
	}
	return err;
}

void buf__release(struct buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
