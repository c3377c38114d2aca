// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap: exact-range mmap records with build-id cookies, for profilers.
 *
 * This file is the module's edge: the misc device /dev/jmmap, its file
 * operations and ioctls, and module init/exit, written as mirrors.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/uaccess.h>

#include "cookie.h"
#include "defer.h"
#include "hooks.h"
#include "internal.h"
#include "record.h"

#ifndef JMMAP_MODULE_VERSION
#define JMMAP_MODULE_VERSION "0"
#endif

/* The first published size of each ioctl argument: smaller is -EINVAL. */
#define JMMAP_VERSION_SIZE_V1 offsetofend(struct jmmap_version, module_version)
#define JMMAP_TARGET_SIZE_V1 offsetofend(struct jmmap_target, flags)
#define JMMAP_CONFIG_SIZE_V1 offsetofend(struct jmmap_config, buffer_bytes)
/* The largest ioctl argument size accepted: arguments grow, but not past this. */
#define JMMAP_ARG_SIZE_MAX PAGE_SIZE

/*
 * The pools hooks take objects from (pending records, batches, stashes):
 * bounded, set aside at load, and kept until the module goes, since batches
 * queued before a disarm still give theirs back afterwards.
 */
static void pools_destroy(void)
{
	jmmap_hooks_mm_exit();
	jmmap_defer_exit();
	jmmap_record_exit();
}

static int pools_create(void)
{
	int err;

	err = jmmap_record_init();
	if (!err)
		err = jmmap_defer_init();
	if (!err)
		err = jmmap_hooks_mm_init();
	if (err)
		pools_destroy();
	return err;
}

static int jmmap_open(struct inode *inode, struct file *file)
{
	struct jmmap_session *s;
	int err;

	if (!perfmon_capable())
		return -EPERM;
	s = jmmap_session_new();
	if (!s)
		return -ENOMEM;
	err = jmmap_session_publish(s);
	if (err) {
		jmmap_session_free(s);
		return err;
	}
	file->private_data = s;
	return 0;
}

static int jmmap_release(struct inode *inode, struct file *file)
{
	struct jmmap_session *s = file->private_data;

	jmmap_session_unpublish(s);
	jmmap_session_free(s);
	return 0;
}

static ssize_t jmmap_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	return jmmap_session_read(file->private_data, buf, count, file->f_flags & O_NONBLOCK);
}

static __poll_t jmmap_poll(struct file *file, poll_table *pt)
{
	return jmmap_session_poll(file->private_data, file, pt);
}

static int jmmap_mmap(struct file *file, struct vm_area_struct *vma)
{
	return jmmap_session_mmap(file->private_data, vma);
}

/*
 * Read an ioctl argument that starts with its own __u32 size: at least
 * @min_size, at most what the module knows plus zeroes, never more than
 * JMMAP_ARG_SIZE_MAX.
 */
static int arg_in(void *dst, size_t ksize, size_t min_size, const void __user *uarg, u32 *usize)
{
	int err;

	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min_size)
		return -EINVAL;
	if (*usize > JMMAP_ARG_SIZE_MAX)
		return -E2BIG;
	err = copy_struct_from_user(dst, ksize, uarg, *usize);
	if (err)
		return err;
	((u32 *)dst)[0] = (u32)ksize;
	return 0;
}

