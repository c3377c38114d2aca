// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap sessions: one per open of /dev/jmmap, each with its own ring of
 * whole records, and the registry through which hooks reach them.
 *
 * The registry is a list changed under jmmap_sessions_mutex and walked under
 * RCU; unpublishing waits for a grace period before a session can be freed.
 * The hooks are armed while the list is not empty.
 *
 * Everything a hook calls here is safe with preemption disabled on a
 * PREEMPT_RT kernel: the ring takes a raw spinlock, readers are woken from
 * an irq_work, and target lookups are bit tests.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "fixed-rec.h"
#include "internal.h"

static LIST_HEAD(jmmap_sessions);
static DEFINE_MUTEX(jmmap_sessions_mutex);
static unsigned int jmmap_sessions_open; /* under jmmap_sessions_mutex */
/* Some published session has JMMAP_CONFIG_DATA_MMAPS; set under the mutex. */
bool jmmap_data_sessions;
/* What the first session's opening and the last one's closing do (jmmap_sessions_init()). */
static const struct jmmap_arming *jmmap_arming;

void jmmap_sessions_init(const struct jmmap_arming *arming)
{
	jmmap_arming = arming;
}

static void wakeup_readers(struct irq_work *work)
{
	struct jmmap_session *s = container_of(work, struct jmmap_session, wakeup);

	wake_up_interruptible(&s->wait);
}

