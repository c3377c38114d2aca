// SPDX-License-Identifier: GPL-2.0
/*
 * jmmap memory hooks: kretprobes on the functions that create, change and
 * remove mappings. Entry handlers take the time and the exact range from the
 * arguments; return handlers look at the result (the merged vma) and queue
 * the record. Both run with preemption disabled and never sleep; the
 * current task holds its mmap_lock in all of them, so its vmas are stable.
 *
 *   mmap_region      MMAP3 cause mmap/exec; MUNMAP cause map_fixed for
 *                    executable vmas a MAP_FIXED mapping replaces
 *   mprotect_fixup   MMAP3 cause mprotect when a range gains PROT_EXEC,
 *                    MUNMAP cause mprotect when it loses it
 *   (compat.h)       MUNMAP cause munmap/mremap, on the munmap path
 */
#include <asm/syscall.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/unistd.h>

#include "compat.h"
#include "defer.h"
#include "hooks.h"

#define MAXACTIVE 1024 /* tasks inside one probed function at once */
#define UNMAP_RANGES 4

struct xrange {
	unsigned long start, end;
};

static bool current_is_user(void)
{
	return !(current->flags & (PF_KTHREAD | PF_EXITING)) && current->mm;
}

static int current_syscall(void)
{
	if (in_compat_syscall())
		return -1;
	return syscall_get_nr(current, task_pt_regs(current));
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
 * The executable parts of [start, end), at most @max ranges; the last one
 * stretches to the end of the last executable vma if there are more.
 */
static u32 exec_overlaps(struct mm_struct *mm, unsigned long start, unsigned long end,
			 struct xrange *r, u32 max)
{
	struct vm_area_struct *vma;
	unsigned long a = start;
	u32 n = 0;

	while (a < end && (vma = find_vma(mm, a)) && vma->vm_start < end) {
		a = vma->vm_end;
		if (!(vma->vm_flags & VM_EXEC))
			continue;
		if (n == max) {
			r[n - 1].end = min(vma->vm_end, end);
			continue;
		}
		r[n].start = max(vma->vm_start, start);
		r[n].end = min(vma->vm_end, end);
		n++;
	}
	return n;
}

static void queue_munmap(u64 time, unsigned long start, unsigned long end, u32 cause)
{
	struct jmmap_pending *p = jmmap_pending_new(GFP_ATOMIC);
	u32 tgid = (u32)current->tgid;

	if (!p) {
		jmmap_lost_alloc(JMMAP_REC_MUNMAP, tgid, JMMAP_WANT_EXEC_MAPS);
		return;
	}
	p->tgid = tgid;
	p->want = JMMAP_WANT_EXEC_MAPS;
	p->r.munmap.hdr.type = JMMAP_REC_MUNMAP;
	p->r.munmap.hdr.size = sizeof(p->r.munmap);
	p->r.munmap.pid = tgid;
	p->r.munmap.tid = (u32)current->pid;
	p->r.munmap.time = time;
	p->r.munmap.start = start;
	p->r.munmap.len = end - start;
	p->r.munmap.cause = cause;
	jmmap_defer(p);
}

/* A new MMAP3 for [start, start + len) inside @vma; queued for its cookie. */
static void queue_mmap3(u64 time, unsigned long start, unsigned long len, u64 pgoff,
			struct vm_area_struct *vma, struct file *file, u32 prot, u16 cause)
{
	struct jmmap_pending *p = jmmap_pending_new(GFP_ATOMIC);
	u32 tgid = (u32)current->tgid;
	enum jmmap_want want = prot & PROT_EXEC ? JMMAP_WANT_EXEC_MAPS : JMMAP_WANT_DATA_MAPS;

	if (!p) {
		jmmap_lost_alloc(JMMAP_REC_MMAP3, tgid, want);
		return;
	}
	p->tgid = tgid;
	p->want = want;
	p->r.mmap3.hdr.type = JMMAP_REC_MMAP3;
	p->r.mmap3.pid = tgid;
	p->r.mmap3.tid = (u32)current->pid;
	p->r.mmap3.time = time;
	p->r.mmap3.start = start;
	p->r.mmap3.len = len;
	p->r.mmap3.vma_start = vma->vm_start;
	p->r.mmap3.vma_end = vma->vm_end;
	p->r.mmap3.pgoff = file ? pgoff : 0;
	p->r.mmap3.prot = prot;
	p->r.mmap3.flags = vm_map_flags(vma->vm_flags, !file);
	p->r.mmap3.cause = current->in_execve ? JMMAP_CAUSE_EXEC : cause;
	if (file)
		p->file = get_file(file);
	jmmap_defer(p);
}

/* ------------------------------------------------------------ mmap_region */

struct mmap_data {
	u64 time;
	unsigned long addr, len, pgoff, vm_flags;
	bool file;
};

static int mmap_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mmap_data *d = (struct mmap_data *)ri->data;
	struct xrange r[UNMAP_RANGES];
	u32 tgid = (u32)current->tgid, i, n;
	bool exec_wanted;

	if (!current_is_user())
		return 1;
	d->file = regs_get_kernel_argument(regs, 0) != 0;
	d->addr = regs_get_kernel_argument(regs, 1);
	d->len = regs_get_kernel_argument(regs, 2);
	d->vm_flags = regs_get_kernel_argument(regs, 3);
	d->pgoff = regs_get_kernel_argument(regs, 4);
	d->time = jmmap_now();

	exec_wanted = jmmap_anyone_wants(tgid, JMMAP_WANT_EXEC_MAPS);
	if (exec_wanted) {
		/* MAP_FIXED over executable code: that code goes away first. */
		n = exec_overlaps(current->mm, d->addr, d->addr + d->len, r, UNMAP_RANGES);
		for (i = 0; i < n; i++)
			queue_munmap(d->time, r[i].start, r[i].end, JMMAP_UNMAP_MAP_FIXED);
	}
	if (d->vm_flags & VM_EXEC)
		return exec_wanted ? 0 : 1;
	return jmmap_anyone_wants(tgid, JMMAP_WANT_DATA_MAPS) ? 0 : 1;
}

