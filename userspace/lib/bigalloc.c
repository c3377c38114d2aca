// SPDX-License-Identifier: GPL-2.0
#include <sys/mman.h>

#include "bigalloc.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

void *big_zalloc(size_t len)
{
	void *p;

	if (!len)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void *big_realloc(void *p, size_t old, size_t len)
{
	void *n;

	if (!p)
		return big_zalloc(len);
	n = mremap(p, old, len, MREMAP_MAYMOVE);
	if (n == MAP_FAILED)
		return NULL;
	/* mremap leaves the grown tail to page faults; populate it too (best effort) */
	if (len > old)
		madvise((char *)n + (old & ~(size_t)4095), len - (old & ~(size_t)4095),
			MADV_POPULATE_WRITE);
	return n;
}

void big_free(void *p, size_t len)
{
	if (p && len)
		munmap(p, len);
}
