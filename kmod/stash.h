/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap per-task stashes: what a task is doing between the entry of
 * mmap_region/mprotect_fixup and their perf_event_mmap() (the map class),
 * and which range a new mapping replaces, between the entry of mmap_region
 * and the unmap_vmas() that takes the old vmas down (the unmap class; on
 * 6.6+ after perf_event_mmap()) (hooks-mm.c): at most one stash of each
 * class per task. An operation that fails leaves its stash until the task's
 * next one of that class, or its exit; only tasks of a followed process
 * claim map-class stashes for mprotect(), and a stash is taken only in the
 * system call that made it.
 *
 * Stashes live in a table of slots set aside at load, STASH_SLOTS a class,
 * looked for from the task's hash over STASH_PROBE slots. A task claims a
 * free slot with a cmpxchg of its owner from NULL and gives it back by
 * storing NULL; only the owner writes or reads a claimed slot, and only the
 * task itself claims slots for itself, so there is no lock: a hook takes
 * none, allocates nothing and never sleeps, on PREEMPT_RT too. When every
 * slot of the window is taken the caller counts its record lost. The
 * lookups are inline: every mapping call of a traced task makes some.
 *
 * Most lookups find nothing: every mmap() and munmap() of a traced task
 * looks for a stale stash, and the unmap class is claimed only where a new
 * mapping replaces code. A count of each class's claimed slots lets a
 * lookup answer "none" without hashing while the class is empty. A task's
 * own claim is counted before it can look for it; the counts are exact
 * once no hook runs (jmmap_stash_clear()).
 */
#ifndef JMMAP_STASH_H
#define JMMAP_STASH_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/types.h>

enum stash_kind { STASH_MMAP, STASH_MPROTECT_EXEC, STASH_MPROTECT_NOEXEC, STASH_REPLACED };

#define STASH_BITS 10
#define STASH_SLOTS (1U << STASH_BITS)
#define STASH_PROBE 4

struct stash {
	struct task_struct *task; /* the owner, or NULL; a key, never dereferenced */
	enum stash_kind kind;
	u64 time;
	unsigned long start, len, pgoff, newflags;
	int syscall; /* the system call stashed in (STASH_REPLACED: the one that mapped) */
};

/* [0]: the map class, [1]: the unmap class (stash.c) */
extern struct stash *jmmap_stash_table[2];
/* slots of each class claimed */
extern atomic_t jmmap_stash_claimed[2];

/* Task context, at load and unload: the table, charged to the loader. */
int jmmap_stash_init(void);
void jmmap_stash_exit(void);
/* Give every slot back; no hook may run any more. */
void jmmap_stash_clear(void);

static inline struct stash *stash_slot(bool unmap, u32 h, u32 i)
{
	return &jmmap_stash_table[unmap][(h + i) & (STASH_SLOTS - 1)];
}

/* Whether any task holds a stash of the class: if not, no lookup finds one. */
static inline bool stash_claimed(bool unmap)
{
	return atomic_read(&jmmap_stash_claimed[unmap]) != 0;
}

/* @task's stash of the class, still claimed, or NULL. */
static inline struct stash *stash_find(struct task_struct *task, bool unmap)
{
	u32 h, i;

	if (!stash_claimed(unmap))
		return NULL;
	h = hash_ptr(task, STASH_BITS);
	for (i = 0; i < STASH_PROBE; i++) {
		struct stash *st = stash_slot(unmap, h, i);

		if (READ_ONCE(st->task) == task)
			return st;
	}
	return NULL;
}

/*
 * A slot for the current task's new stash of the class, or NULL (lost): its
 * own if a call that failed left one (overwritten), else a free one. While
 * the class has no slot claimed, the task has none of its own to look for
 * (the common case: a task whose last call took its stash). A free slot
 * taken by another task meanwhile fails the cmpxchg: the next one is tried.
 */
static inline struct stash *stash_claim(bool unmap)
{
	struct task_struct *me = current;
	struct stash *st = stash_find(me, unmap);
	u32 h = hash_ptr(me, STASH_BITS), i;

	if (st)
		return st;
	for (i = 0; i < STASH_PROBE; i++) {
		st = stash_slot(unmap, h, i);
		if (!READ_ONCE(st->task) && !cmpxchg(&st->task, NULL, me)) {
			atomic_inc(&jmmap_stash_claimed[unmap]);
			return st;
		}
	}
	return NULL;
}

/* NULL-safe, @st of the class; the slot may be claimed by another task at once. */
static inline void stash_release(struct stash *st, bool unmap)
{
	if (!st)
		return;
	atomic_dec(&jmmap_stash_claimed[unmap]);
	smp_store_release(&st->task, NULL);
}

#endif
