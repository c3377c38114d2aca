// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap object pools (see pool.h). One raw spinlock per pool, held for a
 * few instructions; objects are zeroed outside it.
 */
#include <linux/bug.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "pool.h"

int jmmap_pool_init(struct jmmap_pool *pool, const char *name, size_t size, u32 nr)
{
	size_t bytes;
	u32 i;

	memset(pool, 0, sizeof(*pool));
	raw_spin_lock_init(&pool->lock);
	size = ALIGN(max(size, sizeof(void *)), sizeof(u64));
	if (!nr || check_mul_overflow(size, (size_t)nr, &bytes))
		return -EINVAL;
	pool->mem = __vmalloc(bytes, GFP_KERNEL_ACCOUNT);
	if (!pool->mem)
		return -ENOMEM;
	pool->size = (u32)size;
	pool->nr = nr;
	pool->name = name;
	for (i = nr; i-- > 0;) {
		void **obj = (void **)((u8 *)pool->mem + (size_t)i * size);

		*obj = pool->free;
		pool->free = obj;
	}
	return 0;
}

void jmmap_pool_destroy(struct jmmap_pool *pool)
{
	if (!pool->mem)
		return;
	WARN(pool->in_use, "jmmap: %u %s objects still in use\n", pool->in_use, pool->name);
	vfree(pool->mem);
	pool->mem = NULL;
	pool->free = NULL;
}

void *jmmap_pool_get(struct jmmap_pool *pool)
{
	unsigned long flags;
	void **obj;

	raw_spin_lock_irqsave(&pool->lock, flags);
	obj = pool->free;
	if (obj) {
		pool->free = *obj;
		pool->in_use++;
	}
	raw_spin_unlock_irqrestore(&pool->lock, flags);
	if (obj)
		memset(obj, 0, pool->size);
	return obj;
}

void jmmap_pool_put(struct jmmap_pool *pool, void *obj)
{
	unsigned long flags;

	if (!obj)
		return;
	raw_spin_lock_irqsave(&pool->lock, flags);
	*(void **)obj = pool->free;
	pool->free = obj;
	pool->in_use--;
	raw_spin_unlock_irqrestore(&pool->lock, flags);
}
