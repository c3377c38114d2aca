// SPDX-License-Identifier: GPL-2.0
/* The recorded processes' history, and its subscribers; see proc-history.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "proc-history.h"

void proc_history__init(struct proc_history *ph, struct strpool *strings)
{
	memset(ph, 0, sizeof(*ph));
	ph->strings = strings;
}

int proc_history__subscribe(struct proc_history *ph, const struct proc_history_ops *ops, void *ctx)
{
	if (ph->nr_subs == PH_MAX_SUBSCRIBERS)
		return -ENOSPC;
	ph->subs[ph->nr_subs].ops = ops;
	ph->subs[ph->nr_subs].ctx = ctx;
	ph->nr_subs++;
	return 0;
}

static struct thread *get_thread(struct proc_history *ph, uint32_t tid, uint32_t pid)
{
	bool added;
	struct thread *t = pidmap__get_or_add(&ph->threads, tid, sizeof(*t), &added);

	if (t && added) {
		t->tid = tid;
		t->pid = pid;
	}
	return t;
}

int proc_history__comm(struct proc_history *ph, uint32_t pid, uint32_t tid, uint64_t time,
		       const char *comm, size_t len)
{
	struct thread *t = get_thread(ph, tid, pid);
	const char *c = strpool__intern(ph->strings, comm, len);

	ph->gen++;
	if (!t || !c || array_grow(&t->comms, &t->cap_comms, t->nr_comms + 1))
		return -ENOMEM;
	t->comms[t->nr_comms].time = time;
	t->comms[t->nr_comms].comm = c;
	t->nr_comms++;
	return 0;
}

/*
 * A FORK of @th: the first makes it @ptid's child; a later one, a full turn
 * of the pid space on (the kernel's and jmmap's reports of one fork come a
 * moment apart), is a new thread under the same tid, named as its creator
 * until it gets a name of its own.
 */
static int thread_fork(struct thread *th, uint32_t ptid, uint64_t time)
{
	size_t i;

	/* the earliest fork makes it a child (records are not read in time order) */
	if (!th->has_parent || time < th->fork_time) {
		th->has_parent = true;
		th->ptid = ptid;
		th->fork_time = time;
	}
	/*
	 * Every fork also leaves a marker: from then on the thread is named as
	 * its creator until it gets a name of its own, whatever it was called
	 * under this tid before (a process that ran before the recording).
	 */
	if (ptid == th->tid)
		return 0;
	for (i = 0; i < th->nr_comms; i++)
		if (!th->comms[i].comm && proc_history__same_fork(th->comms[i].time, time))
			return 0;
	if (array_grow(&th->comms, &th->cap_comms, th->nr_comms + 1))
		return -ENOMEM;
	th->comms[th->nr_comms].time = time;
	th->comms[th->nr_comms].comm = NULL;
	th->comms[th->nr_comms].ptid = ptid;
	th->nr_comms++;
	return 0;
}

int proc_history__fork(struct proc_history *ph, uint32_t pid, uint32_t ppid, uint32_t tid,
		       uint32_t ptid, uint64_t time, bool thread)
{
	struct thread *th = get_thread(ph, tid, pid);
	size_t i;
	int err;

	ph->gen++;
	if (!th)
		return -ENOMEM;
	err = thread_fork(th, ptid, time);
	for (i = 0; !err && !thread && i < ph->nr_subs; i++)
		err = ph->subs[i].ops->fork(ph->subs[i].ctx, pid, ppid, time);
	return err;
}

int proc_history__exec(struct proc_history *ph, uint32_t pid, uint64_t time, bool exact)
{
	size_t i;
	int err = 0;

	ph->gen++;
	for (i = 0; !err && i < ph->nr_subs; i++)
		err = ph->subs[i].ops->exec(ph->subs[i].ctx, pid, time, exact);
	return err;
}

/*
 * The event of @t that names it at @time: its latest at or before then (at
 * the same time a name of its own beats a fork's marker), or NULL.
 */
static const struct comm_ev *comm_best(const struct thread *t, uint64_t time)
{
	const struct comm_ev *best = NULL;
	size_t i;

	for (i = 0; i < t->nr_comms; i++) {
		const struct comm_ev *c = &t->comms[i];

		if (c->time <= time &&
		    (!best || c->time > best->time || (c->time == best->time && c->comm)))
			best = c;
	}
	return best;
}

