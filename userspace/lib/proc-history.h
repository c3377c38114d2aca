/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc-history: the one model of the recorded processes' history: threads,
 * their names over time, forks and execs, from the kernel's COMM and FORK
 * records and jmmap's EXEC and FORK records. Models that keep per-process
 * state (address spaces, JIT symbols) subscribe to it, so that a record is
 * dispatched once, here, and each subscriber hears of every new process and
 * every exec.
 */
#ifndef JREC_PROC_HISTORY_H
#define JREC_PROC_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pidmap.h"
#include "strpool.h"

/*
 * Two FORK records of one pid closer than this are one fork, reported by
 * the kernel and by jmmap a moment apart; a new process under a reused pid
 * comes a full turn of the pid space later.
 */
#define PH_SAME_FORK_NS 10000000ULL

static inline bool proc_history__same_fork(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) < PH_SAME_FORK_NS;
}

struct comm_ev {
	uint64_t time;
	const char *comm; /* interned; NULL: a new thread under this tid, named as ptid */
	uint32_t ptid;
};

struct thread {
	uint32_t tid, pid, ptid;
	uint64_t fork_time;
	bool has_parent;
	struct comm_ev *comms;
	size_t nr_comms, cap_comms;
};

/* What a subscriber hears; each returns 0 or a negative errno. */
struct proc_history_ops {
	/* @pid was created by @ppid at @time: a new process under that pid */
	int (*fork)(void *ctx, uint32_t pid, uint32_t ppid, uint64_t time);
	/* @pid exec'd at @time; @exact when jmmap reported it */
	int (*exec)(void *ctx, uint32_t pid, uint64_t time, bool exact);
};

#define PH_MAX_SUBSCRIBERS 4
#define PH_COMM_CACHE 64 /* a power of two */

struct proc_history {
	struct pidmap threads;
	struct strpool *strings; /* the caller's, for the names */
	struct {
		const struct proc_history_ops *ops;
		void *ctx;
	} subs[PH_MAX_SUBSCRIBERS];
	size_t nr_subs;
	/*
	 * Answers of proc_history__comm_at() found in a thread's own names, by
	 * tid (direct-mapped), and the times each holds for: [from, until) while
	 * nothing was added (gen, bumped by every change).
	 */
	uint64_t gen;
	struct ph_comm_memo {
		uint64_t gen, from, until;
		uint32_t tid;
		const char *comm;
	} last[PH_COMM_CACHE];
};

void proc_history__init(struct proc_history *ph, struct strpool *strings);
/* Tell @ops (with @ctx) of every fork and exec from now on. 0 or -ENOSPC. */
int proc_history__subscribe(struct proc_history *ph, const struct proc_history_ops *ops, void *ctx);
/* @tid of @pid is named @comm (@len bytes) from @time on. */
int proc_history__comm(struct proc_history *ph, uint32_t pid, uint32_t tid, uint64_t time,
		       const char *comm, size_t len);
/*
 * @tid of @pid was created by @ptid of @ppid at @time; a new process unless
 * @thread (then only the thread's history changes).
 */
int proc_history__fork(struct proc_history *ph, uint32_t pid, uint32_t ppid, uint32_t tid,
		       uint32_t ptid, uint64_t time, bool thread);
/* @pid replaced its image at @time (@exact: from jmmap). */
int proc_history__exec(struct proc_history *ph, uint32_t pid, uint64_t time, bool exact);
/* The name of @tid at @time (interned), never NULL: ":TID" when it has none. */
const char *proc_history__comm_at(struct proc_history *ph, uint32_t tid, uint64_t time);
/*
 * The name perf script gives @tid at @time: as proc_history__comm_at(), but
 * ":TID" for a thread not named yet (no name of its own by then, nor a
 * creator's), where perf report, and proc_history__comm_at(), take its
 * first name after.
 */
const char *proc_history__comm_seen(struct proc_history *ph, uint32_t tid, uint64_t time);
/* Whether proc_history__comm_at() gives @tid one name over [@from, @to]. */
bool proc_history__comm_steady(struct proc_history *ph, uint32_t tid, uint64_t from, uint64_t to);
void proc_history__release(struct proc_history *ph);

#endif
