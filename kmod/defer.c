// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap deferral through task_work. Each task with records queued has one
 * batch: a callback_head on the task's task_work list plus its records in
 * the order the hooks saw them. Batches are found by task in one hash under
 * one spinlock; each pins the module until its callback has run, so the
 * module cannot go away while work is queued.
 */
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "compat.h"
#include "cookie.h"
#include "defer.h"
#include "hooks.h"

struct jmmap_batch {
	struct callback_head work;
	struct hlist_node hnode;
	struct task_struct *task; /* key only, never dereferenced */
	struct list_head items;
};

static DEFINE_SPINLOCK(batches_lock);
static DEFINE_HASHTABLE(batches, 8);
static atomic_t batches_queued = ATOMIC_INIT(0);

struct jmmap_pending *jmmap_pending_new(gfp_t gfp)
{
	struct jmmap_pending *p = kzalloc(sizeof(*p), gfp);

	if (p)
		INIT_LIST_HEAD(&p->node);
	return p;
}

void jmmap_pending_free(struct jmmap_pending *p)
{
	if (!p)
		return;
	if (p->file)
		fput(p->file);
	kfree(p);
}

static void fill_file_fields(struct file *file, u32 *major, u32 *minor, u64 *ino, u64 *gen)
{
	const struct inode *inode = jmmap_file_inode(file);

	*major = MAJOR(inode->i_sb->s_dev);
	*minor = MINOR(inode->i_sb->s_dev);
	*ino = inode->i_ino;
	*gen = inode->i_generation;
}

void jmmap_pending_finish(struct jmmap_pending *p, struct jmmap_session *only, bool can_sleep)
{
	gfp_t gfp = can_sleep ? GFP_KERNEL : GFP_ATOMIC;
	struct jmmap_cookie cookie = {};
	const char *name = "//anon";
	char *page = NULL, *rec = NULL;
	size_t fixed, name_len, size;
	u8 *c_kind, *c_len, *c_bytes;

	/*
	 * Only the task itself, after the call, can tell where an mremap went.
	 * Finished anywhere else, it may have been an MMAP3: count it lost.
	 */
	if (p->mremap && (!can_sleep || only || !jmmap_mremap_resolve(p))) {
		if (!can_sleep || only)
			jmmap_lost_alloc(JMMAP_REC_MMAP3, p->tgid, p->want);
		jmmap_pending_free(p);
		return;
	}
	switch (p->r.hdr.type) {
	case JMMAP_REC_MMAP3:
		fixed = sizeof(p->r.mmap3);
		c_kind = &p->r.mmap3.cookie_kind;
		c_len = &p->r.mmap3.cookie_len;
		c_bytes = p->r.mmap3.cookie;
		break;
	case JMMAP_REC_EXEC:
		fixed = sizeof(p->r.exec);
		c_kind = &p->r.exec.cookie_kind;
		c_len = &p->r.exec.cookie_len;
		c_bytes = p->r.exec.cookie;
		break;
	default: /* no name, no cookie */
		p->r.hdr.size = sizeof(p->r.munmap);
		if (only)
			jmmap_session_write(only, &p->r.hdr);
		else
			jmmap_emit(&p->r.hdr, p->tgid, p->want);
		goto out;
	}

	if (p->file) {
		if (can_sleep)
			jmmap_cookie_of_file(p->file, &cookie);
		*c_kind = cookie.kind;
		*c_len = cookie.len;
		memcpy(c_bytes, cookie.bytes, JMMAP_COOKIE_MAX);
		if (p->r.hdr.type == JMMAP_REC_MMAP3)
			fill_file_fields(p->file, &p->r.mmap3.dev_major, &p->r.mmap3.dev_minor,
					 &p->r.mmap3.ino, &p->r.mmap3.ino_generation);
		else
			fill_file_fields(p->file, &p->r.exec.dev_major, &p->r.exec.dev_minor,
					 &p->r.exec.ino, &p->r.exec.ino_generation);
		/*
		 * d_path() resolves against current->fs, which a task running
		 * its task_work from do_exit() has dropped already (exit_fs()
		 * comes before exit_task_work()); d_absolute_path() is not
		 * exported to modules, so such a task gets no name.
		 */
		page = current->fs ? kmalloc(JMMAP_NAME_MAX, gfp) : NULL;
		name = page ? d_path(jmmap_file_path(p->file), page, JMMAP_NAME_MAX) :
			      ERR_PTR(-ENOMEM);
		if (IS_ERR(name))
			name = "//unknown";
	}
	name_len = strlen(name) + 1;
	size = ALIGN(fixed + name_len, 8);
	rec = kzalloc(size, gfp);
	if (!rec) {
		jmmap_lost_alloc(p->r.hdr.type, p->tgid, p->want);
		goto out;
	}
	p->r.hdr.size = (u32)size;
	memcpy(rec, &p->r, fixed);
	memcpy(rec + fixed, name, name_len);
	if (only)
		jmmap_session_write(only, (struct jmmap_rec_header *)rec);
	else
		jmmap_emit((struct jmmap_rec_header *)rec, p->tgid, p->want);
out:
	kfree(rec);
	kfree(page);
	jmmap_pending_free(p);
}