/* Memory of a session is charged to the task that opens it. */
static void *session_vzalloc(size_t bytes)
{
	return __vmalloc(bytes, GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
}

/* A ring of @bytes: its page, then the records' buffer, zeroed. */
static struct jmmap_ring_page *ring_alloc(u32 bytes)
{
	struct jmmap_ring_page *pg = session_vzalloc(PAGE_SIZE + (size_t)bytes);

	if (pg) {
		pg->data_offset = PAGE_SIZE;
		pg->data_size = bytes;
	}
	return pg;
}

struct jmmap_session *jmmap_session_new(void)
{
	struct jmmap_session *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return NULL;
	s->page = ring_alloc(JMMAP_BUF_DEFAULT);
	s->targets = session_vzalloc(JMMAP_TARGETS_BYTES);
	if (!s->page || !s->targets) {
		vfree(s->targets);
		vfree(s->page);
		kfree(s);
		return NULL;
	}
	s->buf = (u8 *)s->page + PAGE_SIZE;
	s->size = JMMAP_BUF_DEFAULT;
	INIT_LIST_HEAD(&s->node);
	raw_spin_lock_init(&s->lock);
	mutex_init(&s->read_mutex);
	mutex_init(&s->ioctl_mutex);
	init_waitqueue_head(&s->wait);
	init_irq_work(&s->wakeup, wakeup_readers);
	s->cred = get_current_cred();
	return s;
}

/* NULL-safe; the session must be unpublished already. */
void jmmap_session_free(struct jmmap_session *s)
{
	if (!s)
		return;
	irq_work_sync(&s->wakeup);
	put_cred(s->cred);
	vfree(s->targets);
	vfree(s->page);
	kfree(s);
}

/* Whether @s asked for non-executable mappings too. */
static bool session_wants_data(struct jmmap_session *s)
{
	return READ_ONCE(s->config_flags) & JMMAP_CONFIG_DATA_MMAPS;
}

/* jmmap_sessions_mutex held: jmmap_data_sessions from the published sessions. */
static void update_data_sessions(void)
{
	struct jmmap_session *s;
	bool any = false;

	list_for_each_entry(s, &jmmap_sessions, node)
		any |= session_wants_data(s);
	WRITE_ONCE(jmmap_data_sessions, any);
}

int jmmap_session_publish(struct jmmap_session *s)
{
	int err = 0;

	mutex_lock(&jmmap_sessions_mutex);
	if (jmmap_sessions_open >= JMMAP_SESSIONS_MAX) {
		err = -EMFILE;
		goto out;
	}
	if (!jmmap_sessions_open) {
		err = jmmap_arming->arm();
		if (err)
			goto out;
	}
	jmmap_sessions_open++;
	list_add_tail_rcu(&s->node, &jmmap_sessions);
	update_data_sessions();
out:
	mutex_unlock(&jmmap_sessions_mutex);
	return err;
}

/* After this returns no hook can still be writing to @s. */
void jmmap_session_unpublish(struct jmmap_session *s)
{
	mutex_lock(&jmmap_sessions_mutex);
	list_del_rcu(&s->node);
	update_data_sessions();
	if (!--jmmap_sessions_open)
		jmmap_arming->disarm(); /* waits for every hook to have returned */
	mutex_unlock(&jmmap_sessions_mutex);
	synchronize_rcu();
}

int jmmap_session_set_config(struct jmmap_session *s, const struct jmmap_config *cfg)
{
	u64 bytes = cfg->buffer_bytes;
	struct jmmap_ring_page *pg, *old;
	int err = 0;

	if (cfg->flags & ~(u64)JMMAP_CONFIG_DATA_MMAPS)
		return -EINVAL;
	if (bytes && (bytes < JMMAP_BUF_MIN || bytes > JMMAP_BUF_MAX))
		return -EINVAL;
	/*
	 * A reader must be woken before the ring is full: checked here against
	 * the size as it is, for the error's sake, and again under the mutex,
	 * against the size that stays (a concurrent CONFIG may shrink it).
	 */
	if (cfg->wakeup_bytes > (bytes ? roundup_pow_of_two(bytes) : READ_ONCE(s->size)) / 2)
		return -EINVAL;
	/* As for targets: a descriptor handed on cannot widen what it sees. */
	if (!perfmon_capable())
		return -EPERM;

	mutex_lock(&s->ioctl_mutex);
	if (cfg->wakeup_bytes > (bytes ? roundup_pow_of_two(bytes) : s->size) / 2) {
		err = -EINVAL;
		goto out;
	}
	if (bytes) {
		bytes = roundup_pow_of_two(bytes);
		if (s->armed) {
			err = -EBUSY; /* records may be queued already */
			goto out;
		}
		pg = ring_alloc((u32)bytes);
		if (!pg) {
			err = -ENOMEM;
			goto out;
		}
		mutex_lock(&s->read_mutex);
		raw_spin_lock(&s->lock);
		if (s->mapped) {
			old = pg; /* a reader maps the ring it has */
			err = -EBUSY;
		} else {
			old = s->page;
			WRITE_ONCE(s->page, pg);
			s->buf = (u8 *)pg + PAGE_SIZE;
			s->size = (u32)bytes;
			s->head = 0;
			s->tail_seen = 0;
		}
		raw_spin_unlock(&s->lock);
		mutex_unlock(&s->read_mutex);
		if (!err)
			synchronize_rcu(); /* ring_ready() may still look at the old page */
		vfree(old);
		if (err)
			goto out;
	}
	WRITE_ONCE(s->config_flags, cfg->flags);
	WRITE_ONCE(s->wakeup_bytes, cfg->wakeup_bytes);
	mutex_lock(&jmmap_sessions_mutex);
	update_data_sessions();
	mutex_unlock(&jmmap_sessions_mutex);
out:
	mutex_unlock(&s->ioctl_mutex);
	return err;
}

/*
 * The reader's position in @pg for @head, from the page a reader that
 * mapped the ring may write anything to: one that is not a multiple of 8
 * at most @size below @head reads as a full ring. Acquire: the reader was
 * done with the bytes before it.
 */
static __always_inline u64 page_tail(const struct jmmap_ring_page *pg, u64 head, u32 size)
{
	u64 tail = smp_load_acquire(&pg->data_tail);

	return head - tail <= size && !(tail % 8) ? tail : head - size;
}

/* Whether @fill bytes queued are enough to wake or report to a reader. */
static __always_inline bool fill_ready(const struct jmmap_session *s, u32 fill)
{
	return fill && fill >= READ_ONCE(s->wakeup_bytes);
}

/* Lock held. */
static __always_inline u64 ring_tail(const struct jmmap_session *s, u64 head)
{
	return page_tail(s->page, head, s->size);
}

/*
 * Lock held: the bytes queued, by the reader's tail as last seen
 * (@s->tail_seen; a reader keeping to the rules only moves the real one
 * forward, so this one is behind it or equal). The page the reader writes
 * is looked at again only when by that tail @len more bytes would not fit,
 * or would be enough to wake a reader: most writes never read it.
 */
static __always_inline u32 ring_fill(struct jmmap_session *s, u32 len)
{
	u64 fill = s->head - s->tail_seen;

	if (fill + len > s->size || fill_ready(s, (u32)fill + len)) {
		s->tail_seen = ring_tail(s, s->head);
		fill = s->head - s->tail_seen;
	}
	return (u32)fill;
}

/* Lock held: whether @len more bytes fit. */
static __always_inline bool ring_has_room(struct jmmap_session *s, u32 len)
{
	return (u64)ring_fill(s, len) + len <= s->size;
}

/* Lock held: @len bytes at the head, wrapping at the ring's end if need be. */
static void ring_copy_in(struct jmmap_session *s, const void *src, u32 len)
{
	u32 off = (u32)(s->head & (s->size - 1));
	u32 first = min(len, s->size - off);

	memcpy(s->buf + off, src, first);
	if (first < len)
		memcpy(s->buf, (const u8 *)src + first, len - first);
}

/*
 * Lock held: the record of @len bytes written at the head is the reader's
 * once data_head moves past it. Whether that fill is worth a wake-up (the
 * tail was looked up again by ring_has_room() if it could be).
 */
static __always_inline bool ring_commit(struct jmmap_session *s, u32 len, u32 type)
{
	s->head += len;
	smp_store_release(&s->page->data_head, s->head);
	s->emitted[type]++;
	return fill_ready(s, (u32)(s->head - s->tail_seen));
}

/*
 * Queue the LOST record owed, if it and @then_bytes more fit. Lock held.
 * Apart from the check every write makes (queue_lost_locked()): the kernels
 * built to zero every variable on the stack (INIT_STACK_ALL_ZERO, as
 * Debian's are) would zero the record at each call.
 */
static noinline void queue_lost_record(struct jmmap_session *s, u32 then_bytes)
{
	struct jmmap_rec_lost lost;

	if (!ring_has_room(s, sizeof(lost) + then_bytes))
		return;
	memset(&lost, 0, sizeof(lost));
	lost.hdr.type = JMMAP_REC_LOST;
	lost.hdr.size = sizeof(lost);
	lost.time = jmmap_now();
	BUILD_BUG_ON(JMMAP_REC_MAX > JMMAP_REC_SLOTS);
	memcpy(lost.lost, s->lost_pending, sizeof(s->lost_pending));
	memset(s->lost_pending, 0, sizeof(s->lost_pending));
	s->lost_owed = false;
	ring_copy_in(s, &lost, sizeof(lost));
	ring_commit(s, sizeof(lost), JMMAP_REC_LOST);
}

static inline void queue_lost_locked(struct jmmap_session *s, u32 then_bytes)
{
	if (s->lost_owed)
		queue_lost_record(s, then_bytes);
}

static void count_lost_locked(struct jmmap_session *s, u32 type)
{
	s->lost[type]++;
	s->lost_pending[type]++;
	s->lost_owed = true;
}

/*
 * Queue the LOST record owed, if it fits now: a reader of the mapped ring
 * that never calls read() makes room without telling, and may see nothing
 * else come. Task context. Whether it was queued.
 */
static bool queue_owed_lost(struct jmmap_session *s)
{
	bool queued = false;

	if (!READ_ONCE(s->lost_owed))
		return false;
	raw_spin_lock(&s->lock);
	if (s->lost_owed) {
		queue_lost_locked(s, 0);
		queued = !s->lost_owed;
	}
	raw_spin_unlock(&s->lock);
	return queued;
}

/*
 * Without the lock (poll(), a reader's wait): the page is read under RCU,
 * since jmmap_session_set_config() may replace it meanwhile (and frees
 * the old one only after a grace period). A LOST record owed is queued
 * first, and is worth a wake-up whatever the fill.
 */
static bool ring_ready(struct jmmap_session *s)
{
	const struct jmmap_ring_page *pg;
	u64 head;
	bool ready;

	if (queue_owed_lost(s))
		return true;
	rcu_read_lock();
	pg = READ_ONCE(s->page);
	head = READ_ONCE(s->head);
	ready = fill_ready(s, (u32)(head - page_tail(pg, head, READ_ONCE(s->size))));
	rcu_read_unlock();
	return ready;
}

/* Any context: the wake-up itself runs from the irq_work. */
static void wake_readers(struct jmmap_session *s)
{
	if (wq_has_sleeper(&s->wait))
		irq_work_queue(&s->wakeup);
}

/*
 * Lock held: whether a record of @len bytes may go at the head now. Once a
 * record is lost, later ones are dropped too until the LOST record fits
 * ahead of them, so that a reader sees the gap where it happened.
 */
static __always_inline bool ring_reserve(struct jmmap_session *s, u32 len)
{
	queue_lost_locked(s, len);
	return !s->lost_owed && ring_has_room(s, len);
}

/* Queue one whole record, or count it lost. */
void jmmap_session_write(struct jmmap_session *s, const struct jmmap_rec_header *rec)
{
	u32 type = rec->type < JMMAP_REC_MAX ? rec->type : 0;
	bool wake;

	raw_spin_lock(&s->lock);
	if (ring_reserve(s, rec->size)) {
		ring_copy_in(s, rec, rec->size);
		wake = ring_commit(s, rec->size, type);
	} else {
		count_lost_locked(s, type);
		wake = true; /* a reader behind should catch up */
	}
	raw_spin_unlock(&s->lock);
	if (wake)
		wake_readers(s);
}

/*
 * Lock held: a record without a file that wraps at the ring's end, laid
 * out on the stack and copied in two parts; out of line, so that the
 * buffer is not zeroed for the others (see queue_lost_record()).
 */
static noinline void ring_fill_fixed_wrapped(struct jmmap_session *s,
					     const struct jmmap_fixed_rec *f, u32 len)
{
	u8 wrap[sizeof(struct jmmap_rec_mmap3) + sizeof(JMMAP_ANON_NAME)] __aligned(8);

	jmmap_fixed_rec_fill(wrap, f, true);
	ring_copy_in(s, wrap, len);
}

/*
 * The same for a record without a file, laid out from @f straight into
 * the ring where it fits before the ring's end.
 */
static void session_write_fixed(struct jmmap_session *s, const struct jmmap_fixed_rec *f)
{
	u32 len = jmmap_fixed_rec_size(f), off;
	bool wake;

	raw_spin_lock(&s->lock);
	if (ring_reserve(s, len)) {
		off = (u32)(s->head & (s->size - 1));
		if (off + len <= s->size)
			jmmap_fixed_rec_fill(s->buf + off, f, true);
		else
			ring_fill_fixed_wrapped(s, f, len);
		wake = ring_commit(s, len, f->type);
	} else {
		count_lost_locked(s, f->type);
		wake = true;
	}
	raw_spin_unlock(&s->lock);
	if (wake)
		wake_readers(s);
}

/* Whether @s is about @tgid at all. */
static bool session_covers(struct jmmap_session *s, u32 tgid)
{
	return READ_ONCE(s->system_wide) || jmmap_session_follows(s, tgid);
}

static bool session_wants(struct jmmap_session *s, u32 tgid, enum jmmap_want want)
{
	if (want == JMMAP_WANT_DATA_MAPS && !session_wants_data(s))
		return false;
	return session_covers(s, tgid);
}

/*
 * The registry's walks for the mm hooks (hooks-mm.c): they run with
 * preemption disabled, which is a read-side critical section of RCU by
 * itself (its flavours are one since 4.20: jmmap_session_unpublish()'s
 * synchronize_rcu() waits for it, on PREEMPT_RT too), so these take no
 * rcu_read_lock() of their own.
 */
#define for_each_session_atomic(s)                                                                 \
	list_for_each_entry_rcu(s, &jmmap_sessions, node, rcu_read_lock_any_held())

u32 jmmap_wants(u32 tgid)
{
	struct jmmap_session *s;
	u32 ret = 0;

	for_each_session_atomic(s) {
		if (!session_covers(s, tgid))
			continue;
		ret |= JMMAP_WANTS_EXEC;
		if (session_wants_data(s)) {
			ret |= JMMAP_WANTS_DATA;
			break;
		}
	}
	return ret;
}

bool jmmap_anyone_wants(u32 tgid, enum jmmap_want want)
{
	bool ret;

	rcu_read_lock();
	ret = jmmap_wants(tgid) & (1U << want);
	rcu_read_unlock();
	return ret;
}

/* Give @rec to every session entitled to records about @tgid. */
void jmmap_emit(const struct jmmap_rec_header *rec, u32 tgid, enum jmmap_want want)
{
	struct jmmap_session *s;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &jmmap_sessions, node) {
		if (session_wants(s, tgid, want))
			jmmap_session_write(s, rec);
	}
	rcu_read_unlock();
}

