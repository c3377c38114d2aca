// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap memory hooks: callbacks at the entry of the functions that create,
 * change and remove mappings, through ftrace (mm-ops.c says how), all
 * entering at jmmap_mm_entry(). They run with preemption disabled and
 * never sleep; the current task holds its mmap_lock in all of them, so its
 * vmas are stable.
 *
 *   mmap_region      the exact range of a new mapping, stashed for the task;
 *                    MUNMAP cause map_fixed for executable vmas it replaces
 *   mprotect_fixup   the exact range that gains or loses PROT_EXEC, stashed
 *   perf_event_mmap  called by both of them only on success, with the vma
 *                    after any merge: the stash becomes MMAP3 (or MUNMAP
 *                    cause mprotect) with the merged bounds beside it; in
 *                    brk() (do_brk_flags), MMAP3 cause brk for an
 *                    executable heap
 *   unmap_vmas       called on the munmap path only once the vmas are
 *                    split and detached for good (the point of no return):
 *                    its executable vmas become MUNMAP, the cause read
 *                    from the system call; a munmap that fails never gets
 *                    there
 *   (compat.h)       the mremap system call: a pending MMAP3 cause mremap,
 *                    resolved from the call's return value in task_work
 *
 * No kretprobes or exit hooks: their return trampolines outlive
 * unregistration, and on Debian's 6.1 loading and unloading the module while
 * tasks sleep inside a probed function crashed the kernel. Entry callbacks
 * are fully synchronised by their unregistration (ftrace's own), and the
 * direct trampoline by the module's exit (mm-ops.c).
 */
#include <asm/syscall.h>
#include <linux/ftrace.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/unistd.h>

#include "compat.h"
#include "defer.h"
#include "fixed-rec.h"
#include "hooks.h"
#include "stash.h"

/*
 * What the hooks say of the executable vmas a call replaces or unmaps: at
 * most UNMAP_RANGES MUNMAPs. They run with preemption disabled, and a call
 * can take tens of thousands of vmas away: they look at no more than
 * UNMAP_WALK of them one by one, and at the rest with one backwards lookup
 * (struct exec_walk).
 */
#define UNMAP_RANGES 4
#define UNMAP_WALK 64

struct xrange {
	unsigned long start, end;
};

static bool current_is_user(void)
{
	return !(current->flags & (PF_KTHREAD | PF_EXITING)) && current->mm;
}

/* Whether a session follows process @tgid (the hooks run with preemption disabled). */
static bool followed(u32 tgid)
{
	return jmmap_wants(tgid) & JMMAP_WANTS_EXEC;
}

static __always_inline int current_syscall(void)
{
	if (in_compat_syscall())
		return -1;
	return syscall_get_nr(current, task_pt_regs(current));
}

/*
 * Argument @i of the current system call. The array is declared here, where
 * a caller has made its cheap checks already: a kernel built to zero every
 * variable on the stack (INIT_STACK_ALL_ZERO, as Debian's are) zeroes it
 * where it is declared.
 */
static __always_inline unsigned long current_syscall_arg(unsigned int i)
{
	unsigned long args[6];

	syscall_get_arguments(current, task_pt_regs(current), args);
	return args[i];
}

static u32 vm_prot(unsigned long vm_flags)
{
	return (vm_flags & VM_READ ? PROT_READ : 0) | (vm_flags & VM_WRITE ? PROT_WRITE : 0) |
	       (vm_flags & VM_EXEC ? PROT_EXEC : 0);
}

static u32 vm_map_flags(unsigned long vm_flags, bool anon)
{
	return (vm_flags & VM_SHARED ? MAP_SHARED : MAP_PRIVATE) | (anon ? MAP_ANONYMOUS : 0);
}

/*
 * The executable parts of [start, end), at most UNMAP_RANGES, the last one
 * stretched over what comes after. The vmas are looked at in address order
 * (exec_walk_add()) until UNMAP_RANGES parts are found or UNMAP_WALK vmas
 * seen; what is left, from @done on, is then told by the last vma of the
 * range alone (exec_walk_rest()).
 */
struct exec_walk {
	unsigned long start, end;
	unsigned long done; /* the end of the last vma looked at */
	struct xrange r[UNMAP_RANGES];
	u32 n, seen;
};

static void exec_walk_init(struct exec_walk *w, unsigned long start, unsigned long end)
{
	w->start = start;
	w->end = end;
	w->done = start;
	w->n = 0;
	w->seen = 0;
}

/*
 * Add @vma, the next one in address order; whether to look at another (never
 * once UNMAP_RANGES parts are found). A function of its own, called once for
 * each vma the hooks look at, so that a kprobe event on it counts them
 * (test_45_many_vmas).
 */
static noinline __noclone bool exec_walk_add(struct exec_walk *w,
					     const struct vm_area_struct *vma)
{
	unsigned long lo = max(vma->vm_start, w->start), hi = min(vma->vm_end, w->end);

	w->done = max(w->done, hi);
	if ((vma->vm_flags & VM_EXEC) && lo < hi) {
		w->r[w->n].start = lo;
		w->r[w->n].end = hi;
		w->n++;
	}
	return ++w->seen < UNMAP_WALK && w->n < UNMAP_RANGES;
}

/*
 * The walk stopped with vmas left; @last is the last vma of the range (NULL
 * if none). The code among the vmas not looked at is not known: the part
 * from @done up to the end of @last when it is executable, or else up to
 * its start, joins the last range (a new one when there is room). All of it
 * goes away, so a MUNMAP over it says nothing untrue; it may cover data.
 */
static void exec_walk_rest(struct exec_walk *w, const struct vm_area_struct *last)
{
	unsigned long to;

	if (!last || last->vm_end <= w->done || last->vm_start >= w->end)
		return;
	to = last->vm_flags & VM_EXEC ? min(last->vm_end, w->end) : last->vm_start;
	if (to <= w->done)
		return;
	if (w->n == UNMAP_RANGES) {
		w->r[w->n - 1].end = to;
		return;
	}
	w->r[w->n].start = w->done;
	w->r[w->n].end = to;
	w->n++;
}

/* The executable parts in @mm's tree: at most UNMAP_WALK lookups, and one back. */
static void exec_overlaps(struct mm_struct *mm, struct exec_walk *w)
{
	struct vm_area_struct *vma;

	while (w->done < w->end && (vma = find_vma(mm, w->done)) && vma->vm_start < w->end) {
		if (!exec_walk_add(w, vma)) {
			MA_STATE(mas, &mm->mm_mt, w->end - 1, w->end - 1);

			if (w->done < w->end)
				exec_walk_rest(w, mas_find_rev(&mas, w->done));
			return;
		}
	}
}

/* emit_fileless() for a task with records queued: behind them. */
static noinline void defer_fileless(const struct jmmap_fixed_rec *f, enum jmmap_want want)
{
	struct jmmap_pending *p = jmmap_pending_new();

	if (!p) {
		jmmap_lost_alloc(f->type, f->pid, want, NULL);
		return;
	}
	p->tgid = f->pid;
	p->want = want;
	jmmap_fixed_rec_fill(&p->r, f, false);
	jmmap_defer(p);
}

/*
 * A record with no file (MUNMAP, or the MMAP3 of an anonymous mapping):
 * nothing to read for it, so it is given to the sessions at once, written
 * straight into their rings (fixed-rec.h), unless records of the task's
 * are queued for task_work ahead of it (an exec's, a file mapping's): then
 * it goes behind them.
 */
static __always_inline void emit_fileless(const struct jmmap_fixed_rec *f, enum jmmap_want want)
{
	if (jmmap_defer_queued())
		defer_fileless(f, want);
	else
		jmmap_emit_fixed(f, want);
}

static void queue_munmap(u64 time, unsigned long start, unsigned long end, u32 cause)
{
	/* a MUNMAP: the fields of MMAP3 alone are never read (fixed-rec.h) */
	struct jmmap_fixed_rec f jmmap_noinit;

	f.type = JMMAP_REC_MUNMAP;
	f.cause = cause;
	f.pid = (u32)current->tgid;
	f.tid = (u32)current->pid;
	f.time = time;
	f.start = start;
	f.len = end - start;
	emit_fileless(&f, JMMAP_WANT_EXEC_MAPS);
}

/* @f as the MMAP3 of [start, start + len) inside @vma. */
static void fill_mmap3(struct jmmap_fixed_rec *f, u64 time, unsigned long start,
		       unsigned long len, u64 pgoff, struct vm_area_struct *vma, bool has_file,
		       u32 prot, u16 cause)
{
	f->type = JMMAP_REC_MMAP3;
	f->cause = current->in_execve ? JMMAP_CAUSE_EXEC : cause;
	f->pid = (u32)current->tgid;
	f->tid = (u32)current->pid;
	f->time = time;
	f->start = start;
	f->len = len;
	f->vma_start = vma->vm_start;
	f->vma_end = vma->vm_end;
	f->pgoff = has_file ? pgoff : 0;
	f->prot = prot;
	f->flags = vm_map_flags(vma->vm_flags, !has_file);
}

static enum jmmap_want want_of_prot(u32 prot)
{
	return prot & PROT_EXEC ? JMMAP_WANT_EXEC_MAPS : JMMAP_WANT_DATA_MAPS;
}

/*
 * A new MMAP3 for [start, start + len) inside @vma: with a file, queued for
 * its cookie and name (file pinned); without, given out now.
 */
static void queue_mmap3(u64 time, unsigned long start, unsigned long len, u64 pgoff,
			struct vm_area_struct *vma, struct file *file, u32 prot, u16 cause)
{
	struct jmmap_fixed_rec f jmmap_noinit; /* fill_mmap3() sets every field */
	struct jmmap_pending *p;

	fill_mmap3(&f, time, start, len, pgoff, vma, file != NULL, prot, cause);
	if (!file) {
		/* whose it is, jmmap_emit_fixed() tells */
		emit_fileless(&f, want_of_prot(prot));
		return;
	}
	p = jmmap_pending_new();
	if (!p) {
		jmmap_lost_alloc(JMMAP_REC_MMAP3, f.pid, want_of_prot(prot), NULL);
		return;
	}
	p->tgid = f.pid;
	p->want = want_of_prot(prot);
	jmmap_fixed_rec_fill(&p->r, &f, false);
	p->file = get_file(file);
	jmmap_defer(p);
}

void jmmap_hooks_mm_task_exit(struct task_struct *task)
{
	stash_release(stash_find(task, false), false);
	stash_release(stash_find(task, true), true);
}

static void stash_new(enum stash_kind kind, u64 time, unsigned long start, unsigned long len,
		      unsigned long pgoff, unsigned long newflags)
{
	struct stash *st = stash_claim(false);

	if (!st) {
		jmmap_lost_alloc(kind == STASH_MPROTECT_NOEXEC ? JMMAP_REC_MUNMAP : JMMAP_REC_MMAP3,
				 (u32)current->tgid, JMMAP_WANT_EXEC_MAPS, NULL);
		return;
	}
	st->kind = kind;
	st->time = time;
	st->start = start;
	st->len = len;
	st->pgoff = pgoff;
	st->newflags = newflags;
	st->syscall = current_syscall();
}

/*
 * A map-class stash the task still holds when it enters another mapping
 * call is that of a call that failed: give the slot back, so that a task
 * does not keep one for longer than a failed call.
 */
static void drop_stale_stash(void)
{
	stash_release(stash_find(current, false), false);
}

/* ------------------------------------------------------------ mmap_region */

/*
 * Whether the mapping being made can replace one: an mmap() system call
 * without MAP_FIXED was given a free range by get_unmapped_area() (and
 * MAP_FIXED_NOREPLACE fails before this point when the range is taken).
 * Other callers (the ELF loader, shmat, remap_file_pages) may.
 */
static bool may_replace(void)
{
	if (current_syscall() != __NR_mmap)
		return true;
	return current_syscall_arg(3) & MAP_FIXED;
}

/*
 * The vmas a new mapping replaces reach unmap_vmas() too, on 6.1 before the
 * mapping and on 6.6+ after it: the code among them was reported here
 * already. unmap_vmas_pre() tells them from an unmap of their own by the
 * system call, which for mmap() itself is enough; for the other callers of
 * mmap_region() (the ELF loader in execve, shmat, remap_file_pages, 32-bit
 * processes) this unmap-class entry names the range and the call.
 */
static void mark_replaced(unsigned long addr, unsigned long len)
{
	struct stash *st = stash_claim(true);

	if (!st) {
		jmmap_lost_alloc(JMMAP_REC_MUNMAP, (u32)current->tgid, JMMAP_WANT_EXEC_MAPS, NULL);
		return;
	}
	st->kind = STASH_REPLACED;
	st->start = addr;
	st->len = len;
	st->syscall = current_syscall();
}

/* mmap_pre() for a mapping that may be of interest: the sessions asked. */
static noinline void mmap_followed(const struct jmmap_args *in, unsigned long vm_flags, bool replace)
{
	struct exec_walk w;
	u32 tgid = (u32)current->tgid, i, wants;
	unsigned long addr, len;
	bool keep;
	u64 time;

	wants = jmmap_wants(tgid);
	if (!wants)
		return;
	addr = jmmap_arg(in, 1);
	len = jmmap_arg(in, 2);
	/* A replaced range noted by an earlier call that failed must not linger. */
	stash_release(stash_find(current, true), true);
	replace = replace && (wants & JMMAP_WANTS_EXEC);
	keep = wants & ((vm_flags & VM_EXEC) ? JMMAP_WANTS_EXEC : JMMAP_WANTS_DATA);
	if (!replace && !keep)
		return;
	time = jmmap_now();
	if (replace) {
		/* MAP_FIXED over executable code: that code goes away first. */
		exec_walk_init(&w, addr, addr + len);
		exec_overlaps(current->mm, &w);
		for (i = 0; i < w.n; i++)
			queue_munmap(time, w.r[i].start, w.r[i].end, JMMAP_UNMAP_MAP_FIXED);
		if (w.n)
			mark_replaced(addr, len);
	}
	if (keep)
		stash_new(STASH_MMAP, time, addr, len, jmmap_arg(in, 4), 0);
}

static noinline void mmap_pre(const struct jmmap_args *in)
{
	unsigned long vm_flags = jmmap_arg(in, 3);
	bool replace;

	drop_stale_stash();
	replace = may_replace();
	/* a data mapping that replaces nothing: of interest only to some sessions */
	if (!replace && !(vm_flags & VM_EXEC) && !jmmap_data_wanted())
		return;
	mmap_followed(in, vm_flags, replace);
}

/* --------------------------------------------------------- mprotect_fixup */

static noinline void mprotect_pre(const struct jmmap_args *in)
{
	struct vm_area_struct *vma;
	unsigned long start, end, newflags, oldflags;

	vma = (struct vm_area_struct *)jmmap_arg(in, JMMAP_MPROTECT_ARG_VMA);
	start = jmmap_arg(in, JMMAP_MPROTECT_ARG_START);
	end = jmmap_arg(in, JMMAP_MPROTECT_ARG_END);
	newflags = jmmap_arg(in, JMMAP_MPROTECT_ARG_NEWFLAGS);
	oldflags = vma->vm_flags;
	/*
	 * Only a process some session follows claims a slot: a call that fails
	 * after this hook leaves its stash until the task's next mapping call,
	 * and tasks nobody follows must not be able to take every slot. A stale
	 * stash of the task's is dropped, or taken over by stash_new().
	 */
	if (!((oldflags ^ newflags) & VM_EXEC) || end <= start ||
	    !followed((u32)current->tgid)) {
		drop_stale_stash();
		return;
	}
	stash_new(newflags & VM_EXEC ? STASH_MPROTECT_EXEC : STASH_MPROTECT_NOEXEC, jmmap_now(),
		  start, end - start,
		  ((unsigned long)vma->vm_pgoff << PAGE_SHIFT) + (start - vma->vm_start), newflags);
}

/* -------------------------------------------------------- perf_event_mmap */

/*
 * brk() grows the heap with do_brk_flags(), which calls perf_event_mmap()
 * with the heap's vma once it succeeded. The heap is executable when the
 * personality has READ_IMPLIES_EXEC (VM_DATA_DEFAULT_FLAGS). brk() sets
 * mm->brk only after do_brk_flags() returned, so the range grown is
 * [PAGE_ALIGN(mm->brk), PAGE_ALIGN(requested break)), the same computation
 * brk() itself makes; mmap_lock is held for writing, so mm->brk is stable.
 */
static void brk_grown(struct vm_area_struct *vma)
{
	unsigned long start, end;

	if (!(vma->vm_flags & VM_EXEC) || current_syscall() != __NR_brk)
		return;
	if (!followed((u32)current->tgid))
		return;
	start = PAGE_ALIGN(current->mm->brk);
	end = PAGE_ALIGN(current_syscall_arg(0));
	if (end <= start || start < vma->vm_start || end > vma->vm_end)
		return;
	queue_mmap3(jmmap_now(), start, end - start, 0, vma, NULL, vm_prot(vma->vm_flags),
		    JMMAP_CAUSE_BRK);
}

/* perf_mmap_pre() once there may be something to report: a stash, or code. */
static noinline void perf_mmap_stashed(struct vm_area_struct *vma)
{
	struct stash *st;

	if (vma->vm_mm != current->mm)
		return;
	st = stash_find(current, false);
	/* not the operation stashed (it failed earlier; brk() is not stashed) */
	if (!st || st->syscall != current_syscall() || st->start < vma->vm_start ||
	    st->start + st->len > vma->vm_end) {
		stash_release(st, false);
		brk_grown(vma);
		return;
	}
	switch (st->kind) {
	case STASH_MMAP:
		/*
		 * The vma's file, not mmap_region's: a shared anonymous mapping
		 * got its shmem file from shmem_zero_setup() in between.
		 */
		queue_mmap3(st->time, st->start, st->len, (u64)st->pgoff << PAGE_SHIFT, vma,
			    vma->vm_file, vm_prot(vma->vm_flags), JMMAP_CAUSE_MMAP);
		break;
	case STASH_MPROTECT_EXEC:
		/* mprotect_pre() left this to the record's consumer; a file is pinned first */
		if (vma->vm_file && !followed((u32)current->tgid))
			break;
		queue_mmap3(st->time, st->start, st->len, st->pgoff, vma, vma->vm_file,
			    vm_prot(st->newflags), JMMAP_CAUSE_MPROTECT);
		break;
	case STASH_MPROTECT_NOEXEC:
		queue_munmap(st->time, st->start, st->start + st->len, JMMAP_UNMAP_MPROTECT);
		break;
	case STASH_REPLACED: /* not in this class */
		break;
	}
	stash_release(st, false);
}

/* Whether perf_event_mmap(@vma) may have something to report: a stash, or code. */
static __always_inline bool perf_mmap_wanted(const struct vm_area_struct *vma)
{
	/* the most common call, after a data mapping: nothing stashed anywhere, no code */
	return stash_claimed(false) || (vma->vm_flags & VM_EXEC);
}

static noinline void perf_mmap_pre(const struct jmmap_args *in)
{
	struct vm_area_struct *vma = (struct vm_area_struct *)jmmap_arg(in, 0);

	if (perf_mmap_wanted(vma))
		perf_mmap_stashed(vma);
}

/* ----------------------------------------------------------------- munmap */

/* The system calls that map: a new mapping replaces what unmap_vmas() gets. */
static bool is_mapping_syscall(int nr)
{
	return nr == __NR_mmap || nr == __NR_shmat || nr == __NR_remap_file_pages;
}

/*
 * The MUNMAPs of the executable parts of the vmas unmap_vmas() zaps, a call
 * that unmaps more than one (struct exec_walk).
 */
static noinline void unmap_walk(const struct jmmap_args *in, u32 cause)
{
	struct jmmap_unmapped it;
	struct vm_area_struct *vma;
	struct exec_walk w;
	u64 time;
	u32 i;

	exec_walk_init(&w, 0, ULONG_MAX);
	for (vma = jmmap_unmapped_first(in, &it); vma; vma = jmmap_unmapped_next(&it)) {
		if (!exec_walk_add(&w, vma)) {
			exec_walk_rest(&w, jmmap_unmapped_last(&it));
			break;
		}
	}
	if (!w.n)
		return;
	time = jmmap_now();
	for (i = 0; i < w.n; i++)
		queue_munmap(time, w.r[i].start, w.r[i].end, cause);
}

/*
 * unmap_vmas(): the munmap path calls it only after the vmas were split at
 * the range's ends and taken out of the tree for good, to zap their pages.
 * That is where the executable code went away: report it, timed now, one
 * MUNMAP per executable vma (struct exec_walk), caused by the system call
 * (mremap() moving or shrinking; munmap(), brk() shrinking an executable
 * heap, shmdt() and the rest as munmap). Not what a new mapping replaced
 * (mark_replaced()), nor the teardown of a mapping that failed (mmap()
 * again). A task's own exit (PF_EXITING) and another mm's teardown never
 * get here.
 */
static noinline void unmap_vmas_pre(const struct jmmap_args *in)
{
	struct vm_area_struct *vma;
	struct stash *st;
	bool only;
	u32 cause;
	int nr;

	vma = jmmap_unmapped_peek(in, &only);
	if (!vma || vma->vm_mm != current->mm)
		return;
	nr = current_syscall();
	st = stash_find(current, true);
	if (st) {
		bool replaced = st->syscall == nr && vma->vm_start >= st->start &&
				vma->vm_end <= st->start + st->len;

		stash_release(st, true);
		if (replaced)
			return;
	}
	if (is_mapping_syscall(nr))
		return;
	/* whose they are, jmmap_emit_fixed() tells */
	cause = nr == __NR_mremap ? JMMAP_UNMAP_MREMAP : JMMAP_UNMAP_MUNMAP;
	/* the common unmap, of one vma: no walk */
	if (only) {
		if (vma->vm_flags & VM_EXEC)
			queue_munmap(jmmap_now(), vma->vm_start, vma->vm_end, cause);
		return;
	}
	unmap_walk(in, cause);
}

/* ----------------------------------------------------------------- mremap */

/*
 * The range the mremap put code in: all of the new place when it moved, the
 * grown tail when it grew in place; nothing when it failed or shrank, or
 * when the range is not (or no longer) one executable vma. The record's
 * resolve callback, run in the task after the call (record.h).
 */
static bool mremap_resolve(struct jmmap_pending *p)
{
	unsigned long old_len = PAGE_ALIGN(p->arg[1]);
	unsigned long new_len = PAGE_ALIGN(p->arg[2]);
	struct pt_regs *regs = task_pt_regs(current);
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long addr, start, len;
	bool found = false;
	long ret;

	if (!mm || (current->flags & PF_EXITING) || syscall_get_nr(current, regs) != __NR_mremap)
		return false;
	ret = syscall_get_return_value(current, regs);
	if (IS_ERR_VALUE(ret))
		return false;
	addr = (unsigned long)ret;
	if (addr != p->arg[0]) {
		start = addr;
		len = new_len;
	} else if (new_len > old_len) {
		start = addr + old_len;
		len = new_len - old_len;
	} else {
		return false;
	}
	if (!len)
		return false;
	mmap_read_lock(mm);
	vma = find_vma(mm, start);
	if (vma && vma->vm_start <= start && start + len <= vma->vm_end &&
	    (vma->vm_flags & VM_EXEC)) {
		struct jmmap_fixed_rec f;

		fill_mmap3(&f, jmmap_now(), start, len,
			   ((u64)vma->vm_pgoff << PAGE_SHIFT) + (start - vma->vm_start), vma,
			   vma->vm_file != NULL, vm_prot(vma->vm_flags), JMMAP_CAUSE_MREMAP);
		jmmap_fixed_rec_fill(&p->r, &f, false);
		if (vma->vm_file)
			p->file = get_file(vma->vm_file);
		found = true;
	}
	mmap_read_unlock(mm);
	return found;
}

/*
 * mremap() moves or grows a mapping without calling perf_event_mmap(), and
 * where it went is known only from its return value. The probe on the system
 * call's entry queues a pending MMAP3 with the call's arguments behind the
 * task's other records; jmmap_mremap_resolve() completes it in task_work,
 * which runs on the way back to user space, after the call stored its return
 * value in the task's registers and before the task can run the code there.
 * The entry cannot look at the vmas (mmap_lock is not held yet), so every
 * mremap of a traced process is queued, and dropped there when it failed or
 * did not concern executable code.
 */
static noinline void mremap_pre(const struct jmmap_args *in)
{
	unsigned long args[6];
	struct jmmap_pending *p;
	u32 tgid = (u32)current->tgid;

	if (in_compat_syscall())
		return;
	if (!followed(tgid))
		return;
	p = jmmap_pending_new();
	if (!p) {
		jmmap_lost_alloc(JMMAP_REC_MMAP3, tgid, JMMAP_WANT_EXEC_MAPS, NULL);
		return;
	}
	syscall_get_arguments(current, task_pt_regs(current), args);
	p->tgid = tgid;
	p->want = JMMAP_WANT_EXEC_MAPS;
	p->r.mmap3.hdr.type = JMMAP_REC_MMAP3;
	p->resolve = mremap_resolve;
	p->arg[0] = args[0];
	p->arg[1] = args[1];
	p->arg[2] = args[2];
	jmmap_defer(p);
}

/*
 * Every mm hook comes here, either way it is armed (mm-ops.c), with the
 * function's arguments: @in->fentry_ret tells which function it is (but
 * perf_event_mmap and mmap_region, which the direct trampoline sends to
 * their own entries). The handlers are called directly, those that come
 * here the most first: an indirect call costs a retpoline on the kernels
 * that mitigate Spectre v2 with them. Each
 * is a function of its own (noinline), with a frame for what it needs:
 * inlined here, all five paid for the largest one's at every call. Called
 * with neither recursion protection nor preemption disabled: there is no
 * recursion to stop, since the handlers call none of the five functions
 * and nothing calls those from interrupt context, so this only leaves out
 * kernel threads and exiting tasks and disables preemption (what every
 * hook here is written for, the sessions' walks included: session.c).
 */
void notrace jmmap_mm_entry(const struct jmmap_args *in)
{
	unsigned long ip = in->fentry_ret - MCOUNT_INSN_SIZE;

	if (!current_is_user())
		return;
	preempt_disable_notrace();
	if (ip == jmmap_mm_hook_ip[JMMAP_HOOK_MPROTECT])
		mprotect_pre(in);
	else if (ip == jmmap_mm_hook_ip[JMMAP_HOOK_UNMAP_VMAS])
		unmap_vmas_pre(in);
	else if (ip == jmmap_mm_hook_ip[JMMAP_HOOK_PERF_MMAP])
		perf_mmap_pre(in);
	else if (ip == jmmap_mm_hook_ip[JMMAP_HOOK_MMAP])
		mmap_pre(in);
	else if (ip == jmmap_mm_hook_ip[JMMAP_HOOK_MREMAP])
		mremap_pre(in);
	preempt_enable_notrace();
}

/*
 * jmmap_mm_entry() for the two functions the direct trampoline (mm-direct.S)
 * tells apart by itself, once it made their handlers' first test (that
 * of perf_mmap_pre(), mmap_pre()) on the registers and it passed.
 */
void notrace jmmap_mm_entry_perf_mmap(const struct jmmap_args *in)
{
	if (!current_is_user())
		return;
	preempt_disable_notrace();
	perf_mmap_stashed((struct vm_area_struct *)jmmap_arg(in, 0));
	preempt_enable_notrace();
}

void notrace jmmap_mm_entry_mmap(const struct jmmap_args *in)
{
	if (!current_is_user())
		return;
	preempt_disable_notrace();
	mmap_pre(in);
	preempt_enable_notrace();
}

int jmmap_hooks_mm_init(void)
{
	int err;

	err = jmmap_mm_ops_init();
	return err ? err : jmmap_stash_init();
}

void jmmap_hooks_mm_exit(void)
{
	jmmap_mm_ops_exit();
	jmmap_stash_exit();
}

int jmmap_hooks_mm_register(void)
{
	return jmmap_mm_ops_arm();
}

/*
 * The caller has unregistered the exit tracepoint first (jmmap_disarm()),
 * so once the callbacks are off nothing touches stashes: the slots left
 * claimed are given back here.
 */
void jmmap_hooks_mm_unregister(void)
{
	jmmap_mm_ops_disarm();
	jmmap_stash_clear();
}
