/* SPDX-License-Identifier: GPL-2.0 */
/*
 * addrspace: each process's mappings over time, rebuilt from the kernel's
 * MMAP/MMAP2/COMM(exec)/FORK records and jmmap's MMAP3/MUNMAP/EXEC/FORK
 * records. Events are added in any order; addrspace__finish() sorts each
 * process's events by time and turns them into mappings valid over
 * [t_start, t_end). For a process that jmmap traced, the kernel's mapping
 * records are ignored: jmmap's are exact.
 *
 * A lookup at (pid, addr, t) returns the mapping that covered addr at t, the
 * one that started last when several did, falling back to the parent's
 * mappings at fork time when the process had not exec'd by t.
 */
#ifndef JREC_ADDRSPACE_H
#define JREC_ADDRSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pidmap.h"
#include "proc-history.h"

struct dso;

struct as_map {
	uint64_t start, end, pgoff;
	uint64_t t_start, t_end; /* valid over [t_start, t_end) */
	struct dso *dso;         /* NULL for anonymous memory */
	const char *name;        /* without a dso: the record's name ("//anon", "[stack]"), or NULL */
	uint32_t prot;
	bool from_jmmap;
	bool rest; /* what a change beside it left of an older mapping */
};

enum as_ev_kind { AS_EV_MAP, AS_EV_UNMAP, AS_EV_EXEC, AS_EV_FORK };

struct as_event {
	uint64_t time, seq;
	uint8_t kind;       /* enum as_ev_kind */
	bool from_jmmap;
	bool exec_cause;    /* MMAP3 with cause EXEC: the new image being mapped */
	struct as_map map;  /* MAP: the mapping; UNMAP: start/end */
};

/* A process created under this pid (pids are reused): by whom, when. */
struct as_fork {
	uint64_t time;
	uint32_t ppid;
};

struct as_proc {
	uint32_t pid;
	bool jmmap_traced;
	struct as_fork *forks; /* sorted by time after finish */
	size_t nr_forks, cap_forks;
	uint64_t *execs;       /* exec times, sorted after finish */
	size_t nr_execs, cap_execs;
	struct as_event *ev;
	size_t nr_ev, cap_ev;
	struct as_map *maps; /* sorted by start after finish */
	uint64_t *max_end;   /* max_end[i] = max(maps[0..i].end) */
	size_t nr_maps, cap_maps;
};

/*
 * Whether @p at @t still runs what its parent had at the fork that created
 * it (no exec since): then *ppid and *fork_time say where to look, and
 * *until (if not NULL) is when that ends (its next exec or the pid's reuse).
 */
bool addrspace__parent_at(const struct as_proc *p, uint64_t t, uint32_t *ppid,
			  uint64_t *fork_time, uint64_t *until);

/* How far up the process tree a lookup goes for a forked child's inherited maps. */
#define AS_MAX_PARENT_DEPTH 32

struct addrspace {
	struct pidmap procs;
	uint64_t seq;
};

int addrspace__add_map(struct addrspace *as, uint32_t pid, uint64_t time, const struct as_map *m,
		       bool from_jmmap, bool exec_cause);
int addrspace__add_unmap(struct addrspace *as, uint32_t pid, uint64_t time, uint64_t start,
			 uint64_t len);
int addrspace__add_exec(struct addrspace *as, uint32_t pid, uint64_t time, bool from_jmmap);
/* @pid was created by @ppid at @time: a new process under that pid from then on. */
int addrspace__add_fork(struct addrspace *as, uint32_t pid, uint32_t ppid, uint64_t time);
/* Hear of every fork and exec from @ph (addrspace__add_fork, addrspace__add_exec). */
int addrspace__subscribe(struct addrspace *as, struct proc_history *ph);
/* Mark @pid as traced by jmmap (its kernel mapping records are then ignored). */
int addrspace__set_jmmap(struct addrspace *as, uint32_t pid);
int addrspace__finish(struct addrspace *as);
const struct as_map *addrspace__find(const struct addrspace *as, uint32_t pid, uint64_t addr,
				     uint64_t time);
/*
 * The mapping that covered @addr of @pid just before the process's latest
 * exec at or before @time, when nothing covers it now: inside execve, until
 * the new image's first instruction, the user registers still point into the
 * image being replaced. NULL without such an exec (or when the process at
 * @time was forked after it).
 */
const struct as_map *addrspace__find_replaced(const struct addrspace *as, uint32_t pid,
					      uint64_t addr, uint64_t time);
/*
 * Since when what covers @addr of @pid at @time has been there unchanged:
 * the start of that mapping, or of the one it continues (the part of an
 * older mapping that a change beside it left, or an anonymous mapping that a
 * kernel record of the merged vma only grew). -ENOENT if nothing covers it.
 */
int addrspace__since(const struct addrspace *as, uint32_t pid, uint64_t addr, uint64_t time,
		     uint64_t *since);
struct as_proc *addrspace__proc(const struct addrspace *as, uint32_t pid);
void addrspace__release(struct addrspace *as);

#endif