void jmmap_emit_fixed(const struct jmmap_fixed_rec *f, enum jmmap_want want)
{
	struct jmmap_session *s;

	for_each_session_atomic(s) {
		if (session_wants(s, f->pid, want))
			session_write_fixed(s, f);
	}
}

/* The cookie fields of MMAP3 and EXEC, in this order: kind, len, bytes. */
struct cookie_fields {
	u8 kind;
	u8 len;
	u8 bytes[JMMAP_COOKIE_MAX];
};

/*
 * generic_permission(MAY_NOT_BLOCK) reads the inode's cached ACL under RCU:
 * the caller's read-side section (the registry walk) is not enough, the
 * snapshot comes here without one.
 */
static bool opener_may_read(struct jmmap_session *s, struct file *file)
{
	const struct cred *old = override_creds(s->cred);
	bool ok;

	rcu_read_lock();
	ok = jmmap_may_read_cached(file);
	rcu_read_unlock();
	revert_creds(old);
	return ok;
}

static void write_checked(struct jmmap_session *s, struct jmmap_rec_header *rec,
			  struct cookie_fields *c, struct file *file)
{
	struct cookie_fields saved;
	u16 flags = rec->flags;

	if (opener_may_read(s, file)) {
		jmmap_session_write(s, rec);
		return;
	}
	saved = *c;
	memset(c, 0, sizeof(*c));
	rec->flags = (flags & ~JMMAP_COOKIE_WHY_MASK) | JMMAP_COOKIE_WHY_WITHHELD;
	jmmap_session_write(s, rec);
	*c = saved;
	rec->flags = flags;
}

