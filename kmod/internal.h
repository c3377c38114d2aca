/* SPDX-License-Identifier: GPL-2.0 */
/* jmmap: what the module's files share. Nothing here leaves the kernel. */
#ifndef JMMAP_INTERNAL_H
#define JMMAP_INTERNAL_H

#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/threads.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "jmmap.h"

#define JMMAP_BUF_DEFAULT (1U << 20)
#define JMMAP_BUF_MIN (1U << 13)
#define JMMAP_BUF_MAX (1U << 26)

#define JMMAP_FEATURES                                                                             \
	(JMMAP_FEAT_MMAP3 | JMMAP_FEAT_MUNMAP | JMMAP_FEAT_PROC_TREE | JMMAP_FEAT_SNAPSHOT |       \
	 JMMAP_FEAT_COOKIE_ELF | JMMAP_FEAT_COOKIE_CONTENT | JMMAP_FEAT_SYSTEM_WIDE |              \
	 JMMAP_FEAT_DATA_MMAPS | JMMAP_FEAT_WAKEUP_BYTES | JMMAP_FEAT_MMAP_RING)

/*
 * Sessions open at once: each holds a ring (up to JMMAP_BUF_MAX) and a
 * target bitmap (JMMAP_TARGETS_BYTES), both charged to its opener.
 */
#define JMMAP_SESSIONS_MAX 64
#define JMMAP_TARGETS_BYTES (BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long))

/* Record sizes: the fixed part plus a file name of at most PATH_MAX. */
#define JMMAP_NAME_MAX 4096
#define JMMAP_REC_SIZE_MAX (sizeof(struct jmmap_rec_mmap3) + JMMAP_NAME_MAX)

/*
 * One open of /dev/jmmap. Writers (hooks) take @lock only, a raw spinlock
 * (hooks run with preemption disabled). It is taken in task context only:
 * by the mm hooks, the tracepoints of a task's own fork, exec and exit,
 * task_work, and the file's operations; no interrupt handler, softirq or
 * irq_work takes it, so interrupts stay enabled under it. The one reader at
 * a time holds
 * @read_mutex while it copies out, or reads the ring it mapped, and writers
 * never touch the bytes between the reader's tail (page->data_tail) and
 * @head. Writers never wake readers themselves (a wake-up takes a lock that
 * sleeps on PREEMPT_RT): they queue @wakeup.
 */
struct jmmap_session {
	struct list_head node; /* in the registry (session.c), RCU */
	raw_spinlock_t lock;   /* ring positions, counters */
	struct jmmap_ring_page *page; /* the ring: this page, then @buf */
	u8 *buf;
	u32 size;        /* power of two */
	u64 head;        /* free-running byte position; the tail is page->data_tail */
	u64 tail_seen;   /* the tail as a writer last read it (ring_fill()) */
	bool mapped;     /* a reader mapped the ring: its size is fixed */
	u64 emitted[JMMAP_REC_MAX];
	u64 lost[JMMAP_REC_MAX];         /* since open */
	u64 lost_pending[JMMAP_REC_MAX]; /* since the last LOST record */
	bool lost_owed;
	u32 wakeup_bytes;        /* readers are woken at this fill; 0 acts as 1 */
	struct mutex read_mutex;
	wait_queue_head_t wait;
	struct irq_work wakeup;

	struct mutex ioctl_mutex; /* config and targets changes */
	bool armed;               /* a target was added: buffer size fixed */
	bool system_wide;
	u64 config_flags;         /* JMMAP_CONFIG_* */
	unsigned long *targets;   /* bitmap of tgids (init namespace) followed */
	const struct cred *cred;  /* the opener's: whose reads a cookie may stand for */
};

/* session.c: sessions, their rings and the registry of open sessions */
/*
 * What the registry does when its first session opens and its last one
 * closes: arm the hooks and disarm them (hooks.c). The module's init gives
 * it before any session can open, so that the sessions do not reach up to
 * the hooks that write into them.
 */
struct jmmap_arming {
	int (*arm)(void);
	void (*disarm)(void);
};
void jmmap_sessions_init(const struct jmmap_arming *arming);
struct jmmap_session *jmmap_session_new(void);
void jmmap_session_free(struct jmmap_session *s);
int jmmap_session_set_config(struct jmmap_session *s, const struct jmmap_config *cfg);
/*
 * Make @s reachable from the hooks; the first session arms them
 * (jmmap_sessions_init()), and -EMFILE past JMMAP_SESSIONS_MAX. After
 * unpublish no hook writes to @s any more; the last session disarms.
 */
