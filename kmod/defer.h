/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap deferral: hooks cannot sleep, but a cookie needs the file read. A
 * hook fills a jmmap_pending with everything it knows (time, range, a
 * reference to the file) and hands it to jmmap_defer(); the record is
 * finished in task context by task_work before the task returns to user
 * space, so before it can run the new mapping.
 */
#ifndef JMMAP_DEFER_H
#define JMMAP_DEFER_H

#include <linux/fs.h>

#include "internal.h"

struct jmmap_session;

struct jmmap_pending {
	struct list_head node;
	struct file *file; /* a reference, or NULL */
	u32 tgid;
	enum jmmap_want want;
	/*
	 * An mremap() whose outcome is known only once the system call has
	 * returned: jmmap_mremap_resolve() (hooks-mm.c) turns it into an MMAP3
	 * or drops it. Its arguments, as the task passed them:
	 */
	bool mremap;
	unsigned long mremap_addr, mremap_old_len, mremap_new_len;
	union {
		struct jmmap_rec_header hdr;
		struct jmmap_rec_mmap3 mmap3;
		struct jmmap_rec_munmap munmap;
		struct jmmap_rec_exec exec;
	} r; /* fixed part; the file name is added when finishing */
};

int jmmap_defer_init(void);
void jmmap_defer_exit(void);

/* A zeroed pending record; @gfp GFP_ATOMIC from hooks. */
struct jmmap_pending *jmmap_pending_new(gfp_t gfp);
/* Drops the file reference too; NULL-safe. */
void jmmap_pending_free(struct jmmap_pending *p);

/*
 * Queue @p behind the current task's earlier records and finish it in task
 * context. Records that need no cookie (MUNMAP) are emitted at once when
 * nothing of the task is queued. Takes ownership of @p.
 */
void jmmap_defer(struct jmmap_pending *p);

/*
 * Finish @p now (task context, may sleep): cookie, file name, and give it
 * to @only, or to every entitled session when @only is NULL. Frees @p.
 */
void jmmap_pending_finish(struct jmmap_pending *p, struct jmmap_session *only, bool can_sleep);

#endif