static int mmap_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mmap_data *d = (struct mmap_data *)ri->data;
	unsigned long ret = regs_return_value(regs);
	struct vm_area_struct *vma;

	if (IS_ERR_VALUE(ret))
		return 0;
	vma = find_vma(current->mm, ret);
	if (!vma || vma->vm_start > ret)
		return 0;
	queue_mmap3(d->time, ret, d->len, (u64)d->pgoff << PAGE_SHIFT, vma,
		    d->file ? vma->vm_file : NULL, vm_prot(vma->vm_flags), JMMAP_CAUSE_MMAP);
	return 0;
}

/* --------------------------------------------------------- mprotect_fixup */

struct mprotect_data {
	u64 time;
	unsigned long start, end, newflags, pgoff;
	bool gains_exec;
};

static int mprotect_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mprotect_data *d = (struct mprotect_data *)ri->data;
	struct vm_area_struct *vma;
	unsigned long oldflags;

	if (!current_is_user())
		return 1;
	vma = (struct vm_area_struct *)regs_get_kernel_argument(regs, JMMAP_MPROTECT_ARG_VMA);
	d->start = regs_get_kernel_argument(regs, JMMAP_MPROTECT_ARG_START);
	d->end = regs_get_kernel_argument(regs, JMMAP_MPROTECT_ARG_END);
	d->newflags = regs_get_kernel_argument(regs, JMMAP_MPROTECT_ARG_NEWFLAGS);
	oldflags = vma->vm_flags;
	if (!((oldflags ^ d->newflags) & VM_EXEC))
		return 1;
	if (!jmmap_anyone_wants((u32)current->tgid, JMMAP_WANT_EXEC_MAPS))
		return 1;
	d->gains_exec = d->newflags & VM_EXEC;
	d->pgoff = ((u64)vma->vm_pgoff << PAGE_SHIFT) + (d->start - vma->vm_start);
	d->time = jmmap_now();
	return 0;
}

