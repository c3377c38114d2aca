/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap: the one place where kernel versions differ. compat-gen.h holds what
 * compat-probe.sh found in the headers; everything else in the module uses
 * the names defined here.
 */
#ifndef JMMAP_COMPAT_H
#define JMMAP_COMPAT_H

#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/pagemap.h>
#include <linux/ptrace.h>
#include "compat-gen.h"

struct vm_area_struct;

/*
 * unmap_vmas(), which zaps the pages of the vmas a munmap detached: it runs
 * only past the munmap path's point of no return, so it tells that the unmap
 * took effect (mmap_region() replacing vmas, and its error path, call it
 * too). The vmas it gets are exactly what goes away: the munmap path
 * split them at the range's ends and took them out of the tree. The first
 * is an argument (the descriptor's in 7.2); the others are what mas_find()
 * gives on the tree state it walks them with, up to the same limit, which
 * jmmap_unmapped_first() copies so that the kernel's own walk is not moved:
 *   unmap_vmas(tlb, maple_tree *mt, vma, start, end)                    6.1
 *       the detached tree by address: from vma->vm_end up to end - 1
 *   unmap_vmas(tlb, ma_state *mas, vma, start, end, tree_end, locked)   6.6+
 *       the detached tree by count: from where mas is, up to tree_end - 1
 *   unmap_vmas(tlb, unmap_desc *unmap)                                  7.2
 *       unmap->first, then unmap->mas from tree_reset up to tree_end - 1;
 *       the layout from the headers' BTF (mm/vma.h is not shipped)
 */
#if defined(JMMAP_HAVE_UNMAP_VMAS_MAS) || defined(JMMAP_HAVE_UNMAP_VMAS_MT)
#define JMMAP_UNMAP_VMAS_SYMBOL "unmap_vmas"
#elif defined(JMMAP_HAVE_UNMAP_VMAS_DESC)
#if !defined(JMMAP_UNMAP_DESC_OFF_FIRST) || !defined(JMMAP_UNMAP_DESC_OFF_MAS) || \
	!defined(JMMAP_UNMAP_DESC_OFF_TREE_END) || !defined(JMMAP_UNMAP_DESC_OFF_TREE_RESET)
#error "jmmap: struct unmap_desc's layout is unknown (no BTF in the headers, or no pahole?)"
#endif
#define JMMAP_UNMAP_VMAS_SYMBOL "unmap_vmas"
#else
#error "jmmap: unknown unmap_vmas() signature; teach compat-probe.sh"
#endif

/*
 * A variable on the stack that the kernel's INIT_STACK_ALL_ZERO (Debian's
 * kernels are built with it) would zero, where the code writes every field
 * it reads first (GCC 12 and clang know the attribute).
 */
#if __has_attribute(__uninitialized__)
#define jmmap_noinit __attribute__((__uninitialized__))
#else
#define jmmap_noinit
#endif

/*
 * A hooked function's arguments as its hooks read them (hooks-mm.c), laid
 * out as jmmap_mm_direct (mm-direct.S) leaves them on the stack when ftrace
 * calls it straight from the function's entry: the six arguments passed in
 * registers (rdi, rsi, rdx, rcx, r8, r9), on kernels built with frame
 * pointers the frame it makes, the return address of that call
 * (into the function, after its fentry call), the function's own return
 * address, then the arguments its caller passed on the stack. The hooks
 * read at most JMMAP_STACK_ARGS of those (the seventh of mprotect_fixup()
 * on 6.6+); jmmap_args_from_ftrace() fills the same from ftrace's saved
 * registers when the functions are called through ftrace's list instead.
 */
#define JMMAP_STACK_ARGS 1

struct jmmap_args {
	unsigned long reg[6];
#ifdef CONFIG_FRAME_POINTER
	unsigned long frame; /* the caller's frame pointer, where kernels keep a chain of them */
#endif
	unsigned long fentry_ret;
	unsigned long caller_ret;
	unsigned long stack[JMMAP_STACK_ARGS];
};

/* Argument @n (from 0) of the hooked function. */
static __always_inline unsigned long jmmap_arg(const struct jmmap_args *a, unsigned int n)
{
	BUILD_BUG_ON(n >= 6 + JMMAP_STACK_ARGS);
	return n < 6 ? a->reg[n] : READ_ONCE(a->stack[n - 6]);
}

struct jmmap_unmapped {
	struct ma_state mas; /* a copy */
	unsigned long last;
};

