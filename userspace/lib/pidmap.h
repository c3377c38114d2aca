/* SPDX-License-Identifier: GPL-2.0 */
/* pidmap: a small open-addressing map from a u32 key (pid, tid) to a pointer. */
#ifndef JREC_PIDMAP_H
#define JREC_PIDMAP_H

#include <stddef.h>
#include <stdint.h>

struct pidmap {
	uint32_t *keys;
	void **vals;
	size_t nr, cap; /* cap is a power of two, or 0 */
};

void *pidmap__get(const struct pidmap *m, uint32_t key);
int pidmap__put(struct pidmap *m, uint32_t key, void *val);
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
