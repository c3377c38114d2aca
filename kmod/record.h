/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap record builder. A hook fills a jmmap_pending with everything it
 * knows at the moment of the call (time, range, a reference to the file);
 * jmmap_pending_finish() turns it into the record sessions read: it adds the
 * cookie and the file name, which need the file read and so task context.
 * Pending records come from a pool set aside at load, so that a hook
 * never allocates.
 */
#ifndef JMMAP_RECORD_H
#define JMMAP_RECORD_H

#include <linux/fs.h>
#include <linux/list.h>

#include "cookie.h"
#include "internal.h"

struct jmmap_pending {
	struct list_head node; /* in its task's batch (defer.c) */
	struct file *file;     /* a reference, or NULL */
	u32 tgid;
	enum jmmap_want want;
	/*
	 * A record whose content is known only once the system call returned
	 * (mremap): called in the task, on its way back to user space, to fill
	 * the record or say there is none. Such a record finished anywhere
	 * else is counted lost.
	 */
	bool (*resolve)(struct jmmap_pending *p);
	unsigned long arg[3]; /* for @resolve: the call's arguments */
	bool from_heap;       /* jmmap_pending_alloc(), not the pool */
	bool have_cookie;     /* @cookie is the file's already */
	struct jmmap_cookie cookie;
	/*
	 * Finished outside the task (SNAPSHOT): the task's root as the
	 * finishing task names it, taken off the front of file names, so that
	 * a chrooted task's files are named from its root as its live records
	 * name them. Owned by the caller.
	 */
	const char *root;
	union {
		struct jmmap_rec_header hdr;
		struct jmmap_rec_mmap3 mmap3;
		struct jmmap_rec_munmap munmap;
		struct jmmap_rec_exec exec;
	} r; /* fixed part; the file name is added when finishing */
};

/* Task context, at load: the pool of pending records. */
int jmmap_record_init(void);
void jmmap_record_exit(void);

/* A zeroed pending record from the pool, or NULL (count it lost). Any context. */
struct jmmap_pending *jmmap_pending_new(void);
/* The same from the heap, charged to the caller: task context. */
struct jmmap_pending *jmmap_pending_alloc(void);
/* Drops the file reference too; NULL-safe. Any context. */
void jmmap_pending_free(struct jmmap_pending *p);

/*
 * Finish @p, give it to @only or, when @only is NULL, to every session
 * entitled to it, and free it. With @can_sleep (task context) the file is
 * read for its cookie and named; without, nothing is allocated and a file
 * is named "//unknown" with no cookie.
 */
void jmmap_pending_finish(struct jmmap_pending *p, struct jmmap_session *only, bool can_sleep);

#endif