/*
 * @tid's name at @time: its own latest by then, or its creator's when it
 * was made; else, with @later, its own first one after (else ":TID").
 */
static const char *comm_walk(struct proc_history *ph, uint32_t tid, uint64_t time, bool later)
{
	const struct thread *t = pidmap__get(&ph->threads, tid);
	char buf[32];
	int depth;

	for (depth = 0; t && depth < 16; depth++) {
		const struct comm_ev *best = comm_best(t, time), *first = NULL;
		size_t i;

		if (best && best->comm)
			return best->comm;
		if (best) {
			/* a later thread under a reused tid: its creator's name then */
			time = best->time;
			t = pidmap__get(&ph->threads, best->ptid);
			continue;
		}
		if (t->has_parent && t->ptid != t->tid) {
			if (t->fork_time < time)
				time = t->fork_time;
			t = pidmap__get(&ph->threads, t->ptid);
			continue;
		}
		for (i = 0; later && i < t->nr_comms; i++)
			if (t->comms[i].comm && (!first || t->comms[i].time < first->time))
				first = &t->comms[i];
		if (first)
			return first->comm;
		break;
	}
	if (!tid)
		return strpool__str(ph->strings, "swapper"); /* the idle task, as perf names it */
	snprintf(buf, sizeof(buf), ":%d", (int)tid); /* perf's: -1 for none */
	return strpool__str(ph->strings, buf);
}


/* The memo of @tid's name at @time, when it holds one; else NULL. */
static const char *memo_hit(const struct proc_history *ph, uint32_t tid, uint64_t time)
{
	const struct ph_comm_memo *l = &ph->last[tid & (PH_COMM_CACHE - 1)];

	if (l->comm && l->gen == ph->gen && l->tid == tid && l->from <= time && time < l->until)
		return l->comm;
	return NULL;
}

/*
 * The walk depends on @time only through the thread's own event that names
 * it then: the answer holds from that event until the thread's next one.
 */
const char *proc_history__comm_at(struct proc_history *ph, uint32_t tid, uint64_t time)
{
	struct ph_comm_memo *l = &ph->last[tid & (PH_COMM_CACHE - 1)];
	const struct thread *t;
	const struct comm_ev *best;
	const char *comm = memo_hit(ph, tid, time);
	uint64_t until = UINT64_MAX;
	size_t i;

	if (comm)
		return comm;
	comm = comm_walk(ph, tid, time, true);
	t = pidmap__get(&ph->threads, tid);
	best = t ? comm_best(t, time) : NULL;
	if (!best)
		return comm;
	for (i = 0; i < t->nr_comms; i++)
		if (t->comms[i].time > time && t->comms[i].time < until)
			until = t->comms[i].time;
	l->gen = ph->gen;
	l->tid = tid;
	l->from = best->time;
	l->until = until;
	l->comm = comm;
	return comm;
}

/* A memo is only made for a thread named by its own event by then: that answer is the same. */
const char *proc_history__comm_seen(struct proc_history *ph, uint32_t tid, uint64_t time)
{
	const char *comm = memo_hit(ph, tid, time);
	const struct thread *t;

	if (comm)
		return comm;
	t = pidmap__get(&ph->threads, tid);
	if (t && comm_best(t, time))
		return proc_history__comm_at(ph, tid, time);
	return comm_walk(ph, tid, time, false);
}

bool proc_history__comm_steady(struct proc_history *ph, uint32_t tid, uint64_t from, uint64_t to)
{
	const struct thread *t = pidmap__get(&ph->threads, tid);
	size_t i;

	if (!t)
		return true;
	/* before its fork, a thread is named by its parent's later events */
	if (t->has_parent && t->fork_time > from)
		return false;
	/* the walk depends on the time only through the thread's own events */
	for (i = 0; i < t->nr_comms; i++)
		if (t->comms[i].time > from && t->comms[i].time <= to)
			return false;
	return true;
}

void proc_history__release(struct proc_history *ph)
{
	struct thread *t;
	size_t it = 0;

	if (!ph)
		return;
	while ((t = pidmap__next(&ph->threads, &it))) {
		free(t->comms);
		free(t);
	}
	pidmap__release(&ph->threads);
	memset(ph, 0, sizeof(*ph));
}