/*
 * What unmap_vmas() was given, the one place that reads it for each
 * signature: the first vma, the walk over the others (the kernel's own
 * maple state, or the detached tree on 6.1) and its bounds: it starts at
 * @index and stops past @last. False when the arguments name no walk.
 */
struct jmmap_unmap_args {
	struct vm_area_struct *vma;
	const struct ma_state *mas; /* 6.6+ and 7.2 */
	struct maple_tree *mt;      /* 6.1 */
	unsigned long index, last;
};

static inline bool jmmap_unmap_args(const struct jmmap_args *args, struct jmmap_unmap_args *a)
{
#ifdef JMMAP_HAVE_UNMAP_VMAS_DESC
	const char *desc = (const char *)jmmap_arg(args, 1);

	if (!desc)
		return false;
	a->mas = *(struct ma_state *const *)(desc + JMMAP_UNMAP_DESC_OFF_MAS);
	if (!a->mas)
		return false;
	a->index = *(const unsigned long *)(desc + JMMAP_UNMAP_DESC_OFF_TREE_RESET);
	a->last = *(const unsigned long *)(desc + JMMAP_UNMAP_DESC_OFF_TREE_END) - 1;
	a->vma = *(struct vm_area_struct *const *)(desc + JMMAP_UNMAP_DESC_OFF_FIRST);
#elif defined(JMMAP_HAVE_UNMAP_VMAS_MAS)
	a->mas = (const struct ma_state *)jmmap_arg(args, 1);
	if (!a->mas)
		return false;
	a->index = a->mas->index;
	a->last = jmmap_arg(args, 5) - 1;
	a->vma = (struct vm_area_struct *)jmmap_arg(args, 2);
#else
	a->mt = (struct maple_tree *)jmmap_arg(args, 1);
	a->vma = (struct vm_area_struct *)jmmap_arg(args, 2);
	if (!a->mt || !a->vma)
		return false;
	a->index = a->vma->vm_end;
	a->last = jmmap_arg(args, 4) - 1;
#endif
	return true;
}

/*
 * The first vma unmap_vmas() zaps, or NULL, and whether it is the only one
 * (*@only): the walk would start past its limit. From the arguments alone:
 * the walk's state is copied (jmmap_unmapped_first()) only for a call that
 * unmaps more.
 */
static inline struct vm_area_struct *jmmap_unmapped_peek(const struct jmmap_args *args,
							  bool *only)
{
	struct jmmap_unmap_args a jmmap_noinit; /* read only as set */

	if (!jmmap_unmap_args(args, &a))
		return NULL;
	*only = a.index > a.last;
	return a.vma;
}

/* The first vma unmap_vmas() zaps, or NULL; @it then gives the others. */
static inline struct vm_area_struct *jmmap_unmapped_first(const struct jmmap_args *args,
							   struct jmmap_unmapped *it)
{
	struct jmmap_unmap_args a jmmap_noinit; /* read only as set */

	if (!jmmap_unmap_args(args, &a))
		return NULL;
#ifdef JMMAP_HAVE_UNMAP_VMAS_DESC
	it->mas = *a.mas;
	mas_set(&it->mas, a.index);
#elif defined(JMMAP_HAVE_UNMAP_VMAS_MAS)
	it->mas = *a.mas;
#else
	{
		MA_STATE(mas, a.mt, a.index, a.index);

		it->mas = mas;
	}
#endif
	it->last = a.last;
	return a.vma;
}

static inline struct vm_area_struct *jmmap_unmapped_next(struct jmmap_unmapped *it)
{
	struct vm_area_struct *vma;

	/* past the limit already (one vma unmapped): nothing to walk */
	if (it->mas.index > it->last)
		return NULL;
	vma = mas_find(&it->mas, it->last);

	return vma && !xa_is_zero(vma) ? vma : NULL;
}

/*
 * The last vma unmap_vmas() zaps, by one backwards lookup from the walk's
 * limit on a copy of @it (not moved): the trees above hold the vmas in
 * address order, so it is the one with the highest address.
 */
static inline struct vm_area_struct *jmmap_unmapped_last(const struct jmmap_unmapped *it)
{
	struct ma_state mas = it->mas;
	struct vm_area_struct *vma;

	mas_set(&mas, it->last);
	vma = mas_find_rev(&mas, 0);
	return vma && !xa_is_zero(vma) ? vma : NULL;
}

/*
 * mprotect_fixup(), called once per vma a mprotect() changes:
 *   (tlb, vma, pprev, start, end, newflags)          6.1
 *   (vmi, tlb, vma, pprev, start, end, newflags)     6.6+
 */
