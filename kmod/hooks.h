/* SPDX-License-Identifier: GPL-2.0 */
/* jmmap hooks: where records come from. */
#ifndef JMMAP_HOOKS_H
#define JMMAP_HOOKS_H

#include <linux/types.h>

struct jmmap_session;

/* hooks.c: every hook registered (0 or -errno, none left then), and unregistered */
int jmmap_arm(void);
void jmmap_disarm(void);

/* hooks-mm.c: callbacks at the entry of mmap_region, mprotect_fixup, unmap_vmas, ... */
int jmmap_hooks_mm_init(void); /* at load: the functions' sites, the table of stashes */
void jmmap_hooks_mm_exit(void);
int jmmap_hooks_mm_register(void);
void jmmap_hooks_mm_unregister(void);
struct task_struct;
/* A task exits: forget what it was doing. */
void jmmap_hooks_mm_task_exit(struct task_struct *task);

/* mm-ops.c: the functions the mm hooks hook, and how (ftrace) */
enum jmmap_mm_hook {
	JMMAP_HOOK_PERF_MMAP,
	JMMAP_HOOK_MMAP,
	JMMAP_HOOK_MPROTECT,
	JMMAP_HOOK_UNMAP_VMAS,
	JMMAP_HOOK_MREMAP,
	JMMAP_HOOK_NR
};
/* each function's fentry site, found at load */
extern unsigned long jmmap_mm_hook_ip[JMMAP_HOOK_NR];
/*
 * For the direct trampoline (mm-direct.S): the return addresses of
 * perf_event_mmap's and mmap_region's fentry calls (0: that function's
 * filter off), and the offset of a vma's flags.
 */
extern unsigned long jmmap_mm_ret_perf_mmap, jmmap_mm_ret_mmap;
extern const unsigned long jmmap_vma_flags_off;
int jmmap_mm_ops_init(void); /* at load: the sites */
void jmmap_mm_ops_exit(void); /* at unload */
int jmmap_mm_ops_arm(void);
void jmmap_mm_ops_disarm(void);
struct jmmap_args;
/* hooks-mm.c: where every mm hook enters, either way (compat.h: struct jmmap_args) */
void jmmap_mm_entry(const struct jmmap_args *in);
/* hooks-mm.c: the direct trampoline's own ways in for perf_event_mmap and mmap_region */
void jmmap_mm_entry_perf_mmap(const struct jmmap_args *in);
void jmmap_mm_entry_mmap(const struct jmmap_args *in);

/* hooks-proc.c: sched_process_exec/fork/exit tracepoints */
int jmmap_hooks_proc_register(void);
void jmmap_hooks_proc_unregister(void);

/* snapshot.c: MMAP3 cause snapshot for @tgid's executable mappings, to @s only */
int jmmap_snapshot(struct jmmap_session *s, u32 tgid);

#endif