void jmmap_emit_cookie(struct jmmap_rec_header *rec, size_t cookie_off, struct file *file,
		       u32 tgid, enum jmmap_want want, struct jmmap_session *only)
{
	struct cookie_fields *c = (struct cookie_fields *)((u8 *)rec + cookie_off);
	struct jmmap_session *s;

	if (only) {
		write_checked(only, rec, c, file);
		return;
	}
	rcu_read_lock();
	list_for_each_entry_rcu(s, &jmmap_sessions, node) {
		if (session_wants(s, tgid, want))
			write_checked(s, rec, c, file);
	}
	rcu_read_unlock();
}

/*
 * A record that could not even be built: counted, and the LOST record
 * queued now if it fits, so that a reader waiting on an empty ring sees it.
 */
static void jmmap_session_count_lost(struct jmmap_session *s, u16 type)
{
	bool queued;

	if (type >= JMMAP_REC_MAX)
		type = 0;
	raw_spin_lock(&s->lock);
	count_lost_locked(s, type);
	queue_lost_locked(s, 0);
	queued = !s->lost_owed;
	raw_spin_unlock(&s->lock);
	if (queued)
		wake_readers(s);
}

void jmmap_lost_alloc(u16 type, u32 tgid, enum jmmap_want want, struct jmmap_session *only)
{
	struct jmmap_session *s;

	if (only) {
		jmmap_session_count_lost(only, type);
		return;
	}
	rcu_read_lock();
	list_for_each_entry_rcu(s, &jmmap_sessions, node) {
		if (session_wants(s, tgid, want))
			jmmap_session_count_lost(s, type);
	}
	rcu_read_unlock();
}

