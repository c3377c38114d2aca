// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap snapshot: when a pid is added to a session, MMAP3 records (cause
 * snapshot) for the executable mappings it already has, to that session
 * only. The module does it itself, in the ioctl's task context: it copies
 * what it needs from the vmas under mmap_read_lock, drops the lock, then
 * reads the files for their cookies.
 */
#include <linux/file.h>
#include <linux/fs_struct.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "defer.h"
#include "hooks.h"

#define SNAPSHOT_MAX 65536 /* executable mappings of one process */

/*
 * The memory of @tgid, and its root directory as the caller names it into
 * @page (JMMAP_NAME_MAX bytes; "" when unknown).
 */
static struct mm_struct *mm_of_tgid(u32 tgid, char *page, const char **root)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct path path = {};

	*root = "";
	rcu_read_lock();
	task = pid_task(find_pid_ns((int)tgid, &init_pid_ns), PIDTYPE_TGID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	if (!task)
		return NULL;
	task_lock(task);
	if (task->fs)
		get_fs_root(task->fs, &path);
	task_unlock(task);
	if (path.dentry) {
		const char *name = page ? d_path(&path, page, JMMAP_NAME_MAX) : ERR_PTR(-ENOMEM);

		if (!IS_ERR(name))
			*root = name;
		path_put(&path);
	}
	mm = get_task_mm(task);
	put_task_struct(task);
	return mm;
}

int jmmap_snapshot(struct jmmap_session *s, u32 tgid)
{
	struct jmmap_pending *p, *tmp;
	struct file *prev_file = NULL;
	const char *root;
	char *root_page;
	struct jmmap_cookie prev_cookie;
	struct vm_area_struct *vma;
	struct mm_struct *mm;
	LIST_HEAD(items);
	u64 now = jmmap_now();
	unsigned int n = 0;
	int err = 0;

	root_page = kmalloc(JMMAP_NAME_MAX, GFP_KERNEL);
	mm = mm_of_tgid(tgid, root_page, &root);
	if (!mm) {
		kfree(root_page);
		return 0; /* exited, or a kernel thread: nothing mapped */
	}
	if (mmap_read_lock_killable(mm)) {
		mmput(mm);
		kfree(root_page);
		return -EINTR;
	}
	{
		VMA_ITERATOR(vmi, mm, 0);

		for_each_vma(vmi, vma) {
			if (!(vma->vm_flags & VM_EXEC))
				continue;
			if (++n > SNAPSHOT_MAX) {
				err = -E2BIG;
				break;
			}
			p = jmmap_pending_alloc();
			if (!p) {
				err = -ENOMEM;
				break;
			}
			p->tgid = tgid;
			p->want = JMMAP_WANT_EXEC_MAPS;
			p->r.mmap3.hdr.type = JMMAP_REC_MMAP3;
			p->r.mmap3.pid = tgid;
			p->r.mmap3.tid = tgid;
			p->r.mmap3.time = now;
			p->r.mmap3.start = vma->vm_start;
			p->r.mmap3.len = vma->vm_end - vma->vm_start;
			p->r.mmap3.vma_start = vma->vm_start;
			p->r.mmap3.vma_end = vma->vm_end;
			p->r.mmap3.prot = (vma->vm_flags & VM_READ ? PROT_READ : 0) |
					  (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) | PROT_EXEC;
			p->r.mmap3.flags = (vma->vm_flags & VM_SHARED ? MAP_SHARED : MAP_PRIVATE) |
					   (vma->vm_file ? 0 : MAP_ANONYMOUS);
			p->r.mmap3.cause = JMMAP_CAUSE_SNAPSHOT;
			if (vma->vm_file) {
				p->r.mmap3.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
				p->file = get_file(vma->vm_file);
			}
			list_add_tail(&p->node, &items);
		}
	}
	mmap_read_unlock(mm);
	mmput(mm);

	/*
	 * A file mapped several times (text, relro, ...) is read once: its
	 * mappings come one after the other. A fatal signal ends the work.
	 */
	list_for_each_entry_safe(p, tmp, &items, node) {
		list_del(&p->node);
		if (!err && fatal_signal_pending(current))
			err = -EINTR;
		if (err) {
			jmmap_pending_free(p);
			continue;
		}
		if (p->file) {
			if (!prev_file || file_inode(prev_file) != file_inode(p->file)) {
				if (prev_file)
					fput(prev_file);
				prev_file = get_file(p->file);
				jmmap_cookie_of_file(p->file, &prev_cookie);
			}
			p->cookie = prev_cookie;
			p->have_cookie = true;
		}
		p->root = root;
		jmmap_pending_finish(p, s, true);
	}
	if (prev_file)
		fput(prev_file);
	kfree(root_page);
	return err;
}