/*
 * Run in the task, before it returns to user space. EXEC goes first: the
 * loader's mappings were made after the old image was gone, and a reader
 * resets the process at EXEC. Its time becomes that of the first mapping
 * the loader made, if earlier, so that a sort by time keeps that order.
 */
static noinline void batch_drain(struct jmmap_batch *b)
{
	struct jmmap_pending *p, *tmp, *exec = NULL;
	unsigned long flags;
	LIST_HEAD(late);

	spin_lock_irqsave(&batches_lock, flags);
	hash_del(&b->hnode);
	spin_unlock_irqrestore(&batches_lock, flags);

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
	 * An mremap's new place is known only now that the call returned, after
	 * the unmaps the call made (of the old place, of what MREMAP_FIXED
	 * replaced): it goes last, and is timed when it is resolved.
	 */
	list_for_each_entry_safe(p, tmp, &b->items, node) {
		if (p->mremap)
			list_move_tail(&p->node, &late);
	}
	list_splice_tail(&late, &b->items);
	list_for_each_entry_safe(p, tmp, &b->items, node) {
		list_del(&p->node);
		jmmap_pending_finish(p, NULL, true);
	}
	kfree(b);
	atomic_dec(&batches_queued);
}

/*
 * The task_work callback. Its reference is the only thing keeping the
 * module, so nothing of the module may run once it is dropped: module_put()
 * is its last call, with nothing on the stack to check or restore after it,
 * which compilers emit as a jump (a tail call). module_put() then returns
 * straight to task_work_run(). qemu/guest-suite checks the jump is there.
 */
static void batch_run(struct callback_head *cb)
{
	batch_drain(container_of(cb, struct jmmap_batch, work));
	module_put(THIS_MODULE);
}

static struct jmmap_batch *batch_of_current_locked(void)
{
	struct jmmap_batch *b;

	hash_for_each_possible(batches, b, hnode, (unsigned long)current) {
		if (b->task == current)
			return b;
	}
	return NULL;
}

void jmmap_defer(struct jmmap_pending *p)
{
	struct jmmap_batch *b;
	unsigned long flags;

	if ((current->flags & (PF_KTHREAD | PF_EXITING)) || !current->mm)
		goto now;
	/* Behind the task's earlier records, whatever happens to memory. */
	spin_lock_irqsave(&batches_lock, flags);
	b = batch_of_current_locked();
	if (b)
		list_add_tail(&p->node, &b->items);
	spin_unlock_irqrestore(&batches_lock, flags);
	if (b)
		return;
	if (p->r.hdr.type == JMMAP_REC_MUNMAP)
		goto now; /* needs no cookie */

	/* Only this task adds a batch for itself: there is still none. */
	b = kzalloc(sizeof(*b), GFP_ATOMIC);
	if (!b)
		goto now;
	if (!try_module_get(THIS_MODULE))
		goto free;
	init_task_work(&b->work, batch_run);
	b->task = current;
	INIT_LIST_HEAD(&b->items);
	if (task_work_add(current, &b->work, TWA_RESUME)) {
		module_put(THIS_MODULE);
		goto free;
	}
	list_add_tail(&p->node, &b->items);
	spin_lock_irqsave(&batches_lock, flags);
	hash_add(batches, &b->hnode, (unsigned long)current);
	spin_unlock_irqrestore(&batches_lock, flags);
	atomic_inc(&batches_queued);
	return;
free:
	kfree(b);
now:
	/* Nothing queued for this task, or it cannot run task_work: no cookie. */
	jmmap_pending_finish(p, NULL, false);
}

int jmmap_defer_init(void)
{
	return 0;
}

void jmmap_defer_exit(void)
{
	/* Every batch pins the module, so none can be left. */
	WARN_ON(atomic_read(&batches_queued));
}
