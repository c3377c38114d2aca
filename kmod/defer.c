// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap deferral through task_work. Each task with records queued has one
 * batch: a callback_head on the task's task_work list plus its records in
 * the order the hooks saw them. Batches come from a pool, are found by task
 * in one hash under one raw spinlock (hooks run with preemption disabled,
 * where a PREEMPT_RT kernel's spinlock_t would sleep), and each pins the
 * module until its callback has run.
 */
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/task_work.h>

#include "defer.h"
#include "pool.h"

/* Tasks with records queued at once. */
#define BATCH_MAX 1024
/*
 * Records one task may have queued: a task holds them until it returns to
 * user space, which a system call that blocks after the hooks ran puts
 * off, so no task may take more than this share of the pool of pending
 * records (record.c). The rest of one call's records are counted lost.
 */
#define BATCH_RECORDS_MAX 256

struct jmmap_batch {
	struct callback_head work;
	struct hlist_node hnode;
	struct task_struct *task; /* key only, never dereferenced */
	struct list_head items;
	u32 nr; /* records in @items */
};

static DEFINE_RAW_SPINLOCK(batches_lock);
static DEFINE_HASHTABLE(batches, 8);
atomic_t jmmap_batches_queued = ATOMIC_INIT(0);
static struct jmmap_pool batch_pool;

/*
 * Run in the task, before it returns to user space. EXEC goes first: the
 * loader's mappings were made after the old image was gone, and a reader
 * resets the process at EXEC. Its time becomes that of the first mapping
 * the loader made, if earlier, so that a sort by time keeps that order.
 * Called from jmmap_batch_run (batch-run.S), which then drops the batch's
 * module reference.
 */
void jmmap_batch_drain(struct callback_head *cb);
void jmmap_batch_drain(struct callback_head *cb)
{
	struct jmmap_batch *b = container_of(cb, struct jmmap_batch, work);
	struct jmmap_pending *p, *tmp, *exec = NULL;
	unsigned long flags;
	LIST_HEAD(late);

	raw_spin_lock_irqsave(&batches_lock, flags);
	hash_del(&b->hnode);
	raw_spin_unlock_irqrestore(&batches_lock, flags);

	list_for_each_entry(p, &b->items, node) {
		if (p->r.hdr.type == JMMAP_REC_EXEC) {
			exec = p;
			break;
		}
	}
	if (exec) {
		list_for_each_entry(p, &b->items, node) {
			if (p->r.hdr.type == JMMAP_REC_MMAP3 &&
			    p->r.mmap3.cause == JMMAP_CAUSE_EXEC &&
			    p->r.mmap3.time < exec->r.exec.time) {
				exec->r.exec.time = p->r.mmap3.time;
				break;
			}
		}
		list_move(&exec->node, &b->items);
	}
	/*
	 * A record resolved only now that the call returned (an mremap's new
	 * place, known after the unmaps the call made) goes last, and is timed
	 * when it is resolved.
	 */
	list_for_each_entry_safe(p, tmp, &b->items, node) {
		if (p->resolve)
			list_move_tail(&p->node, &late);
	}
	list_splice_tail(&late, &b->items);
	list_for_each_entry_safe(p, tmp, &b->items, node) {
		list_del(&p->node);
		jmmap_pending_finish(p, NULL, true);
	}
	jmmap_pool_put(&batch_pool, b);
	atomic_dec(&jmmap_batches_queued);
}

/* batch-run.S: jmmap_batch_drain(cb), then a jump to module_put(THIS_MODULE). */
void jmmap_batch_run(struct callback_head *cb);

static struct jmmap_batch *batch_of_current_locked(void)
{
	struct jmmap_batch *b;

	hash_for_each_possible(batches, b, hnode, (unsigned long)current) {
		if (b->task == current)
			return b;
	}
	return NULL;
}

bool jmmap_defer_queued_own(void)
{
	unsigned long flags;
	bool queued;

	raw_spin_lock_irqsave(&batches_lock, flags);
	queued = batch_of_current_locked() != NULL;
	raw_spin_unlock_irqrestore(&batches_lock, flags);
	return queued;
}

/*
 * A record that cannot wait for task_work: one that needs nothing from task
 * context is given out now; one that does (a file's name and cookie, an
 * mremap's result) is counted lost, never given out without them.
 */
static void defer_failed(struct jmmap_pending *p)
{
	if (p->file || p->resolve) {
		jmmap_lost_alloc(p->r.hdr.type, p->tgid, p->want, NULL);
		jmmap_pending_free(p);
		return;
	}
	jmmap_pending_finish(p, NULL, false);
}

void jmmap_defer(struct jmmap_pending *p)
{
	struct jmmap_batch *b;
	unsigned long flags;
	bool full = false;

	if ((current->flags & (PF_KTHREAD | PF_EXITING)) || !current->mm)
		goto now;
	/* Behind the task's earlier records, whatever happens to memory. */
	raw_spin_lock_irqsave(&batches_lock, flags);
	b = batch_of_current_locked();
	if (b) {
		full = b->nr >= BATCH_RECORDS_MAX;
		if (!full) {
			list_add_tail(&p->node, &b->items);
			b->nr++;
		}
	}
	raw_spin_unlock_irqrestore(&batches_lock, flags);
	if (full) {
		/* its share taken: lost, whatever it is, so that order is kept */
		jmmap_lost_alloc(p->r.hdr.type, p->tgid, p->want, NULL);
		jmmap_pending_free(p);
		return;
	}
	if (b)
		return;

	/* Only this task adds a batch for itself: there is still none. */
	b = jmmap_pool_get(&batch_pool);
	if (!b)
		goto now;
	if (!try_module_get(THIS_MODULE))
		goto free;
	init_task_work(&b->work, jmmap_batch_run);
	b->task = current;
	INIT_LIST_HEAD(&b->items);
	list_add_tail(&p->node, &b->items);
	b->nr = 1;
	/* In the hash before the work can run: its callback removes it. */
	raw_spin_lock_irqsave(&batches_lock, flags);
	hash_add(batches, &b->hnode, (unsigned long)current);
	raw_spin_unlock_irqrestore(&batches_lock, flags);
	atomic_inc(&jmmap_batches_queued);
	if (task_work_add(current, &b->work, TWA_RESUME)) {
		raw_spin_lock_irqsave(&batches_lock, flags);
		hash_del(&b->hnode);
		raw_spin_unlock_irqrestore(&batches_lock, flags);
		atomic_dec(&jmmap_batches_queued);
		list_del_init(&p->node);
		module_put(THIS_MODULE);
		goto free;
	}
	return;
free:
	jmmap_pool_put(&batch_pool, b);
now:
	/* No batch, or the task cannot run task_work. */
	defer_failed(p);
}

int jmmap_defer_init(void)
{
	return jmmap_pool_init(&batch_pool, "batch", sizeof(struct jmmap_batch), BATCH_MAX);
}

void jmmap_defer_exit(void)
{
	/* Every batch pins the module, so none can be left. */
	WARN_ON(atomic_read(&jmmap_batches_queued));
	jmmap_pool_destroy(&batch_pool);
}
