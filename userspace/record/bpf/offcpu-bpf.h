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
#define OFFCPU_BPF_KSTACK_REWALK 256 /* a cached kernel stack is walked again this often */
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

/*
 * The kernel stacks a thread last blocked in, by user stack, state and way
 * into the kernel: a small cache in the thread's own storage (see
 * offcpu.bpf.c).
 */
#define OFFCPU_BPF_KCACHE 4

struct offcpu_bpf_kcache {
	__s32 ustack;
	__u32 state;
	__s32 kstack; /* < 0: empty */
	__u32 uses;   /* since it was walked */
	__u32 entry;  /* the saved orig_ax: the system call, or -1 from an interrupt */
};

/*
 * The user stacks a thread last blocked in, by their hash: two, for a loop
 * that blocks in one place, or in two in turn (a read and a write).
 */
#define OFFCPU_BPF_ULAST 2

struct offcpu_bpf_ulast {
	__u64 hash;
	__s32 ustack;
	__u32 uses; /* 0: empty */
};

/*
 * A followed thread: when it went away and with which key; the waits it
 * ended with one key, summed until the key changes (then added to the offcpu
 * map, as when it exits and when the recording ends); its kernel stack cache.
 */
struct offcpu_bpf_start {
	__u64 ts;
	__u64 ran; /* the thread's se.sum_exec_runtime then */
	__u32 state;
	__s32 kstack;
	__s32 ustack;
	__u32 kc_last; /* the kc[] entry last taken, looked at first */
	__u32 p_state;
	__s32 p_kstack;
	__s32 p_ustack;
	__u32 p_pad;
	__u64 p_count; /* 0: nothing pending */
	__u64 p_total_ns;
	__u64 p_last_in;
	__u32 u_skip; /* switch-outs left whose user stack the kernel walks directly */
	__u32 u_next; /* the u[] entry a new user stack takes: the one not taken last */
	struct offcpu_bpf_ulast u[OFFCPU_BPF_ULAST];
	__u32 kc_next; /* the kc[] entry a new kernel stack takes */
	__u32 kc_pad;
	struct offcpu_bpf_kcache kc[OFFCPU_BPF_KCACHE];
};

/*
 * How many bytes of a user stack are read, from its first frame: the first
 * OFFCPU_BPF_UFIRST, and the rest only when the frames go on past them.
 */
#define OFFCPU_BPF_UREGION 1024
#define OFFCPU_BPF_UFIRST  64
/* a user stack known by its hash is walked by the kernel again this often */
#define OFFCPU_BPF_USTACK_REWALK 256
/* after a stack that goes on past the bytes read, the kernel walks this many directly */
#define OFFCPU_BPF_USTACK_SKIP 16

/* ucache: a user stack's id, by the hash of what was read of it */
struct offcpu_bpf_ucache_val {
	__s32 ustack;
	__u32 uses; /* since the kernel walked it */
};

#endif
