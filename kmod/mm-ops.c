// SPDX-License-Identifier: GPL-2.0
/*
 * How the mm hooks (hooks-mm.c) reach the functions they hook: one
 * ftrace_ops for the five, armed one of two ways.
 *
 * - Direct (the default, where the kernel has ftrace's direct calls): each
 *   function's fentry call becomes a call of jmmap_mm_direct (mm-direct.S),
 *   which saves the argument registers and calls jmmap_mm_entry(). No
 *   ftrace trampoline runs, and nothing looks up the ops. A function takes
 *   one direct caller at a time, and shares it with a live patch only
 *   through an ops_func, which this ops has not: while jmmap holds them, a
 *   BPF fentry or fexit program on one of the five cannot attach and a
 *   live patch of one cannot be applied (EBUSY); if either holds one
 *   first, jmmap uses the other way.
 * - Through ftrace's list (the module's ftrace_direct parameter 0, or no
 *   direct call to be had): ftrace calls mm_ftrace_entry() from a
 *   trampoline made for the ops with the argument registers saved, which
 *   shares the functions with every other ftrace user.
 *
 * Either way the ops has no FTRACE_OPS_FL_RECURSION: jmmap_mm_entry()
 * needs neither ftrace's recursion protection nor preemption disabled for
 * it. One ops is one update of the kernel's code to arm all five, and one
 * to disarm.
 *
 * The ops is filtered by address, not by name: matching a name makes
 * ftrace look up the symbol of every traceable function in the kernel and
 * its modules, seconds under emulation. The addresses are the functions'
 * fentry sites, which is where ftrace calls from, found once at load with
 * kprobes registered disabled (kallsyms_lookup_name() is not exported to
 * modules; a disabled kprobe changes no code).
 */
#include <asm/unistd.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>

#include "compat.h"
#include "hooks.h"
#include "mm-direct.h"

static const char *const mm_hook_symbol[JMMAP_HOOK_NR] = {
	[JMMAP_HOOK_PERF_MMAP] = "perf_event_mmap",
	[JMMAP_HOOK_MMAP] = JMMAP_MMAP_SYMBOL,
	[JMMAP_HOOK_MPROTECT] = JMMAP_MPROTECT_SYMBOL,
	[JMMAP_HOOK_UNMAP_VMAS] = JMMAP_UNMAP_VMAS_SYMBOL,
	[JMMAP_HOOK_MREMAP] = JMMAP_MREMAP_SYMBOL,
};

unsigned long jmmap_mm_hook_ip[JMMAP_HOOK_NR];
unsigned long jmmap_mm_ret_perf_mmap, jmmap_mm_ret_mmap;
const unsigned long jmmap_vma_flags_off = offsetof(struct vm_area_struct, vm_flags);

/*
 * What mm-direct.S reads without C (mm-direct.h) is the kernel's, and the
 * registers it finds from the stack pointer are the task's: checked on the
 * loading task's stack, a kernel whose stacks are laid out otherwise gets
 * no mmap_region filter (every call takes the C way).
 */
static bool mm_direct_regs_found(void)
{
	unsigned long last = current_stack_pointer | (THREAD_SIZE - 1);

	BUILD_BUG_ON(VM_EXEC != JMMAP_VM_EXEC);
	BUILD_BUG_ON(MAP_FIXED != JMMAP_MAP_FIXED);
	BUILD_BUG_ON(__NR_mmap != JMMAP_NR_MMAP);
	BUILD_BUG_ON(sizeof(struct pt_regs) != JMMAP_PT_REGS_SIZE);
	BUILD_BUG_ON(offsetof(struct pt_regs, r10) != JMMAP_PT_REGS_R10);
	BUILD_BUG_ON(offsetof(struct pt_regs, orig_ax) != JMMAP_PT_REGS_ORIG_AX);
	return last + 1 - TOP_OF_KERNEL_STACK_PADDING - JMMAP_PT_REGS_SIZE ==
	       (unsigned long)task_pt_regs(current);
}

static bool ftrace_direct = true;
module_param(ftrace_direct, bool, 0644);
MODULE_PARM_DESC(ftrace_direct,
		 "hook the mm functions with ftrace's direct calls where the kernel has them "
		 "(default 1); 0: through ftrace's list of callbacks, which BPF fentry programs "
		 "and live patches on those functions can share; read when the first session "
		 "opens");

void jmmap_mm_direct(void); /* mm-direct.S */

