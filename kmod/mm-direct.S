/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap: the direct trampoline of the mm hooks (mm-ops.c). ftrace makes the
 * fentry call of each hooked function a call of jmmap_mm_direct, so that a
 * hook costs this and the handler, not ftrace's trampoline and callback.
 * It is entered as the fentry call would be: on the function's stack,
 * before its prologue, the argument registers live. It saves them below
 * the return addresses, which makes a struct jmmap_args (compat.h), calls
 * jmmap_mm_entry() (hooks-mm.c) with it, and gives the function its
 * registers back. rax, r10 and r11 hold nothing at a function's entry:
 * they are not saved.
 *
 * ftrace calls it directly, or enters it with a return instead of a call
 * when another ops traces the same function, with the same stack; never
 * indirectly. It is a typed function all the same: that is what gives a
 * function an ENDBR on every kernel (7.x's SYM_FUNC_START has none), and
 * objtool wants one on a function whose address the module takes. It runs
 * preemptible until jmmap_mm_entry() disables preemption: the module's
 * exit waits for every task to have left it (jmmap_mm_ops_exit()).
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

	.text
SYM_TYPED_FUNC_START(jmmap_mm_direct)
#ifdef CONFIG_MITIGATION_CALL_DEPTH_TRACKING
	CALL_DEPTH_ACCOUNT
#endif
#ifdef CONFIG_FRAME_POINTER
	/* a frame above the saved registers, for an unwinder that follows rbp */
	push	%rbp
	mov	%rsp, %rbp
#endif
	push	%r9
	push	%r8
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	mov	%rsp, %rdi
	call	jmmap_mm_entry
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%r8
	pop	%r9
#ifdef CONFIG_FRAME_POINTER
	pop	%rbp
#endif
	RET
SYM_FUNC_END(jmmap_mm_direct)
