/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap: the task_work callback of a batch (defer.c). Its module reference
 * is the only thing keeping the module, so no module text may run once it
 * is dropped: module_put() is entered by a jump, and returns straight to
 * task_work_run(). Written here rather than in C because a C tail call is
 * the compiler's choice, and kernels built with frame pointers
 * (-fno-optimize-sibling-calls) make it a call followed by a return into
 * text that may be gone.
 *
 * task_work_run() calls it indirectly: on a kernel built with kCFI (Clang,
 * CONFIG_CFI_CLANG, FineIBT) it needs the type hash of its C prototype in
 * defer.c ahead of its entry, which SYM_TYPED_FUNC_START places; elsewhere
 * that is SYM_FUNC_START, ENDBR included.
 */
#include <linux/cfi_types.h>
#include <linux/linkage.h>

	.text
SYM_TYPED_FUNC_START(jmmap_batch_run)
	push	%rbp
	mov	%rsp, %rbp
	call	jmmap_batch_drain
	pop	%rbp
	lea	__this_module(%rip), %rdi
	jmp	module_put
SYM_FUNC_END(jmmap_batch_run)