/*
 * A new process is followed by the sessions that follow its parent, and by
 * no other: a session may still hold its tgid from an earlier process with
 * the same pid, which exits do not erase (the exit tracepoint cannot tell
 * reliably which thread is the last). A reused pid always comes through
 * here before the new process runs. A bit per pid: nothing to allocate,
 * nothing that can fail.
 */
void jmmap_targets_fork(u32 parent_tgid, u32 child_tgid)
{
	struct jmmap_session *s;

	rcu_read_lock();
	list_for_each_entry_rcu(s, &jmmap_sessions, node)
		jmmap_target_set(s, child_tgid, jmmap_session_follows(s, parent_tgid));
	rcu_read_unlock();
}

static int copy_out(struct jmmap_session *s, char __user *ubuf, u64 from, u32 len)
{
	u32 off = (u32)(from & (s->size - 1));
	u32 first = min(len, s->size - off);

	if (copy_to_user(ubuf, s->buf + off, first))
		return -EFAULT;
	if (first < len && copy_to_user(ubuf + first, s->buf, len - first))
		return -EFAULT;
	return 0;
}

/*
 * Copy out as many whole records as fit in @count. -EINVAL when not even the
 * next record fits (JMMAP_READ_SIZE_MIN always does).
 */
ssize_t jmmap_session_read(struct jmmap_session *s, char __user *ubuf, size_t count,
			   bool nonblock)
{
	struct jmmap_rec_header hdr;
	u64 head, tail, pos;
	u32 n = 0;
	ssize_t ret;

	if (mutex_lock_interruptible(&s->read_mutex))
		return -ERESTARTSYS;
	for (;;) {
		raw_spin_lock(&s->lock);
		head = s->head;
		tail = ring_tail(s, head);
		s->tail_seen = tail;
		raw_spin_unlock(&s->lock);
		if (head != tail)
			break;
		if (nonblock) {
			ret = -EAGAIN;
			goto out;
		}
		mutex_unlock(&s->read_mutex);
		if (wait_event_interruptible(s->wait, ring_ready(s)))
			return -ERESTARTSYS;
		if (mutex_lock_interruptible(&s->read_mutex))
			return -ERESTARTSYS;
	}

	/*
	 * Headers are 8 bytes at 8-byte aligned positions: never split. A
	 * reader that mapped the ring may have written over its records.
	 */
	for (pos = tail; pos < head; pos += hdr.size) {
		memcpy(&hdr, s->buf + (pos & (s->size - 1)), sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size % 8 || hdr.size > head - pos) {
			WARN_ON_ONCE(!READ_ONCE(s->mapped));
			break;
		}
		if (n + (u64)hdr.size > count)
			break;
		n += hdr.size;
	}
	if (!n) {
		ret = -EINVAL;
		goto out;
	}
	ret = copy_out(s, ubuf, tail, n);
	if (ret)
		goto out;
	raw_spin_lock(&s->lock);
	smp_store_release(&s->page->data_tail, tail + n);
	s->tail_seen = tail + n;
	queue_lost_locked(s, 0);
	raw_spin_unlock(&s->lock);
	ret = n;
out:
	mutex_unlock(&s->read_mutex);
	return ret;
}

