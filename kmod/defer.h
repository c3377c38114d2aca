/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap deferral queue: hooks cannot sleep, but a cookie needs the file
 * read. A hook hands its pending record (record.h) to jmmap_defer(); the
 * record is finished in task context by task_work before the task returns
 * to user space, so before it can run the new mapping, and in the order the
 * task's hooks saw its records.
 */
#ifndef JMMAP_DEFER_H
#define JMMAP_DEFER_H

#include <linux/atomic.h>

#include "record.h"

/* Task context, at load: the pool of batches. */
int jmmap_defer_init(void);
/* At module exit: every batch has run (each pins the module). */
void jmmap_defer_exit(void);

/*
 * Queue @p behind the current task's earlier records and finish it in task
 * context. A record that needs nothing from task context (MUNMAP, an
 * anonymous MMAP3) comes here only when jmmap_defer_queued() says it must
 * wait behind others; otherwise its hook gives it out itself. A task has
 * at most BATCH_RECORDS_MAX records queued (defer.c): past that, and when
 * no batch is free for a record that needs task context, the record is
 * counted lost. Takes ownership of @p. Any context.
 */
void jmmap_defer(struct jmmap_pending *p);

/* Tasks with a batch queued (defer.c): while none has, no lock is taken. */
extern atomic_t jmmap_batches_queued;
/* The same for the current task alone, under the batches' lock. */
bool jmmap_defer_queued_own(void);

/*
 * Whether records of the current task are queued: one that needs nothing
 * from task context may be given out at once only when none is. Only the
 * task itself adds its batch, so while no task has one it has none, and the
 * lock is not taken. Any context.
 */
static inline bool jmmap_defer_queued(void)
{
	return atomic_read(&jmmap_batches_queued) && jmmap_defer_queued_own();
}

#endif