/* Write an answer back: as much of it as the caller's size holds. */
static int arg_out(void __user *uarg, const void *src, size_t ksize, u32 usize)
{
	size_t n = min_t(size_t, ksize, usize);

	if (copy_to_user(uarg, src, n))
		return -EFAULT;
	if (usize > ksize && clear_user((u8 __user *)uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/* The size of an argument the module only writes: at least @min_size. */
static int arg_size(const void __user *uarg, size_t min_size, u32 *usize)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min_size)
		return -EINVAL;
	return *usize > JMMAP_ARG_SIZE_MAX ? -E2BIG : 0;
}

static long ioctl_version(void __user *uarg)
{
	struct jmmap_version v;
	u32 usize;
	int err;

	err = arg_size(uarg, JMMAP_VERSION_SIZE_V1, &usize);
	if (err)
		return err;
	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	v.abi_version = JMMAP_ABI_VERSION;
	v.features = JMMAP_FEATURES;
	strscpy(v.module_version, JMMAP_MODULE_VERSION, sizeof(v.module_version));
	return arg_out(uarg, &v, sizeof(v), usize);
}

static long ioctl_config(struct jmmap_session *s, void __user *uarg)
{
	struct jmmap_config cfg;
	u32 usize;
	int err;

	err = arg_in(&cfg, sizeof(cfg), JMMAP_CONFIG_SIZE_V1, uarg, &usize);
	if (err)
		return err;
	return jmmap_session_set_config(s, &cfg);
}

static long ioctl_add_target(struct jmmap_session *s, void __user *uarg)
{
	struct jmmap_target t;
	u32 usize, tgid = 0;
	bool added = false;
	int err;

	err = arg_in(&t, sizeof(t), JMMAP_TARGET_SIZE_V1, uarg, &usize);
	if (err)
		return err;
	err = jmmap_target_add(s, &t, &tgid, &added);
	if (err || !tgid || (t.flags & JMMAP_TARGET_NO_SNAPSHOT))
		return err;
	err = jmmap_snapshot(s, tgid);
	/* A failed ADD_TARGET leaves a process followed only if it was already. */
	if (err && added)
		jmmap_target_remove(s, tgid);
	return err;
}

/*
 * The stats in the layout the caller's size holds: struct jmmap_stats, or
 * the first one (JMMAP_REC_SLOTS_V1 slots per array) for a caller built
 * before the arrays got their fixed size.
 */
static long ioctl_stats(struct jmmap_session *s, void __user *uarg)
{
	struct jmmap_stats st;
	struct {
		u32 size, reserved;
		u64 emitted[JMMAP_REC_SLOTS_V1], lost[JMMAP_REC_SLOTS_V1];
	} v1 = { .size = JMMAP_STATS_SIZE_V1 };
	u32 usize;
	int err;

	BUILD_BUG_ON(sizeof(v1) != JMMAP_STATS_SIZE_V1 || JMMAP_REC_SLOTS_V1 > JMMAP_REC_SLOTS);
	err = arg_size(uarg, JMMAP_STATS_SIZE_V1, &usize);
	if (err)
		return err;
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	jmmap_session_stats(s, &st);
	if (usize >= sizeof(st))
		return arg_out(uarg, &st, sizeof(st), usize);
	memcpy(v1.emitted, st.emitted, sizeof(v1.emitted));
	memcpy(v1.lost, st.lost, sizeof(v1.lost));
	return arg_out(uarg, &v1, sizeof(v1), usize);
}

/*
 * Dispatched on the command's number alone: the size that _IOW() encodes is
 * the caller's sizeof() at build time, while the argument's own size field
 * is what says how much of it there is, so a caller built against a newer
 * or older jmmap.h still reaches the command.
 */
static long jmmap_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct jmmap_session *s = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (_IOC_TYPE(cmd) != JMMAP_IOC_MAGIC)
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(JMMAP_IOC_VERSION):
		return ioctl_version(uarg);
	case _IOC_NR(JMMAP_IOC_CONFIG):
		return ioctl_config(s, uarg);
	case _IOC_NR(JMMAP_IOC_ADD_TARGET):
		return ioctl_add_target(s, uarg);
	case _IOC_NR(JMMAP_IOC_GET_STATS):
		return ioctl_stats(s, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations jmmap_fops = {
	.owner = THIS_MODULE,
	.open = jmmap_open,
	.release = jmmap_release,
	.read = jmmap_read,
	.poll = jmmap_poll,
	.mmap = jmmap_mmap,
	.unlocked_ioctl = jmmap_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice jmmap_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = JMMAP_DEVICE_NAME,
	.fops = &jmmap_fops,
	.mode = 0600,
};

static const struct jmmap_arming jmmap_hooks_arming = {
	.arm = jmmap_arm,
	.disarm = jmmap_disarm,
};

/*
 * Loading leaves no hook registered: the first open arms them. Every symbol
 * the hooks need is checked here all the same, by arming once, so that a
 * kernel the module cannot work on refuses it at load time.
 */
static int __init jmmap_init(void)
{
	int err;

	err = jmmap_cookie_init();
	if (err)
		goto out;
	err = pools_create();
	if (err)
		goto out_cookie;
	err = jmmap_arm();
	if (err)
		goto out_pools;
	jmmap_disarm();
	jmmap_sessions_init(&jmmap_hooks_arming);
	err = misc_register(&jmmap_misc);
	if (err)
		goto out_pools;
	return 0;

out_pools:
	pools_destroy();
out_cookie:
	jmmap_cookie_exit();
out:
	return err;
}

/* No session can be open (the device pins the module): the hooks are disarmed. */
static void __exit jmmap_exit(void)
{
	misc_deregister(&jmmap_misc);
	pools_destroy();
	jmmap_cookie_exit();
}

module_init(jmmap_init);
module_exit(jmmap_exit);

MODULE_DESCRIPTION("Exact-range mmap records with build-id cookies for profilers");
MODULE_LICENSE("GPL");
MODULE_VERSION(JMMAP_MODULE_VERSION);