static struct ftrace_ops mm_ops;
static bool mm_ops_registered;
static bool mm_ops_direct;  /* registered with jmmap_mm_direct */
static bool mm_direct_used; /* since load */

/* ftrace's callback, when the functions are called through its list. */
static void notrace mm_ftrace_entry(unsigned long ip, unsigned long parent_ip,
				    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct jmmap_args in jmmap_noinit; /* every field set */

	if (!fregs)
		return;
	jmmap_args_from_ftrace(&in, jmmap_ftrace_args(fregs), ip);
	jmmap_mm_entry(&in);
}

/* At load: where each function's entry is. */
int jmmap_mm_ops_init(void)
{
	static struct kprobe kps[JMMAP_HOOK_NR];
	static struct kprobe *ptrs[JMMAP_HOOK_NR];
	size_t i;
	int err;

	for (i = 0; i < JMMAP_HOOK_NR; i++) {
		memset(&kps[i], 0, sizeof(kps[i]));
		kps[i].symbol_name = mm_hook_symbol[i];
		kps[i].flags = KPROBE_FLAG_DISABLED;
		ptrs[i] = &kps[i];
	}
	err = register_kprobes(ptrs, JMMAP_HOOK_NR);
	if (err) {
		pr_err("jmmap: cannot find the mm functions (%d); is one inlined?\n", err);
		return err;
	}
	for (i = 0; i < JMMAP_HOOK_NR; i++)
		jmmap_mm_hook_ip[i] = (unsigned long)kps[i].addr;
	unregister_kprobes(ptrs, JMMAP_HOOK_NR);
	jmmap_mm_ret_perf_mmap = jmmap_mm_hook_ip[JMMAP_HOOK_PERF_MMAP] + MCOUNT_INSN_SIZE;
	if (mm_direct_regs_found())
		jmmap_mm_ret_mmap = jmmap_mm_hook_ip[JMMAP_HOOK_MMAP] + MCOUNT_INSN_SIZE;
	else
		pr_info("jmmap: a task's registers are not where mm-direct.S looks; "
			"mmap_region's calls all take the C way\n");
	return 0;
}

/*
 * jmmap_mm_direct runs preemptible: a task may still be inside it, past
 * the ops's unregistration, until it next gives the CPU up by itself,
 * which is what RCU Tasks waits for. Once, before the module's text goes.
 */
void jmmap_mm_ops_exit(void)
{
	if (mm_direct_used)
		synchronize_rcu_tasks();
}

/* Unregistering waits until no callback runs any more (ftrace's own sync). */
void jmmap_mm_ops_disarm(void)
{
	if (mm_ops_registered && mm_ops_direct)
		jmmap_ftrace_direct_off(&mm_ops, (unsigned long)jmmap_mm_direct);
	else if (mm_ops_registered)
		unregister_ftrace_function(&mm_ops);
	mm_ops_registered = false;
	mm_ops_direct = false;
	ftrace_free_filter(&mm_ops);
}

/* A clean ops for the five functions, filtered to them. */
static int mm_ops_init(void)
{
	memset(&mm_ops, 0, sizeof(mm_ops));
	return ftrace_set_filter_ips(&mm_ops, jmmap_mm_hook_ip, JMMAP_HOOK_NR, 0, 1);
}

int jmmap_mm_ops_arm(void)
{
	int err;

	/* Armed again after a disarm: from a clean ops. */
	err = mm_ops_init();
	if (!err && READ_ONCE(ftrace_direct)) {
		mm_direct_used = true; /* the trampoline may be entered from here on */
		err = jmmap_ftrace_direct_on(&mm_ops, (unsigned long)jmmap_mm_direct);
		if (!err) {
			mm_ops_registered = mm_ops_direct = true;
			return 0;
		}
		pr_info_ratelimited("jmmap: no direct call on the mm functions (%d); "
				    "hooked through ftrace's list\n", err);
		ftrace_free_filter(&mm_ops);
		err = mm_ops_init();
	}
	if (!err) {
		mm_ops.func = mm_ftrace_entry;
		mm_ops.flags = 0; /* the arguments are enough (jmmap_ftrace_args()) */
		err = register_ftrace_function(&mm_ops);
	}
	if (err) {
		pr_err("jmmap: cannot trace the mm functions (%d)\n", err);
		jmmap_mm_ops_disarm();
		return err;
	}
	mm_ops_registered = true;
	return 0;
}