#define JMMAP_MPROTECT_SYMBOL "mprotect_fixup"
#if defined(JMMAP_HAVE_MPROTECT_FIXUP_VMI)
#define JMMAP_MPROTECT_ARG_VMA 2
#elif defined(JMMAP_HAVE_MPROTECT_FIXUP_TLB)
#define JMMAP_MPROTECT_ARG_VMA 1
#else
#error "jmmap: unknown mprotect_fixup() signature; teach compat-probe.sh"
#endif
#define JMMAP_MPROTECT_ARG_START (JMMAP_MPROTECT_ARG_VMA + 2)
#define JMMAP_MPROTECT_ARG_END (JMMAP_MPROTECT_ARG_VMA + 3)
#define JMMAP_MPROTECT_ARG_NEWFLAGS (JMMAP_MPROTECT_ARG_VMA + 4)

/*
 * The registers ftrace saves at a traced function's entry for an ops without
 * FTRACE_OPS_FL_SAVE_REGS: on x86-64 (DYNAMIC_FTRACE_WITH_ARGS) its
 * trampoline fills the argument registers and the stack pointer of a
 * struct pt_regs and leaves the rest (ftrace_get_regs() returns NULL for
 * it); regs_get_kernel_argument() reads them. 6.12 made struct ftrace_regs
 * opaque, the pt_regs behind arch_ftrace_regs().
 */
#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#error "jmmap: ftrace does not pass the arguments without saving every register here"
#endif
#ifdef arch_ftrace_regs
#define jmmap_ftrace_args(fregs) (&arch_ftrace_regs(fregs)->regs)
#else
#define jmmap_ftrace_args(fregs) (&(fregs)->regs)
#endif

/*
 * struct jmmap_args from what ftrace saved at the function's entry. Its
 * saved stack pointer is the caller's own there: slot 0 the return address,
 * then the arguments on the stack, read inside the task's stack
 * (regs_get_kernel_stack_nth_addr() checks) as they are.
 */
static __always_inline void jmmap_args_from_ftrace(struct jmmap_args *a, struct pt_regs *regs,
						   unsigned long ip)
{
	unsigned long *slot;
	unsigned int i;

	for (i = 0; i < 6; i++)
		a->reg[i] = regs_get_kernel_argument(regs, i);
#ifdef CONFIG_FRAME_POINTER
	a->frame = 0; /* no frame of jmmap's on this way in */
#endif
	a->fentry_ret = ip + MCOUNT_INSN_SIZE;
	slot = regs_get_kernel_stack_nth_addr(regs, 0);
	a->caller_ret = slot ? READ_ONCE(*slot) : 0;
	for (i = 0; i < JMMAP_STACK_ARGS; i++) {
		slot = regs_get_kernel_stack_nth_addr(regs, i + 1);
		a->stack[i] = slot ? READ_ONCE(*slot) : 0;
	}
}

/*
 * ftrace's direct calls (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS): the
 * fentry calls of an ops's functions made calls of one trampoline of the
 * caller's, with no ftrace trampoline and no list walk between. -ENODEV
 * where the kernel has none.
 */
#if !defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
static inline int jmmap_ftrace_direct_on(struct ftrace_ops *ops, unsigned long addr)
{
	return -ENODEV;
}

static inline int jmmap_ftrace_direct_off(struct ftrace_ops *ops, unsigned long addr)
{
	return -ENODEV;
}
#elif defined(JMMAP_HAVE_FTRACE_DIRECT_MULTI)
#define jmmap_ftrace_direct_on(ops, addr) register_ftrace_direct_multi(ops, addr)
#ifdef JMMAP_HAVE_FTRACE_DIRECT_FREE_FILTERS
#define jmmap_ftrace_direct_off(ops, addr) unregister_ftrace_direct_multi(ops, addr, false)
#else
#define jmmap_ftrace_direct_off(ops, addr) unregister_ftrace_direct_multi(ops, addr)
#endif
#elif defined(JMMAP_HAVE_FTRACE_DIRECT_OPS) && defined(JMMAP_HAVE_FTRACE_DIRECT_FREE_FILTERS)
#define jmmap_ftrace_direct_on(ops, addr) register_ftrace_direct(ops, addr)
#define jmmap_ftrace_direct_off(ops, addr) unregister_ftrace_direct(ops, addr, false)
#else
#error "jmmap: unknown ftrace direct-call interface; teach compat-probe.sh"
#endif

/*
 * A vma's flags, set or cleared by a driver's mmap: through vm_flags_set()
 * and vm_flags_clear() since 6.3.
 */
