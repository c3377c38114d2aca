// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap record builder (see record.h): pending records from a pool, and
 * their completion into MMAP3, MUNMAP and EXEC records.
 */
#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "compat.h"
#include "cookie.h"
#include "pool.h"
#include "record.h"

/*
 * Pending records alive at once, over all tasks: a record lives from its
 * hook to its task's return to user space. One mprotect() over more
 * executable vmas than this loses the rest (counted).
 */
#define PENDING_MAX 4096

static struct jmmap_pool pending_pool;

int jmmap_record_init(void)
{
	return jmmap_pool_init(&pending_pool, "pending record", sizeof(struct jmmap_pending),
			       PENDING_MAX);
}

void jmmap_record_exit(void)
{
	jmmap_pool_destroy(&pending_pool);
}

struct jmmap_pending *jmmap_pending_new(void)
{
	struct jmmap_pending *p = jmmap_pool_get(&pending_pool);

	if (p)
		INIT_LIST_HEAD(&p->node);
	return p;
}

struct jmmap_pending *jmmap_pending_alloc(void)
{
	struct jmmap_pending *p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);

	if (p) {
		INIT_LIST_HEAD(&p->node);
		p->from_heap = true;
	}
	return p;
}

void jmmap_pending_free(struct jmmap_pending *p)
{
	if (!p)
		return;
	if (p->file)
		fput(p->file);
	if (p->from_heap)
		kfree(p);
	else
		jmmap_pool_put(&pending_pool, p);
}

static void fill_file_fields(struct file *file, u32 *major, u32 *minor, u64 *ino, u64 *gen)
{
	const struct inode *inode = jmmap_file_inode(file);

	*major = MAJOR(inode->i_sb->s_dev);
	*minor = MINOR(inode->i_sb->s_dev);
	*ino = inode->i_ino;
	*gen = inode->i_generation;
}

static void deliver(struct jmmap_pending *p, struct jmmap_session *only,
		    const struct jmmap_rec_header *rec)
{
	if (only)
		jmmap_session_write(only, rec);
	else
		jmmap_emit(rec, p->tgid, p->want);
}

/*
 * The file's name as the task sees it, into @page (JMMAP_NAME_MAX bytes).
 * d_path() resolves against current->fs, which a task running its
 * task_work from do_exit() has dropped already (exit_fs() comes before
 * exit_task_work()); d_absolute_path() is not exported to modules, so such
 * a task gets no name.
 */
static const char *file_name(struct file *file, const char *root, char *page)
{
	const char *name;
	size_t n;

	if (!page || !current->fs)
		return "//unknown";
	name = d_path(jmmap_file_path(file), page, JMMAP_NAME_MAX);
	if (IS_ERR(name))
		return "//unknown";
	n = root ? strlen(root) : 0;
	if (n > 1 && !strncmp(name, root, n) && name[n] == '/')
		name += n;
	return name;
}

/*
 * For tests: the snapshot records to take as not built, as when no memory
 * can be had for one (Debian's kernels have no fault injection). Root
 * only; each one is counted LOST in its snapshot's session, as such a
 * failure is (test_71_snapshot_lost).
 */
static atomic_t fail_snapshot_records = ATOMIC_INIT(0);

static int fail_snapshot_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (!err)
		atomic_set(&fail_snapshot_records, min_t(unsigned int, n, INT_MAX));
	return err;
}

static int fail_snapshot_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&fail_snapshot_records));
}

static const struct kernel_param_ops fail_snapshot_ops = {
	.set = fail_snapshot_set,
	.get = fail_snapshot_get,
};
module_param_cb(fail_snapshot_records, &fail_snapshot_ops, NULL, 0600);
MODULE_PARM_DESC(fail_snapshot_records,
		 "for tests: the next N snapshot records are not built, as without memory for "
		 "them, and counted lost in their session (default 0)");

/* Whether this snapshot record is one to take as not built (fail_snapshot_records). */
static bool snapshot_record_fails(void)
{
	return atomic_read(&fail_snapshot_records) > 0 &&
	       atomic_dec_if_positive(&fail_snapshot_records) >= 0;
}

void jmmap_pending_finish(struct jmmap_pending *p, struct jmmap_session *only, bool can_sleep)
{
	struct jmmap_cookie cookie = {};
	/* Room for a fixed part and a short name ("//anon", "//unknown"). */
	u8 small[sizeof(p->r) + 16] __aligned(8);
	const char *name = "//anon";
	size_t fixed, name_len, size;
	u8 *c_kind, *c_len, *c_bytes;
	char *page = NULL, *rec = NULL;

	/* Only the task itself, after the call, can tell what it did. */
	if (p->resolve && (!can_sleep || only || !p->resolve(p))) {
		if (!can_sleep || only)
			jmmap_lost_alloc(JMMAP_REC_MMAP3, p->tgid, p->want, only);
		goto out;
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
		deliver(p, only, &p->r.hdr);
		goto out;
	}

	if (p->file) {
		if (p->have_cookie)
			cookie = p->cookie;
		else if (can_sleep)
			jmmap_cookie_of_file(p->file, &cookie);
		if (can_sleep)
			page = kmalloc(JMMAP_NAME_MAX, GFP_KERNEL);
		if (cookie.kind == JMMAP_COOKIE_NONE)
			p->r.hdr.flags = cookie.why & JMMAP_COOKIE_WHY_MASK;
		*c_kind = cookie.kind;
		*c_len = cookie.len;
		memcpy(c_bytes, cookie.bytes, JMMAP_COOKIE_MAX);
		if (p->r.hdr.type == JMMAP_REC_MMAP3)
			fill_file_fields(p->file, &p->r.mmap3.dev_major, &p->r.mmap3.dev_minor,
					 &p->r.mmap3.ino, &p->r.mmap3.ino_generation);
		else
			fill_file_fields(p->file, &p->r.exec.dev_major, &p->r.exec.dev_minor,
					 &p->r.exec.ino, &p->r.exec.ino_generation);
		name = file_name(p->file, p->root, page);
	}
	name_len = strlen(name) + 1;
	size = ALIGN(fixed + name_len, 8);
	if (size <= sizeof(small)) {
		rec = (char *)small;
		memset(rec, 0, size);
	} else if (can_sleep) {
		rec = kzalloc(size, GFP_KERNEL);
	}
	if (rec && only && snapshot_record_fails()) {
		if (rec != (char *)small)
			kfree(rec);
		rec = NULL;
	}
	if (!rec) {
		jmmap_lost_alloc(p->r.hdr.type, p->tgid, p->want, only);
		goto out;
	}
	p->r.hdr.size = (u32)size;
	memcpy(rec, &p->r, fixed);
	memcpy(rec + fixed, name, name_len);
	if (p->file && cookie.kind != JMMAP_COOKIE_NONE)
		jmmap_emit_cookie((struct jmmap_rec_header *)rec, c_kind - (u8 *)&p->r, p->file,
				  p->tgid, p->want, only);
	else
		deliver(p, only, (struct jmmap_rec_header *)rec);
	if (rec != (char *)small)
		kfree(rec);
out:
	kfree(page);
	jmmap_pending_free(p);
}
