// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu.bpf.c: jrec record --off-cpu's in-kernel aggregation. At each
 * switch-out of a followed thread, note the time, its task state and the
 * ids of its kernel and user stacks; at its next switch-in, add the time it
 * was away to an entry keyed by (pid, tid, state, stacks). jrec reads the
 * maps at the end of the recording and writes offcpu-time samples
 * (Documentation/jrec-offcpu.rst). Frame-pointer stacks only.
 */
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "offcpu-bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Only the fields read, relocated against the running kernel's BTF. */
struct task_struct {
	int pid;
	int tgid;
	unsigned int __state;
} __attribute__((preserve_access_index));

/* Kernels before 5.14 call it state (a long). */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OFFCPU_BPF_MAX_STACK * sizeof(__u64));
	__uint(max_entries, OFFCPU_BPF_MAX_STACKS);
} stacks SEC(".maps");

/* A thread away from its CPU: since when, with which state and stacks. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct offcpu_bpf_start);
} starts SEC(".maps");

/*
 * The kernel stack a process last blocked in from a user stack, in a state:
 * walking a kernel stack costs most of what a switch costs to note, and a
 * call site blocks in the same kernel path nearly always. Walked again
 * every OFFCPU_BPF_KSTACK_REWALK uses.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct offcpu_bpf_kcache_key);
	__type(value, struct offcpu_bpf_kcache_val);
	__uint(max_entries, OFFCPU_BPF_MAX_STACKS);
} kcache SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct offcpu_bpf_key);
	__type(value, struct offcpu_bpf_val);
	__uint(max_entries, OFFCPU_BPF_MAX_ENTRIES);
} offcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32); /* tgid */
	__type(value, __u8);
	__uint(max_entries, OFFCPU_BPF_MAX_PIDS);
} pids SEC(".maps");

const volatile int all_pids = 0; /* -a: every thread but the idle tasks */
__u64 dropped = 0;		 /* intervals lost to a full map */

static __always_inline int followed(__u32 pid, __u32 tgid)
{
	if (!pid)
		return 0;
	if (all_pids)
		return 1;
	return bpf_map_lookup_elem(&pids, &tgid) != NULL;
}

static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (__u32)BPF_CORE_READ((struct task_struct___old *)t, state);
}

/* The kernel stack of the switch-out of @tgid from user stack @ustack in @state. */
static __always_inline __s32 kernel_stack(void *ctx, __u32 tgid, __s32 ustack, __u32 state)
{
	struct offcpu_bpf_kcache_key ck = { .pid = tgid, .ustack = ustack, .state = state };
	struct offcpu_bpf_kcache_val *cv, nv = { .uses = 1 };

	if (ustack < 0)
		return bpf_get_stackid(ctx, &stacks, OFFCPU_BPF_SKIP);
	cv = bpf_map_lookup_elem(&kcache, &ck);
	if (cv && cv->kstack >= 0 && (++cv->uses % OFFCPU_BPF_KSTACK_REWALK))
		return cv->kstack;
	nv.kstack = bpf_get_stackid(ctx, &stacks, OFFCPU_BPF_SKIP);
	bpf_map_update_elem(&kcache, &ck, &nv, BPF_ANY);
	return nv.kstack;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 prev_pid = BPF_CORE_READ(prev, pid), prev_tgid = BPF_CORE_READ(prev, tgid);
	__u32 next_pid = BPF_CORE_READ(next, pid), next_tgid = BPF_CORE_READ(next, tgid);
	__u64 now = bpf_ktime_get_ns();
	struct offcpu_bpf_start *st;

	if (followed(prev_pid, prev_tgid)) {
		st = bpf_task_storage_get(&starts, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (st) {
			st->state = preempt ? OFFCPU_BPF_STATE_RUNNING : task_state(prev);
			st->ustack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
			st->kstack = kernel_stack(ctx, prev_tgid, st->ustack, st->state);
			st->ts = now;
		}
	}
	if (!next_pid)
		return 0;
	st = bpf_task_storage_get(&starts, next, 0, 0);
	if (st && st->ts) {
		struct offcpu_bpf_key k = {};
		struct offcpu_bpf_val *v;
		__u64 delta = now - st->ts;

		k.pid = next_tgid;
		k.tid = next_pid;
		k.state = st->state;
		k.kstack = st->kstack;
		k.ustack = st->ustack;
		st->ts = 0;
		v = bpf_map_lookup_elem(&offcpu, &k);
		if (v) {
			__sync_fetch_and_add(&v->total_ns, delta);
			__sync_fetch_and_add(&v->count, 1);
			v->last_in = now;
		} else {
			struct offcpu_bpf_val nv = { .total_ns = delta, .count = 1, .last_in = now };

			if (bpf_map_update_elem(&offcpu, &k, &nv, BPF_NOEXIST))
				__sync_fetch_and_add(&dropped, 1);
		}
	}
	return 0;
}

/* A followed process's children are followed (-a follows all anyway). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(offcpu_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (all_pids || ptgid == ctgid)
		return 0;
	if (bpf_map_lookup_elem(&pids, &ptgid))
		bpf_map_update_elem(&pids, &ctgid, &one, BPF_ANY);
	return 0;
}
