// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap targets: the processes a session follows. A bitmap of thread-group
 * ids (init namespace) per session, one bit for every pid the kernel can
 * give (PID_MAX_LIMIT), set aside when the session opens: hooks test and
 * set bits without a lock or an allocation, so following a new child can
 * neither sleep nor fail. An exited process stays in the set until its pid
 * is reused: the fork hook then clears it in the sessions that do not
 * follow the new process's parent.
 */
#include <linux/capability.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "internal.h"

void jmmap_target_set(struct jmmap_session *s, u32 tgid, bool follow)
{
	if (!tgid || tgid >= PID_MAX_LIMIT)
		return;
	if (follow)
		set_bit(tgid, s->targets);
	else if (test_bit(tgid, s->targets))
		clear_bit(tgid, s->targets);
}

/*
 * Add a target: a pid as the caller sees it in its pid namespace, or the
 * whole system. The caller needs perfmon_capable() now too, so that a
 * descriptor handed to a less privileged process cannot widen what it sees.
 */
int jmmap_target_add(struct jmmap_session *s, const struct jmmap_target *t, u32 *tgid_out,
		     bool *added)
{
	struct task_struct *task;
	struct pid *pid;
	u32 tgid;

	if (t->flags & ~(u64)(JMMAP_TARGET_SYSTEM_WIDE | JMMAP_TARGET_NO_SNAPSHOT))
		return -EINVAL;
	if (!perfmon_capable())
		return -EPERM;
	if (t->flags & JMMAP_TARGET_SYSTEM_WIDE) {
		if (t->pid)
			return -EINVAL;
		mutex_lock(&s->ioctl_mutex);
		s->armed = true;
		WRITE_ONCE(s->system_wide, true);
		mutex_unlock(&s->ioctl_mutex);
		return 0;
	}
	if (!t->pid || t->pid >= PID_MAX_LIMIT)
		return -EINVAL;

	/*
	 * Not a process whose threads have all exited (a zombie): there is
	 * nothing left to follow. Its leader alone having exited (exit_state
	 * set) is not that: the other threads still run.
	 */
	rcu_read_lock();
	pid = find_vpid((int)t->pid);
	task = pid ? pid_task(pid, PIDTYPE_TGID) : NULL;
	tgid = task && atomic_read(&task->signal->live) ? (u32)task_tgid_nr(task) : 0;
	rcu_read_unlock();
	if (!tgid)
		return -ESRCH;

	mutex_lock(&s->ioctl_mutex);
	s->armed = true;
	*added = !test_and_set_bit(tgid, s->targets);
	mutex_unlock(&s->ioctl_mutex);
	*tgid_out = tgid;
	return 0;
}

void jmmap_target_remove(struct jmmap_session *s, u32 tgid)
{
	jmmap_target_set(s, tgid, false);
}
