// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu.bpf.c: jrec record --off-cpu's in-kernel aggregation. At each
 * switch-out of a followed thread, note the time, its task state and the
 * ids of its kernel and user stacks; at its next switch-out, add the time it
 * was away (until the switch-in that the CPU noted) to an entry keyed by
 * (pid, tid, state, stacks). jrec reads the
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
struct mm_struct {
	unsigned long start_stack;
} __attribute__((preserve_access_index));

struct sched_entity {
	unsigned long long sum_exec_runtime;
} __attribute__((preserve_access_index));

struct task_struct {
	struct sched_entity se;
	int pid;
	int tgid;
	unsigned int __state;
	struct mm_struct *mm;
} __attribute__((preserve_access_index));

struct bpf_iter_meta;

/* The task iterator's context. */
struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

/* Kernels before 5.14 call it state (a long). */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

/* The user registers saved when the thread entered the kernel. */
struct pt_regs {
	unsigned long bp;
	unsigned long orig_ax;
	unsigned long ip;
	unsigned long cs;
	unsigned long sp;
} __attribute__((preserve_access_index));

/* Since 6.9 (FRED) cs is the low 16 bits of a union with csx. */
struct pt_regs___fred {
	unsigned short cs;
	unsigned long csx;
} __attribute__((preserve_access_index));

#define USER64_CS 0x33 /* x86-64's __USER_CS: the thread runs 64-bit code */
#define FRAME_BYTES 16 /* a frame record: the saved frame pointer, the return address */

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, OFFCPU_BPF_MAX_STACK * sizeof(__u64));
	__uint(max_entries, OFFCPU_BPF_MAX_STACKS);
} stacks SEC(".maps");

/*
 * A followed thread: created at its first switch-out, so that a thread with
 * storage is followed without asking the pids map again.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct offcpu_bpf_start);
} starts SEC(".maps");

/* The top of a user stack read in one go, and a stack the kernel walked (per CPU). */
struct uscratch {
	__u64 top[OFFCPU_BPF_UREGION / 8];
	__u64 walked[OFFCPU_BPF_MAX_STACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct uscratch);
	__uint(max_entries, 1);
} uscratch SEC(".maps");

/* User stack ids by the hash of their frames as read here (user_stack()). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u64);
	__type(value, struct offcpu_bpf_ucache_val);
	__uint(max_entries, OFFCPU_BPF_MAX_STACKS);
} ucache SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct offcpu_bpf_key);
	__type(value, struct offcpu_bpf_val);
	__uint(max_entries, OFFCPU_BPF_MAX_ENTRIES);
} offcpu SEC(".maps");

/*
 * The thread each CPU switched in last, and when: the one running there. A
 * thread runs on one CPU from its switch-in to its switch-out, so at its
 * switch-out its CPU's entry gives the end of its last wait, and no lookup
 * of the thread's own storage is made at a switch-in. An entry is a cache
 * line's size, as each CPU writes its own at every switch.
 */
struct offcpu_cpu {
	__u64 in;
	__u32 tid;
	__u8 pad[52];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct offcpu_cpu);
	__uint(max_entries, 1); /* the possible CPUs: set by jrec before loading */
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32); /* tgid */
	__type(value, __u8);
	__uint(max_entries, OFFCPU_BPF_MAX_PIDS);
} pids SEC(".maps");

const volatile int all_pids = 0; /* -a: every thread but the idle tasks */
const volatile __u32 nr_cpus = 1; /* entries of cpus */
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
		return t->__state;
	return (__u32)((struct task_struct___old *)t)->state;
}

