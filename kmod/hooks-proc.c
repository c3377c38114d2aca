// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap process hooks: the sched_process_exec/fork/exit tracepoints, found
 * by name with for_each_kernel_tracepoint() because their register_trace_*
 * helpers are not exported to modules. Probes run with preemption disabled:
 * nothing in them allocates, frees or takes a lock that sleeps on
 * PREEMPT_RT. Each probe's prototype is checked against the tracepoint's
 * own at build time (check_trace_callback_type_*).
 */
#include <linux/binfmts.h>
#include <linux/file.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "compat.h"
#include "defer.h"
#include "hooks.h"

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	u32 tgid = (u32)p->tgid;
	struct jmmap_pending *pend;

	if (p != current || !jmmap_anyone_wants(tgid, JMMAP_WANT_EXEC_MAPS))
		return;
	pend = jmmap_pending_new();
	if (!pend) {
		jmmap_lost_alloc(JMMAP_REC_EXEC, tgid, JMMAP_WANT_EXEC_MAPS, NULL);
		return;
	}
	pend->tgid = tgid;
	pend->want = JMMAP_WANT_EXEC_MAPS;
	pend->r.exec.hdr.type = JMMAP_REC_EXEC;
	pend->r.exec.pid = tgid;
	pend->r.exec.tid = (u32)p->pid;
	pend->r.exec.time = jmmap_now();
	/*
	 * Not get_task_comm(): before 6.13 it takes task_lock, which sleeps on
	 * PREEMPT_RT (a reader of /proc/PID/stat may hold it). The task is
	 * current, the only thread left after exec, and only its own thread
	 * group changes its name: nobody writes it meanwhile.
	 */
	BUILD_BUG_ON(sizeof(pend->r.exec.comm) != sizeof(p->comm));
	strscpy_pad(pend->r.exec.comm, p->comm, sizeof(pend->r.exec.comm));
	if (bprm->file)
		pend->file = get_file(bprm->file);
	jmmap_defer(pend);
}

static void probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	struct jmmap_rec_fork rec;
	u32 ptgid = (u32)parent->tgid, ctgid = (u32)child->tgid;
	bool thread = ptgid == ctgid;

	/* Follow the child first, so that none of its records is missed. */
	if (!thread)
		jmmap_targets_fork(ptgid, ctgid);
	if (!jmmap_anyone_wants(ctgid, JMMAP_WANT_EXEC_MAPS))
		return;
	memset(&rec, 0, sizeof(rec));
	rec.hdr.type = JMMAP_REC_FORK;
	rec.hdr.flags = thread ? JMMAP_FORK_THREAD : 0;
	rec.hdr.size = sizeof(rec);
	rec.pid = ctgid;
	rec.tid = (u32)child->pid;
	rec.ppid = ptgid;
	rec.ptid = (u32)parent->pid;
	rec.time = jmmap_now();
	jmmap_emit(&rec.hdr, ctgid, JMMAP_WANT_EXEC_MAPS);
}

/*
 * Where the tracepoint has no group_dead (compat.h), signal->live is read
 * late in do_exit(), so threads exiting together may all see 0, and more
 * than one EXIT of the process can go without JMMAP_EXIT_THREAD.
 */
static void probe_exit(void *data, JMMAP_SCHED_EXIT_PROTO(p, tp_group_dead))
{
	struct jmmap_rec_exit rec;
	u32 tgid = (u32)p->tgid;
	bool group_dead = JMMAP_SCHED_EXIT_GROUP_DEAD(p, tp_group_dead);

	if (jmmap_anyone_wants(tgid, JMMAP_WANT_EXEC_MAPS)) {
		memset(&rec, 0, sizeof(rec));
		rec.hdr.type = JMMAP_REC_EXIT;
		rec.hdr.flags = group_dead ? 0 : JMMAP_EXIT_THREAD;
		rec.hdr.size = sizeof(rec);
		rec.pid = tgid;
		rec.tid = (u32)p->pid;
		rec.time = jmmap_now();
		jmmap_emit(&rec.hdr, tgid, JMMAP_WANT_EXEC_MAPS);
	}
	jmmap_hooks_mm_task_exit(p);
}

static struct jmmap_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool registered;
} tps[] = {
	{ .name = "sched_process_exec", .probe = probe_exec },
	{ .name = "sched_process_fork", .probe = probe_fork },
	{ .name = "sched_process_exit", .probe = probe_exit },
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tps); i++)
		if (!strcmp(tp->name, tps[i].name))
			tps[i].tp = tp;
}

void jmmap_hooks_proc_unregister(void)
{
	size_t i;

	for (i = ARRAY_SIZE(tps); i-- > 0;) {
		if (tps[i].registered)
			tracepoint_probe_unregister(tps[i].tp, tps[i].probe, NULL);
		tps[i].registered = false;
	}
	/* No probe runs after this returns. */
	tracepoint_synchronize_unregister();
}

int jmmap_hooks_proc_register(void)
{
	size_t i;
	int err = 0;

	/* A probe whose prototype no longer matches is a build error. */
	check_trace_callback_type_sched_process_exec(probe_exec);
	check_trace_callback_type_sched_process_fork(probe_fork);
	check_trace_callback_type_sched_process_exit(probe_exit);

	for_each_kernel_tracepoint(find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(tps); i++) {
		if (!tps[i].tp) {
			pr_err("jmmap: tracepoint %s not found\n", tps[i].name);
			err = -ENOENT;
			goto out_unregister;
		}
		err = tracepoint_probe_register(tps[i].tp, tps[i].probe, NULL);
		if (err)
			goto out_unregister;
		tps[i].registered = true;
	}
	return 0;

out_unregister:
	jmmap_hooks_proc_unregister();
	return err;
}
