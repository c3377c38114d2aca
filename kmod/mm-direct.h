/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap: what the direct trampoline (mm-direct.S) reads by itself, with no
 * C to name it. mm-ops.c checks each value against the kernel's own at
 * build time, and the place of the task's registers at load.
 */
#ifndef JMMAP_MM_DIRECT_H
#define JMMAP_MM_DIRECT_H

#define JMMAP_VM_EXEC 0x4	 /* VM_EXEC */
#define JMMAP_MAP_FIXED 0x10	 /* MAP_FIXED */
#define JMMAP_NR_MMAP 9		 /* __NR_mmap */
#define JMMAP_PT_REGS_SIZE 168	 /* sizeof(struct pt_regs) */
#define JMMAP_PT_REGS_R10 56	 /* offsetof(struct pt_regs, r10): a system call's fourth argument */
#define JMMAP_PT_REGS_ORIG_AX 120 /* offsetof(struct pt_regs, orig_ax): the system call */

#endif
