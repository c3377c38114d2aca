/* SPDX-License-Identifier: GPL-2.0 */
/* strpool: interned strings; equal strings get the same pointer. */
#ifndef JREC_STRPOOL_H
#define JREC_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct strpool_chunk;

struct strpool {
	const char **slots;
	size_t nr; /* distinct strings interned: one more after a new one */
	size_t cap;
	struct strpool_chunk *chunks;
};

/* The interned copy of @s (@len bytes, no NUL needed), or NULL on ENOMEM. */
const char *strpool__intern(struct strpool *p, const char *s, size_t len);
const char *strpool__str(struct strpool *p, const char *s);
void strpool__release(struct strpool *p);

#endif