int jmmap_session_publish(struct jmmap_session *s);
void jmmap_session_unpublish(struct jmmap_session *s);
ssize_t jmmap_session_read(struct jmmap_session *s, char __user *ubuf, size_t count,
			   bool nonblock);
__poll_t jmmap_session_poll(struct jmmap_session *s, struct file *file, poll_table *pt);
int jmmap_session_mmap(struct jmmap_session *s, struct vm_area_struct *vma);
void jmmap_session_stats(struct jmmap_session *s, struct jmmap_stats *st);
void jmmap_session_write(struct jmmap_session *s, const struct jmmap_rec_header *rec);

/* Records about a process with this tgid: who wants them (any context). */
enum jmmap_want {
	JMMAP_WANT_EXEC_MAPS, /* executable mappings, unmaps, the process tree */
	JMMAP_WANT_DATA_MAPS, /* non-executable mappings too */
};
bool jmmap_anyone_wants(u32 tgid, enum jmmap_want want);
/*
 * The same for both kinds at once, in one walk of the sessions: JMMAP_WANTS_*
 * bits. With preemption disabled (the mm hooks).
 */
#define JMMAP_WANTS_EXEC (1U << JMMAP_WANT_EXEC_MAPS)
#define JMMAP_WANTS_DATA (1U << JMMAP_WANT_DATA_MAPS)
u32 jmmap_wants(u32 tgid);
/* Whether any session asked for non-executable mappings: no walk, a flag. */
extern bool jmmap_data_sessions;
static inline bool jmmap_data_wanted(void)
{
	return READ_ONCE(jmmap_data_sessions);
}
void jmmap_emit(const struct jmmap_rec_header *rec, u32 tgid, enum jmmap_want want);
/*
 * The same for a record without a file (fixed-rec.h: MUNMAP, MMAP3 of
 * anonymous memory) about @f->pid, laid out in each session's ring in place.
 * With preemption disabled (the mm hooks).
 */
struct jmmap_fixed_rec;
void jmmap_emit_fixed(const struct jmmap_fixed_rec *f, enum jmmap_want want);

/*
 * A record with the cookie of @file at byte @cookie_off (struct
 * jmmap_cookie_fields there), to @only or every entitled session: a
 * session whose opener may not read @file gets it without the cookie
 * (JMMAP_COOKIE_WHY_WITHHELD). Task context; @rec is restored on return.
 */
struct file;
void jmmap_emit_cookie(struct jmmap_rec_header *rec, size_t cookie_off, struct file *file,
		       u32 tgid, enum jmmap_want want, struct jmmap_session *only);

/*
 * A record of @type about @tgid could not even be built: count it lost in
 * @only (a snapshot's session), or else in every session entitled to it.
 */
void jmmap_lost_alloc(u16 type, u32 tgid, enum jmmap_want want, struct jmmap_session *only);

/* Follow a new process in every session that follows its parent, only there. */
void jmmap_targets_fork(u32 parent_tgid, u32 child_tgid);

/*
 * targets.c: which processes a session follows. jmmap_target_add() gives
 * the tgid added (0 for system-wide) and whether it was not followed yet.
 */
int jmmap_target_add(struct jmmap_session *s, const struct jmmap_target *t, u32 *tgid_out,
		     bool *added);
void jmmap_target_remove(struct jmmap_session *s, u32 tgid);
/* Inline: every hook asks it, of each open session. */
static inline bool jmmap_session_follows(struct jmmap_session *s, u32 tgid)
{
	return tgid && tgid < PID_MAX_LIMIT && test_bit(tgid, s->targets);
}
/* Any context: follow @tgid or not. */
void jmmap_target_set(struct jmmap_session *s, u32 tgid, bool follow);

/*
 * The time of every record: the clock perf stamps its records with when
 * asked for CLOCK_MONOTONIC (jrec asks), so that a record and a sample taken
 * at once compare as such; it reads no seqcount a writer could hold, in any
 * context.
 */
static inline u64 jmmap_now(void)
{
	return ktime_get_mono_fast_ns();
}

#endif
