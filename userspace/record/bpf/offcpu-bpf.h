/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu-bpf: what the in-kernel off-CPU aggregation (offcpu.bpf.c) and its
 * loader (record/offcpu-bpf.c) share: the keys and values of its maps.
 * Fixed-width fields only; both sides are built from this one header.
 */
#ifndef JREC_OFFCPU_BPF_H
#define JREC_OFFCPU_BPF_H

#define OFFCPU_BPF_MAX_STACK   127   /* frames a stack id holds (perf's PERF_MAX_STACK_DEPTH) */
#define OFFCPU_BPF_MAX_STACKS  16384 /* distinct stacks */
#define OFFCPU_BPF_MAX_ENTRIES 16384 /* distinct (thread, state, stacks) */
#define OFFCPU_BPF_KSTACK_REWALK 64 /* a cached kernel stack is walked again this often */
#define OFFCPU_BPF_MAX_PIDS    8192  /* followed processes */
/* kernel frames of a stack that are the program and the tracepoint's call of it */
#define OFFCPU_BPF_SKIP 2

/* The task states at switch-out that the key tells apart (bits of __state). */
#define OFFCPU_BPF_STATE_RUNNING 0 /* preempted: still runnable */

/* The aggregation key: who blocked, how, and in which stacks. */
struct offcpu_bpf_key {
	__u32 pid;   /* thread group */
	__u32 tid;
	__u32 state; /* the task's __state at switch-out (0: preempted) */
	__s32 kstack; /* kernel stack id in the stacks map, < 0 when none */
	__s32 ustack; /* user stack id, < 0 when none */
	__u32 pad;
};

struct offcpu_bpf_val {
	__u64 total_ns; /* time away, summed */
	__u64 count;	/* intervals */
	__u64 last_in;	/* CLOCK_MONOTONIC ns of the latest switch-in that ended one */
};

/* A thread away from its CPU: since when and with which key. */
struct offcpu_bpf_start {
	__u64 ts;
	__u32 state;
	__s32 kstack;
	__s32 ustack;
	__u32 pad;
};

/* kcache: the kernel stack last walked for a process's user stack and state */
struct offcpu_bpf_kcache_key {
	__u32 pid;
	__s32 ustack;
	__u32 state;
	__u32 pad;
};

struct offcpu_bpf_kcache_val {
	__s32 kstack;
	__u32 uses; /* since it was walked */
};

#endif