static int mprotect_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mprotect_data *d = (struct mprotect_data *)ri->data;
	struct vm_area_struct *vma;

	if (regs_return_value(regs) != 0)
		return 0;
	if (!d->gains_exec) {
		queue_munmap(d->time, d->start, d->end, JMMAP_UNMAP_MPROTECT);
		return 0;
	}
	vma = find_vma(current->mm, d->start);
	if (!vma || vma->vm_start > d->start)
		return 0;
	queue_mmap3(d->time, d->start, d->end - d->start, d->pgoff, vma, vma->vm_file,
		    vm_prot(d->newflags), JMMAP_CAUSE_MPROTECT);
	return 0;
}

/* ----------------------------------------------------------------- munmap */

struct munmap_data {
	u64 time;
	u32 n, cause;
	struct xrange r[UNMAP_RANGES];
};

static int munmap_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct munmap_data *d = (struct munmap_data *)ri->data;
	struct mm_struct *mm;
	unsigned long start, end;
	int nr;

	if (!current_is_user())
		return 1;
	mm = (struct mm_struct *)regs_get_kernel_argument(regs, JMMAP_MUNMAP_ARG_MM);
	if (mm != current->mm)
		return 1;
	nr = current_syscall();
	if (nr == __NR_mmap) /* MAP_FIXED: mmap_entry reported it */
		return 1;
	if (!jmmap_anyone_wants((u32)current->tgid, JMMAP_WANT_EXEC_MAPS))
		return 1;
	start = regs_get_kernel_argument(regs, JMMAP_MUNMAP_ARG_START);
	end = start + PAGE_ALIGN(regs_get_kernel_argument(regs, JMMAP_MUNMAP_ARG_LEN));
	if (end <= start)
		return 1;
	d->n = exec_overlaps(mm, start, end, d->r, UNMAP_RANGES);
	if (!d->n)
		return 1;
	d->cause = nr == __NR_mremap ? JMMAP_UNMAP_MREMAP : JMMAP_UNMAP_MUNMAP;
	d->time = jmmap_now();
	return 0;
}

static int munmap_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct munmap_data *d = (struct munmap_data *)ri->data;
	u32 i;

	if ((long)regs_return_value(regs) < 0)
		return 0;
	for (i = 0; i < d->n; i++)
		queue_munmap(d->time, d->r[i].start, d->r[i].end, d->cause);
	return 0;
}

static struct kretprobe mm_probes[] = {
	{
		.kp.symbol_name = JMMAP_MMAP_SYMBOL,
		.entry_handler = mmap_entry,
		.handler = mmap_return,
		.data_size = sizeof(struct mmap_data),
		.maxactive = MAXACTIVE,
	},
	{
		.kp.symbol_name = JMMAP_MPROTECT_SYMBOL,
		.entry_handler = mprotect_entry,
		.handler = mprotect_return,
		.data_size = sizeof(struct mprotect_data),
		.maxactive = MAXACTIVE,
	},
	{
		.kp.symbol_name = JMMAP_MUNMAP_SYMBOL,
		.entry_handler = munmap_entry,
		.handler = munmap_return,
		.data_size = sizeof(struct munmap_data),
		.maxactive = MAXACTIVE,
	},
};

static struct kretprobe *mm_probe_ptrs[ARRAY_SIZE(mm_probes)];

int jmmap_hooks_mm_register(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(mm_probes); i++)
		mm_probe_ptrs[i] = &mm_probes[i];
	err = register_kretprobes(mm_probe_ptrs, ARRAY_SIZE(mm_probe_ptrs));
	if (err)
		pr_err("jmmap: cannot probe the mm functions (%d); is one inlined?\n", err);
	return err;
}

/* Unregistering waits until no handler runs any more. */
void jmmap_hooks_mm_unregister(void)
{
	unregister_kretprobes(mm_probe_ptrs, ARRAY_SIZE(mm_probe_ptrs));
}

/* Probe misses (more than MAXACTIVE tasks inside a function at once). */
u64 jmmap_hooks_mm_missed(void)
{
	u64 n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mm_probes); i++)
		n += mm_probes[i].nmissed + mm_probes[i].kp.nmissed;
	return n;
}
