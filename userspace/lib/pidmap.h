/* SPDX-License-Identifier: GPL-2.0 */
/* pidmap: a small open-addressing map from a u32 key (pid, tid) to a pointer. */
#ifndef JREC_PIDMAP_H
#define JREC_PIDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pidmap {
	uint32_t *keys;
	void **vals;
	size_t nr, cap; /* cap is a power of two, or 0 */
};

void *pidmap__get(const struct pidmap *m, uint32_t key);
int pidmap__put(struct pidmap *m, uint32_t key, void *val);
/*
 * The value of @key, or a new zeroed object of @size bytes put under it
 * (*@added then says so, for the caller to set it up). NULL when out of
 * memory. Values made here are the caller's to free.
 */
void *pidmap__get_or_add(struct pidmap *m, uint32_t key, size_t size, bool *added);
void pidmap__release(struct pidmap *m);

/*
 * Every entry, in no particular order:
 *
 *	size_t it = 0;
 *	void *val;
 *
 *	while ((val = pidmap__next(m, &it)))
 *		...
 *
 * The map must not change while it is walked (the values may).
 */
void *pidmap__next(const struct pidmap *m, size_t *it);

#endif
