/* SPDX-License-Identifier: GPL-2.0 */
/* bytes: the unit tests' builder of binary input (records, dumps), in host byte order. */
#ifndef JREC_TEST_BYTES_H
#define JREC_TEST_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct bytes {
	uint8_t b[4096];
	size_t len;
};

/* Append @n bytes; a test that outgrows the buffer is a bug in the test: abort. */
static inline void bytes__put(struct bytes *d, const void *p, size_t n)
{
	if (n > sizeof(d->b) - d->len)
		abort();
	memcpy(d->b + d->len, p, n);
	d->len += n;
}

static inline void bytes__u32(struct bytes *d, uint32_t v)
{
	bytes__put(d, &v, 4);
}

static inline void bytes__u64(struct bytes *d, uint64_t v)
{
	bytes__put(d, &v, 8);
}

#endif