static __always_inline __u64 mix(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static __always_inline unsigned short user_cs(struct pt_regs *regs)
{
	if (bpf_core_field_exists(((struct pt_regs___fred *)regs)->csx))
		return ((struct pt_regs___fred *)regs)->cs;
	return (unsigned short)regs->cs;
}

/*
 * The frames from @fp in @u->top, the @len bytes of the stack from @base,
 * hashed into @h; @i the frames so far. Leaves @fp at the first frame
 * pointer outside them.
 */
static __always_inline void walk_frames(struct uscratch *u, __u64 base, __u32 len, __u64 *fp,
					__u64 *h, int *i)
{
	__u64 fr[2];

	for (; *i < OFFCPU_BPF_MAX_STACK; (*i)++) {
		__u64 off = *fp - base;

		if (off > len - FRAME_BYTES)
			break;
		/* frames need not be aligned: neither does the kernel's walk */
		__builtin_memcpy(fr, (__u8 *)u->top + (off & (OFFCPU_BPF_UREGION - 1)), sizeof(fr));
		*h = mix(*h, fr[1]);
		*fp = fr[0];
	}
}

/*
 * The user stack of @t, switching out (the thread of @st): its id in the
 * stacks map, < 0 when none.
 *
 * The kernel's walk (bpf_get_stackid) takes the instruction pointer, then
 * from the frame pointer each saved frame pointer and return address, until
 * a read fails. Nearly every walk so ends in a page fault (a frame pointer of
 * 0, or one that a library built without frame pointers left), and that
 * fault is most of what the walk costs. Here the top of the stack is read
 * (OFFCPU_BPF_UFIRST bytes, then up to OFFCPU_BPF_UREGION when the frames go
 * on past them) and the frames that lie in it followed the same way, up to
 * the first frame pointer outside it; a hash of the instruction pointer,
 * those frames and that last frame pointer names the stack. A stack seen
 * before is taken by its hash; a new one is walked by the kernel and kept
 * under its hash only when the kernel's walk stopped at that same frame
 * pointer, so that its frames are all in the hash. What is taken
 * on trust: that a frame pointer the kernel could not read before is still
 * unreadable (memory mapped there since would let the kernel's walk go on);
 * each stack is walked by the kernel again every OFFCPU_BPF_USTACK_REWALK
 * times it is taken. The thread's last two stacks are checked first, in its
 * own storage: a loop blocks in one place again and again, or in two in turn
 * (a read, then a write). A stack that goes
 * on past the bytes read, or cannot be read, is walked by the kernel, and
 * the thread's next OFFCPU_BPF_USTACK_SKIP directly; a 32-bit thread's
 * always.
 */
static __always_inline __s32 user_stack(void *ctx, struct task_struct *t, struct pt_regs *regs,
					struct offcpu_bpf_start *st)
{
	struct offcpu_bpf_ucache_val *known, nv;
	struct offcpu_bpf_ulast *last = NULL;
	struct mm_struct *mm;
	struct uscratch *u;
	__u64 base, fp, h;
	__u32 zero = 0, len, first;
	long got;
	int i = 1, j;
	__u32 slot = 0;

	if (st->u_skip) {
		st->u_skip--;
		return bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	}
	if (!regs || user_cs(regs) != USER64_CS)
		return bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	u = bpf_map_lookup_elem(&uscratch, &zero);
	if (!u)
		return bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	h = mix(0, regs->ip);
	fp = base = regs->bp;
	/* the main thread's stack ends a little above its first frame: read no further */
	mm = t->mm;
	len = sizeof(u->top);
	if (mm) {
		__u64 end = mm->start_stack;

		if (end > base && end - base < len)
			len = (__u32)(end - base);
	}
	first = len < OFFCPU_BPF_UFIRST ? len : OFFCPU_BPF_UFIRST;
	if (first < FRAME_BYTES)
		goto deep;
	/* unreadable: the walk ends at the first frame pointer, as the kernel's does */
	if (!bpf_probe_read_user(u->top, first, (void *)base)) {
		walk_frames(u, base, first, &fp, &h, &i);
		if (fp - base <= len - FRAME_BYTES && fp - base > first - FRAME_BYTES) {
			/* the frames go on past the first bytes: the rest of them */
			__u32 rest = len - OFFCPU_BPF_UFIRST;

			if (first != OFFCPU_BPF_UFIRST || !rest ||
			    rest > OFFCPU_BPF_UREGION - OFFCPU_BPF_UFIRST)
				goto deep;
			/* the bound again where 6.1's verifier sees it */
			rest &= OFFCPU_BPF_UREGION - 1;
			if (bpf_probe_read_user((__u8 *)u->top + OFFCPU_BPF_UFIRST, rest,
						(void *)(base + OFFCPU_BPF_UFIRST)))
				goto deep;
			walk_frames(u, base, len, &fp, &h, &i);
		}
	}
	h = mix(mix(h, fp), (__u64)i);
	/*
	 * The thread's last stacks again (a loop that blocks in one place, or
	 * two); the entry used, or filled, makes the other one the next to take.
	 */
	for (j = 0; j < OFFCPU_BPF_ULAST; j++) {
		last = &st->u[j];
		if (last->uses && last->hash == h) {
			slot = (__u32)j;
			st->u_next = slot ^ 1;
			if (++last->uses % OFFCPU_BPF_USTACK_REWALK)
				return last->ustack;
			break;
		}
	}
	if (j == OFFCPU_BPF_ULAST) {
		slot = st->u_next & (OFFCPU_BPF_ULAST - 1);
		last = &st->u[slot];
		known = bpf_map_lookup_elem(&ucache, &h);
		if (known && (++known->uses % OFFCPU_BPF_USTACK_REWALK)) {
			st->u_next = slot ^ 1;
			last->hash = h;
			last->ustack = known->ustack;
			last->uses = 1;
			return known->ustack;
		}
	}
	/* the kernel's walk: kept only when it ended where the frames read here end */
	got = bpf_get_stack(ctx, u->walked, sizeof(u->walked), BPF_F_USER_STACK);
	nv.ustack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	nv.uses = 1;
	last->uses = 0;
	if (got != (long)(i * sizeof(__u64))) {
		st->u_skip = OFFCPU_BPF_USTACK_SKIP;
		bpf_map_delete_elem(&ucache, &h);
	} else if (nv.ustack >= 0) {
		bpf_map_update_elem(&ucache, &h, &nv, BPF_ANY);
		st->u_next = slot ^ 1;
		last->hash = h;
		last->ustack = nv.ustack;
		last->uses = 1;
	}
	return nv.ustack;
deep:
	st->u_skip = OFFCPU_BPF_USTACK_SKIP;
	return bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
}

/*
 * Whether the cached kernel stack @c is the one of user stack @ustack in
 * @state, entered by @entry.
 */
static __always_inline bool kc_holds(const struct offcpu_bpf_kcache *c, __s32 ustack, __u32 state,
				     __u32 entry)
{
	return c->uses && c->ustack == ustack && c->state == state && c->entry == entry;
}

/*
 * The kernel stack of the switch-out of the thread of @st from user stack
 * @ustack in @state, having entered the kernel by @entry (the system call's
 * number; -1 from an interrupt, an exception's error code). Walking a kernel
 * stack costs most of what a switch costs to note (about 10,000 instructions
 * of the kernel's unwinder), and a call site that blocks in one system call
 * in one state blocks in the same kernel path nearly always: the thread
 * keeps the last few it walked, by user stack, state and entry, and walks
 * one again every OFFCPU_BPF_KSTACK_REWALK uses.
 */
static __always_inline __s32 kernel_stack(void *ctx, struct offcpu_bpf_start *st, __s32 ustack,
					  __u32 state, __u32 entry)
{
	struct offcpu_bpf_kcache *c;
	__u32 i;

	if (ustack < 0)
		return bpf_get_stackid(ctx, &stacks, OFFCPU_BPF_SKIP);
	c = &st->kc[st->kc_last & (OFFCPU_BPF_KCACHE - 1)];
	if (!kc_holds(c, ustack, state, entry)) {
		c = NULL;
		for (i = 0; i < OFFCPU_BPF_KCACHE; i++) {
			if (kc_holds(&st->kc[i], ustack, state, entry)) {
				c = &st->kc[i];
				st->kc_last = i;
				break;
			}
		}
	}
	if (c && (++c->uses % OFFCPU_BPF_KSTACK_REWALK))
		return c->kstack;
	if (!c) {
		/* a new one takes the places in turn */
		st->kc_last = st->kc_next & (OFFCPU_BPF_KCACHE - 1);
		c = &st->kc[st->kc_last];
		st->kc_next++;
	}
	c->kstack = bpf_get_stackid(ctx, &stacks, OFFCPU_BPF_SKIP);
	c->ustack = ustack;
	c->state = state;
	c->entry = entry;
	c->uses = c->kstack >= 0;
	return c->kstack;
}

/* @count waits of @ns in all under key @k, the latest ended at @last_in, into the offcpu map. */
static __always_inline void add_waits(struct offcpu_bpf_key *k, __u64 ns, __u64 count,
				      __u64 last_in)
{
	struct offcpu_bpf_val *v = bpf_map_lookup_elem(&offcpu, k);

	if (v) {
		__sync_fetch_and_add(&v->total_ns, ns);
		__sync_fetch_and_add(&v->count, count);
		if (v->last_in < last_in)
			v->last_in = last_in;
	} else {
		struct offcpu_bpf_val nv = { .total_ns = ns, .count = count, .last_in = last_in };

		if (bpf_map_update_elem(&offcpu, k, &nv, BPF_NOEXIST))
			__sync_fetch_and_add(&dropped, count);
	}
}

/* @count waits of the thread @tgid/@tid summed in @st, into the offcpu map. */
static __always_inline void add_pending(struct offcpu_bpf_start *st, __u32 tgid, __u32 tid,
					__u64 count)
{
	struct offcpu_bpf_key k = {
		.pid = tgid, .tid = tid, .state = st->p_state, .kstack = st->p_kstack,
		.ustack = st->p_ustack,
	};

	add_waits(&k, st->p_total_ns, count, st->p_last_in);
}

/* Whether CPU entry @c says that thread @tid was switched in there after @ts. */
static __always_inline bool ran_since(const struct offcpu_cpu *c, __u32 tid, __u64 ts)
{
	return c && c->tid == tid && c->in > ts;
}

/*
 * When the wait of thread @tid begun at @ts ended, asked at @now on the
 * thread's own CPU while it runs, it having run for @ran ns since @ts: when
 * that CPU's entry @c says it switched the thread in. Seldom, on a busy
 * machine, a thread runs again with no switch-in that the tracepoint shows:
 * then @now less the time it has run, by the scheduler's count.
 */
static __always_inline __u64 wait_end(const struct offcpu_cpu *c, __u32 tid, __u64 ts, __u64 now,
				      __u64 ran)
{
	if (ran_since(c, tid, ts))
		return c->in;
	return ran < now - ts ? now - ran : ts;
}

/*
 * A wait of the thread of @st, of @ns ended at its switch-in @in, with key
 * @state, @kstack, @ustack: summed in @st while the key stays the key of the
 * waits before it.
 */
static __always_inline void end_wait(struct offcpu_bpf_start *st, __u32 tgid, __u32 tid, __u64 ns,
				     __u64 in, __u32 state, __s32 kstack, __s32 ustack)
{
	if (st->p_count && st->p_state == state && st->p_kstack == kstack &&
	    st->p_ustack == ustack) {
		st->p_total_ns += ns;
		st->p_count++;
		st->p_last_in = in;
		return;
	}
	if (st->p_count)
		add_pending(st, tgid, tid, st->p_count);
	st->p_state = state;
	st->p_kstack = kstack;
	st->p_ustack = ustack;
	st->p_total_ns = ns;
	st->p_last_in = in;
	st->p_count = 1;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 prev_pid = prev->pid, prev_tgid = prev->tgid;
	__u32 next_pid = next->pid;
	__u64 now = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id();
	struct offcpu_cpu *c = bpf_map_lookup_elem(&cpus, &cpu);
	struct offcpu_bpf_start *st;

	st = prev_pid ? bpf_task_storage_get(&starts, prev, 0, 0) : NULL;
	if (!st && followed(prev_pid, prev_tgid))
		st = bpf_task_storage_get(&starts, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (st) {
		struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(prev);
		__u64 ran = prev->se.sum_exec_runtime, ts = st->ts, ran_before = st->ran, in;
		__u32 state = st->state;
		__s32 kstack = st->kstack, ustack = st->ustack;

		st->ran = ran;
		st->state = preempt ? OFFCPU_BPF_STATE_RUNNING : task_state(prev);
		st->ustack = user_stack(ctx, prev, regs, st);
		st->kstack = kernel_stack(ctx, st, st->ustack, st->state,
					  regs ? (__u32)regs->orig_ax : 0);
		st->ts = now;
		/* its last wait, after the stacks: a path here would have the verifier walk them again */
		if (ts) {
			in = wait_end(c, prev_pid, ts, now, ran - ran_before);
			end_wait(st, prev_tgid, prev_pid, in - ts, in, state, kstack, ustack);
		}
	}
	if (c && next_pid) {
		c->in = now;
		c->tid = next_pid;
	}
	return 0;
}

/*
 * @t's pending sum into the offcpu map, and its last wait, begun at @ts, if
 * it has ended (at @in, later than @ts), from its exit or from the flush
 * iterator. The exit runs in the thread, so its switches cannot meanwhile;
 * the iterator runs at the end of the recording, when the switch program is
 * detached, and may meet a thread exiting: the one that takes the wait's
 * start, or the count, adds it.
 */
static __always_inline void flush_task(struct task_struct *t, struct offcpu_bpf_start *st,
				       __u64 ts, __u64 in)
{
	__u32 tgid = BPF_CORE_READ(t, tgid), tid = BPF_CORE_READ(t, pid);
	__u64 count;

	/* ts 0: no wait open, or the other of the exit and the iterator took it */
	if (ts && in > ts && __sync_lock_test_and_set(&st->ts, 0) == ts) {
		struct offcpu_bpf_key k = {
			.pid = tgid, .tid = tid, .state = st->state, .kstack = st->kstack,
			.ustack = st->ustack,
		};

		add_waits(&k, in - ts, 1, in);
	}
	if (!st->p_count)
		return;
	count = __sync_lock_test_and_set(&st->p_count, 0);
	if (count)
		add_pending(st, tgid, tid, count);
}

/* A thread's pending sum before it exits, and its last wait: it runs here, as at a switch-out. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(offcpu_exit, struct task_struct *t)
{
	struct offcpu_bpf_start *st = bpf_task_storage_get(&starts, t, 0, 0);
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 ts;

	if (!st)
		return 0;
	ts = st->ts;
	flush_task(t, st, ts,
		   ts ? wait_end(bpf_map_lookup_elem(&cpus, &cpu), t->pid, ts, bpf_ktime_get_ns(),
				 t->se.sum_exec_runtime - st->ran) : 0);
	return 0;
}

/* The search of find_cpu(): for a thread, its last wait's start. */
struct cpu_search {
	__u32 tid;
	__u64 ts;
	struct offcpu_cpu *found;
};

static long find_cpu(__u32 i, void *arg)
{
	struct cpu_search *q = arg;
	struct offcpu_cpu *c = bpf_map_lookup_elem(&cpus, &i);

	if (!ran_since(c, q->tid, q->ts))
		return 0;
	q->found = c;
	return 1;
}

/*
 * Every thread's pending sum, and the last wait of each that a CPU has
 * switched in since: jrec runs this over all tasks once the switch program
 * is detached, before it reads the offcpu map.
 */
SEC("iter/task")
int offcpu_flush(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct offcpu_bpf_start *st;
	struct cpu_search q = {};

	if (!t)
		return 0;
	st = bpf_task_storage_get(&starts, t, 0, 0);
	if (!st)
		return 0;
	q.tid = t->pid;
	q.ts = st->ts;
	if (q.ts)
		bpf_loop(nr_cpus, find_cpu, &q, 0);
	flush_task(t, st, q.ts, q.found ? q.found->in : 0);
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
