// SPDX-License-Identifier: GPL-2.0
/* jmmap per-task stashes: the table of slots (see stash.h). */
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "stash.h"

struct stash *jmmap_stash_table[2];
atomic_t jmmap_stash_claimed[2];

static size_t table_bytes(void)
{
	return STASH_SLOTS * sizeof(struct stash);
}

int jmmap_stash_init(void)
{
	jmmap_stash_table[0] = __vmalloc(table_bytes(), GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	jmmap_stash_table[1] = __vmalloc(table_bytes(), GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!jmmap_stash_table[0] || !jmmap_stash_table[1]) {
		jmmap_stash_exit();
		return -ENOMEM;
	}
	return 0;
}

void jmmap_stash_exit(void)
{
	vfree(jmmap_stash_table[1]);
	vfree(jmmap_stash_table[0]);
	jmmap_stash_table[1] = NULL;
	jmmap_stash_table[0] = NULL;
}

void jmmap_stash_clear(void)
{
	memset(jmmap_stash_table[0], 0, table_bytes());
	memset(jmmap_stash_table[1], 0, table_bytes());
	atomic_set(&jmmap_stash_claimed[0], 0);
	atomic_set(&jmmap_stash_claimed[1], 0);
}
