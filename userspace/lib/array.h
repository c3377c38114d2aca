/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growable arrays: room for one more element, the capacity doubling so that
 * appends cost O(1) amortized. The array and its capacity are left as they
 * were when memory runs out.
 *
 *	if (array_grow(&p->maps, &p->cap_maps, p->nr_maps + 1))
 *		return -ENOMEM;
 *	p->maps[p->nr_maps++] = m;
 */
#ifndef JREC_ARRAY_H
#define JREC_ARRAY_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* Make *arr (of *cap elements of @size bytes) hold at least @need. 0 or -ENOMEM. */
static inline int array_reserve(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -ENOMEM;
		ncap *= 2;
	}
	n = realloc(*arr, ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

#define array_grow(arrp, capp, need) \
	array_reserve((void **)(arrp), (capp), (need), sizeof(**(arrp)))

#endif
