/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap object pools: fixed-size objects set aside in task context, taken
 * and given back from hooks. A hook runs with preemption disabled, where a
 * PREEMPT_RT kernel may neither allocate nor free (both can sleep there);
 * a pool only takes a raw spinlock. When a pool is empty the caller counts
 * its record as lost.
 */
#ifndef JMMAP_POOL_H
#define JMMAP_POOL_H

#include <linux/spinlock.h>
#include <linux/types.h>

struct jmmap_pool {
	raw_spinlock_t lock;
	void *mem;       /* nr objects of size bytes */
	void *free;      /* free objects, linked through their first word */
	u32 size, nr;
	u32 in_use;      /* checked empty at destroy */
	const char *name;
};

/* Task context: set aside @nr objects of @size bytes, charged to the caller. */
int jmmap_pool_init(struct jmmap_pool *pool, const char *name, size_t size, u32 nr);
/* Every object must have been given back. NULL-safe on a pool never initialised. */
void jmmap_pool_destroy(struct jmmap_pool *pool);

/* A zeroed object, or NULL when the pool is empty. Any context. */
void *jmmap_pool_get(struct jmmap_pool *pool);
/* Give @obj back; NULL-safe. Any context. */
void jmmap_pool_put(struct jmmap_pool *pool, void *obj);

#endif
