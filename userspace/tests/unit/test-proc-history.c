// SPDX-License-Identifier: GPL-2.0
/*
 * proc-history: one FORK or EXEC reaches every subscriber once, a thread's
 * creation reaches none, and names follow the history (a child is named as
 * its parent until it names itself; an unnamed thread is ":TID").
 */
#include <string.h>

#include "proc-history.h"
#include "tap.h"

struct heard {
	unsigned int forks, execs, exact;
	uint32_t pid, ppid;
	uint64_t time;
};

static int on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct heard *h = ctx;

	h->forks++;
	h->pid = pid;
	h->ppid = ppid;
	h->time = time;
	return 0;
}

static int on_exec(void *ctx, uint32_t pid, uint64_t time, bool exact)
{
	struct heard *h = ctx;

	h->execs++;
	h->exact += exact;
	h->pid = pid;
	h->time = time;
	return 0;
}

int main(void)
{
	static const struct proc_history_ops ops = {on_fork, on_exec};
	struct heard a = {0}, b = {0};
	struct strpool strings = {0};
	struct proc_history ph;

	proc_history__init(&ph, &strings);
	check(!proc_history__subscribe(&ph, &ops, &a) && !proc_history__subscribe(&ph, &ops, &b),
	      "two subscribers");
	check(!proc_history__comm(&ph, 100, 100, 10, "parent", 6), "the parent names itself");
	check(!proc_history__fork(&ph, 200, 100, 200, 100, 20, false) && a.forks == 1 &&
		  b.forks == 1 && a.pid == 200 && a.ppid == 100 && a.time == 20,
	      "a new process reaches each subscriber once");
	check(!proc_history__fork(&ph, 200, 200, 201, 200, 30, true) && a.forks == 1 &&
		  b.forks == 1,
	      "a new thread reaches none");
	check(!strcmp(proc_history__comm_at(&ph, 200, 25), "parent"),
	      "the child is named as its parent until it names itself");
	check(!strcmp(proc_history__comm_at(&ph, 201, 35), "parent"),
	      "its thread too, through the child");
	check(!proc_history__exec(&ph, 200, 40, true) && a.execs == 1 && b.execs == 1 &&
		  a.exact == 1 && a.time == 40,
	      "an exec reaches each subscriber once, exact from jmmap");
	check(!proc_history__comm(&ph, 200, 200, 40, "child", 5) &&
		  !strcmp(proc_history__comm_at(&ph, 200, 45), "child") &&
		  !strcmp(proc_history__comm_at(&ph, 200, 25), "parent"),
	      "names over time");
	check(!strcmp(proc_history__comm_at(&ph, 999, 1), ":999") &&
		  !strcmp(proc_history__comm_at(&ph, 0, 1), "swapper"),
	      "an unknown thread is :TID, the idle task swapper");
	/* a thread first seen by its exec's name: perf report names it so from the start, perf script not */
	check(!proc_history__comm(&ph, 300, 300, 100, "wc", 2) &&
		  !strcmp(proc_history__comm_at(&ph, 300, 50), "wc") &&
		  !strcmp(proc_history__comm_seen(&ph, 300, 50), ":300") &&
		  !strcmp(proc_history__comm_seen(&ph, 300, 150), "wc") &&
		  !strcmp(proc_history__comm_seen(&ph, 200, 25), "parent"),
	      "before its first name a thread is :TID to perf script, and by its creator after a fork");
	proc_history__release(&ph);
	strpool__release(&strings);
	return tap_done();
}