/*
 * Map the ring: its page and buffer as they are (struct jmmap_ring_page).
 * From then on its size is fixed, so the pages stay the session's until
 * the file, which the mapping holds, is released. The mapping never
 * becomes executable: its bytes are chosen by the processes followed, so
 * VM_MAYEXEC goes with VM_EXEC, and mprotect(PROT_EXEC) fails. Shared is
 * told by VM_MAYSHARE: mmap() drops VM_SHARED for a descriptor not open for
 * writing, which may still map the ring for reading.
 */
int jmmap_session_mmap(struct jmmap_session *s, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start, off;
	int err = 0;

	if (vma->vm_pgoff || !(vma->vm_flags & VM_MAYSHARE) || (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	raw_spin_lock(&s->lock);
	if (len != PAGE_SIZE + (unsigned long)s->size)
		err = -EINVAL;
	else
		s->mapped = true;
	raw_spin_unlock(&s->lock);
	if (err)
		return err;
	jmmap_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	jmmap_vm_flags_clear(vma, VM_MAYEXEC);
	for (off = 0; off < len && !err; off += PAGE_SIZE)
		err = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page((u8 *)s->page + off));
	return err;
}

__poll_t jmmap_session_poll(struct jmmap_session *s, struct file *file, poll_table *pt)
{
	poll_wait(file, &s->wait, pt);
	return ring_ready(s) ? EPOLLIN | EPOLLRDNORM : 0;
}

void jmmap_session_stats(struct jmmap_session *s, struct jmmap_stats *st)
{
	raw_spin_lock(&s->lock);
	memcpy(st->emitted, s->emitted, sizeof(s->emitted));
	memcpy(st->lost, s->lost, sizeof(s->lost));
	raw_spin_unlock(&s->lock);
}