#ifdef JMMAP_HAVE_VM_FLAGS_SET
#define jmmap_vm_flags_set(vma, flags) vm_flags_set(vma, flags)
#define jmmap_vm_flags_clear(vma, flags) vm_flags_clear(vma, flags)
#else
#define jmmap_vm_flags_set(vma, flags) ((vma)->vm_flags |= (flags))
#define jmmap_vm_flags_clear(vma, flags) ((vma)->vm_flags &= ~(flags))
#endif

/* mmap_region(file, addr, len, vm_flags, pgoff, uf) */
#ifndef JMMAP_HAVE_MMAP_REGION
#error "jmmap: mmap_region() is not declared as expected; teach compat-probe.sh"
#endif
#define JMMAP_MMAP_SYMBOL "mmap_region"

/*
 * The mremap system call's entry point, probed to learn that a task calls
 * mremap (the arguments are read from the task's user registers, so the
 * probed function's own signature does not matter).
 */
#if defined(JMMAP_HAVE_X64_SYSCALL_WRAPPER)
#define JMMAP_MREMAP_SYMBOL "__x64_sys_mremap"
#else
#error "jmmap: no x86-64 system call wrappers; teach compat-probe.sh the mremap entry"
#endif

/*
 * The sched_process_exit tracepoint's prototype: (p) until 6.15, then
 * (p, group_dead). Used as probe_exit(void *data, JMMAP_SCHED_EXIT_PROTO(p, gd));
 * JMMAP_SCHED_EXIT_GROUP_DEAD(p, gd) tells whether the whole process is gone.
 */
#ifdef JMMAP_HAVE_SCHED_EXIT_GROUP_DEAD
#define JMMAP_SCHED_EXIT_PROTO(p, gd) struct task_struct *p, bool gd
#define JMMAP_SCHED_EXIT_GROUP_DEAD(p, gd) (gd)
#else
#define JMMAP_SCHED_EXIT_PROTO(p, gd) struct task_struct *p
#define JMMAP_SCHED_EXIT_GROUP_DEAD(p, gd) (atomic_read(&(p)->signal->live) == 0)
#endif

/*
 * Whether the current credentials may read @file, from the mode and
 * cached ACLs alone: never a call into the filesystem, which on NFS or
 * FUSE could wait on a server. An ACL not cached counts as no.
 */
static inline bool jmmap_may_read_cached(struct file *file)
{
#ifdef JMMAP_HAVE_MNT_IDMAP
	return !generic_permission(file_mnt_idmap(file), file_inode(file),
				   MAY_READ | MAY_NOT_BLOCK);
#else
	return !generic_permission(file_mnt_user_ns(file), file_inode(file),
				   MAY_READ | MAY_NOT_BLOCK);
#endif
}

/*
 * Whether the folios of @mapping may be missing from the kernel's direct
 * map, or must not be read by the kernel at all (guest_memfd): the kernel
 * then never copies from them. memfd_secret() files are told by their
 * filesystem's magic, on every kernel.
 */
static inline bool jmmap_mapping_no_direct_map(struct address_space *mapping)
{
#ifdef JMMAP_HAVE_MAPPING_NO_DIRECT_MAP
	if (mapping_no_direct_map(mapping))
		return true;
#endif
#ifdef JMMAP_HAVE_MAPPING_INACCESSIBLE
	if (mapping_inaccessible(mapping))
		return true;
#endif
	return false;
}

/* The inode's change time, as seconds and nanoseconds. */
static inline void jmmap_inode_ctime(const struct inode *inode, s64 *sec, u32 *nsec)
{
#ifdef JMMAP_HAVE_INODE_GET_CTIME
	struct timespec64 ts = inode_get_ctime(inode);
#else
	struct timespec64 ts = inode->i_ctime;
#endif
	*sec = ts.tv_sec;
	*nsec = (u32)ts.tv_nsec;
}

/*
 * The path and inode of a mapped file as /proc/PID/maps shows them. On a
 * stacking filesystem (overlayfs) vma->vm_file is a backing file whose
 * f_path and inode are the layer's below; file_user_path() and
 * file_user_inode() give the file the user opened. Kernels without them
 * show the backing file in /proc/PID/maps too.
 */
static inline const struct path *jmmap_file_path(const struct file *file)
{
#ifdef JMMAP_HAVE_FILE_USER_PATH
	return file_user_path(file);
#else
	return &file->f_path;
#endif
}

static inline const struct inode *jmmap_file_inode(const struct file *file)
{
#ifdef JMMAP_HAVE_FILE_USER_INODE
	return file_user_inode(file);
#else
	return file_inode(file);
#endif
}

#endif
