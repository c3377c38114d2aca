/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap: the direct trampoline of the mm hooks (mm-ops.c). ftrace makes the
 * fentry call of each hooked function a call of jmmap_mm_direct, so that a
 * hook costs this and the handler, not ftrace's trampoline and callback.
 * It is entered as the fentry call would be: on the function's stack,
 * before its prologue, the argument registers live. It saves them below
 * the return addresses, which makes a struct jmmap_args (compat.h), calls
 * a C entry (hooks-mm.c) with it, and gives the function its registers
 * back. rax, r10 and r11 hold nothing at a function's entry: they are not
 * saved, and the filters below use them freely.
 *
 * Every data mapping enters two of the functions, perf_event_mmap() and
 * mmap_region(), mostly for nothing. The fentry call's return address
 * tells them from the others (jmmap_mm_ret_*, set at load), and for those
 * two the handler's first test is made here, on the registers as they
 * are; only when it passes are they saved and that function's own C entry
 * called. The others go through jmmap_mm_entry(), which tells them apart.
 *
 * - perf_event_mmap(vma): a stash claimed by any task, or a vma of code
 *   (perf_mmap_pre()). The offset of vm_flags is the kernel's, built into
 *   mm-ops.c (jmmap_vma_flags_off).
 * - mmap_region(file, addr, len, vm_flags, ...): code, a stash claimed, a
 *   session that wants data mappings, or a call that may replace mappings:
 *   anything but an mmap() system call without MAP_FIXED (mmap_pre(),
 *   may_replace()). The system call and its fourth argument are read from
 *   the registers the task entered the kernel with, at the top of its stack
 *   (mmap_region() runs in a task, on its own stack, which is THREAD_SIZE
 *   aligned); a compat task's system call 9 is not one that maps, and an
 *   x32 one's number has a high bit set: both take the C way, as a kernel
 *   thread does. jmmap_mm_ops_init() checks at load that this place is
 *   task_pt_regs() and turns the filter off if not.
 *
 * ftrace calls it directly, or enters it with a return instead of a call
 * when another ops traces the same function, with the same stack; never
 * indirectly. It is a typed function all the same: that is what gives a
 * function an ENDBR on every kernel (7.x's SYM_FUNC_START has none), and
 * objtool wants one on a function whose address the module takes. It runs
 * preemptible until the C entry disables preemption: the module's exit
 * waits for every task to have left it (jmmap_mm_ops_exit()).
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/nospec-branch.h>
#include <asm/thread_info.h>

#include "mm-direct.h"

/* the task's registers on entry to the kernel, from %rax = its stack's last byte */
#define PT_REGS(off) ((off) + 1 - TOP_OF_KERNEL_STACK_PADDING - JMMAP_PT_REGS_SIZE)

/* the argument registers saved around a call of \entry, which gets their address */
.macro MM_DIRECT_CALL entry
	push	%r9
	push	%r8
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	mov	%rsp, %rdi
	call	\entry
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%r8
	pop	%r9
.endm

/* back to the function */
.macro MM_DIRECT_RET
#ifdef CONFIG_FRAME_POINTER
	pop	%rbp
#endif
	RET
.endm

	.text
SYM_TYPED_FUNC_START(jmmap_mm_direct)
#ifdef CONFIG_MITIGATION_CALL_DEPTH_TRACKING
	CALL_DEPTH_ACCOUNT
#endif
#ifdef CONFIG_FRAME_POINTER
	/* a frame above the saved registers, for an unwinder that follows rbp */
	push	%rbp
	mov	%rsp, %rbp
	mov	8(%rsp), %rax
#else
	mov	(%rsp), %rax
#endif
	cmp	jmmap_mm_ret_perf_mmap(%rip), %rax
	je	.Lperf_mmap
	cmp	jmmap_mm_ret_mmap(%rip), %rax
	je	.Lmmap
	MM_DIRECT_CALL jmmap_mm_entry
	MM_DIRECT_RET

.Lperf_mmap:
	cmpl	$0, jmmap_stash_claimed(%rip)
	jne	.Lperf_mmap_call
	mov	jmmap_vma_flags_off(%rip), %rax
	testb	$JMMAP_VM_EXEC, (%rdi, %rax)
	jz	.Lnothing
.Lperf_mmap_call:
	MM_DIRECT_CALL jmmap_mm_entry_perf_mmap
	MM_DIRECT_RET

.Lmmap:
	test	$JMMAP_VM_EXEC, %cl
	jnz	.Lmmap_call
	cmpl	$0, jmmap_stash_claimed(%rip)
	jne	.Lmmap_call
	cmpb	$0, jmmap_data_sessions(%rip)
	jne	.Lmmap_call
	mov	%rsp, %rax
	or	$(THREAD_SIZE - 1), %rax
	cmpq	$JMMAP_NR_MMAP, PT_REGS(JMMAP_PT_REGS_ORIG_AX)(%rax)
	jne	.Lmmap_call
	testb	$JMMAP_MAP_FIXED, PT_REGS(JMMAP_PT_REGS_R10)(%rax)
	jz	.Lnothing
.Lmmap_call:
	MM_DIRECT_CALL jmmap_mm_entry_mmap
.Lnothing:
	MM_DIRECT_RET
SYM_FUNC_END(jmmap_mm_direct)
