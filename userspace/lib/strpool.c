// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strpool.h"

#define CHUNK 65536

struct strpool_chunk {
	struct strpool_chunk *next;
	size_t used, size;
	char data[];
};

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--) {
		h ^= (uint8_t)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static char *alloc(struct strpool *p, size_t n)
{
	struct strpool_chunk *c = p->chunks;

	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK ? n : CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = p->chunks;
		p->chunks = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

static int grow(struct strpool *p)
{
	size_t cap = p->cap ? p->cap * 2 : 1024, i;
	const char **n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < p->cap; i++) {
		size_t j;

		if (!p->slots[i])
			continue;
		for (j = hash(p->slots[i], strlen(p->slots[i])) & (cap - 1); n[j];
		     j = (j + 1) & (cap - 1))
			;
		n[j] = p->slots[i];
	}
	free(p->slots);
	p->slots = n;
	p->cap = cap;
	return 0;
}

const char *strpool__intern(struct strpool *p, const char *s, size_t len)
{
	size_t i;
	char *copy;

	if ((p->nr + 1) * 2 > p->cap && grow(p))
		return NULL;
	for (i = hash(s, len) & (p->cap - 1); p->slots[i]; i = (i + 1) & (p->cap - 1))
		if (!strncmp(p->slots[i], s, len) && p->slots[i][len] == 0)
			return p->slots[i];
	copy = alloc(p, len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	copy[len] = 0;
	p->slots[i] = copy;
	p->nr++;
	return copy;
}

const char *strpool__str(struct strpool *p, const char *s)
{
	return strpool__intern(p, s, strlen(s));
}

void strpool__release(struct strpool *p)
{
	struct strpool_chunk *c, *n;

	if (!p)
		return;
	for (c = p->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p->slots);
	memset(p, 0, sizeof(*p));
}
