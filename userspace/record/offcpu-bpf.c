// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu-bpf: jrec record --off-cpu aggregated in the kernel. A BPF program
 * on sched_switch (bpf/offcpu.bpf.c) sums, for the followed threads, the
 * time each was away from its CPU by (pid, tid, task state, kernel stack,
 * user stack); at the end of the recording the sums become samples of the
 * event "offcpu-time" (a software event PERF_COUNT_SW_BPF_OUTPUT, period the
 * nanoseconds blocked, with the call chain), the layout perf's own BPF
 * off-cpu writes, so that perf report and jrec report read them. One sample
 * per key, at the time of the latest switch-in that ended one of its waits,
 * so that a user frame in JIT code resolves against the code mapped then
 * (Documentation/jrec-offcpu.rst). Without BPF, or with --call-graph dwarf,
 * the context-switches event samples every switch instead (events.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/offcpu-bpf.h"
#include "offcpu.skel.h"
#include "record.h"

/* The attr of the event the sums are written as. */
#define OFFCPU_SAMPLE_TYPE                                                                        \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

void offcpu_bpf__init_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_BPF_OUTPUT;
	a->sample_period = 1;
	a->sample_type = OFFCPU_SAMPLE_TYPE;
	a->disabled = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

/*
 * Whether the sums can be made in the kernel: into @why, when not, the
 * reason in a few words. The program is loaded and attached here (before
 * the workload runs); nothing is followed until offcpu_bpf__follow().
 */
int offcpu_bpf__start(struct record *r, char *why, size_t len)
{
	struct offcpu_skel *s;
	int err, ncpu;

	if (getenv("JREC_OFFCPU_NO_BPF")) {
		snprintf(why, len, "JREC_OFFCPU_NO_BPF is set");
		return -ENOTSUP;
	}
	if (r->opts.callgraph == CALLGRAPH_DWARF) {
		snprintf(why, len, "--call-graph dwarf (BPF stacks are frame-pointer stacks)");
		return -ENOTSUP;
	}
	if (r->opts.switch_output) {
		snprintf(why, len, "--switch-output (the sums would all go to the last file)");
		return -ENOTSUP;
	}
	if (r->opts.cpus || r->opts.delay_ms) {
		snprintf(why, len, "%s (the sums take every CPU, from the start)",
			 r->opts.cpus ? "-C" : "-D");
		return -ENOTSUP;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -ENOTSUP;
	}
	libbpf_set_print(quiet_print);
	s = offcpu_skel__open();
	if (!s) {
		err = -errno;
		snprintf(why, len, "cannot open the BPF program: %s", strerror(-err));
		return err;
	}
	s->rodata->all_pids = r->opts.system_wide && !r->opts.nr_pids;
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0) {
		err = ncpu ? ncpu : -EINVAL;
		snprintf(why, len, "cannot count the possible CPUs: %s", strerror(-err));
		goto fail;
	}
	s->rodata->nr_cpus = (__u32)ncpu;
	err = bpf_map__set_max_entries(s->maps.cpus, (__u32)ncpu);
	if (err) {
		snprintf(why, len, "cannot size the BPF program's CPU map: %s", strerror(-err));
		goto fail;
	}
	err = offcpu_skel__load(s);
	if (err) {
		snprintf(why, len, "the kernel refuses the BPF program (%s%s)", strerror(-err),
			 err == -EPERM ? ": not root or no CAP_BPF/CAP_PERFMON" : "");
		goto fail;
	}
	err = offcpu_skel__attach(s);
	if (err) {
		snprintf(why, len, "cannot attach to sched_switch: %s", strerror(-err));
		goto fail;
	}
	r->offcpu_bpf = s;
	return 0;
fail:
	offcpu_skel__destroy(s);
	return err;
}

int offcpu_bpf__follow(struct record *r, pid_t pid)
{
	struct offcpu_skel *s = r->offcpu_bpf;
	__u32 tgid = (__u32)pid;
	__u8 one = 1;

	if (!s)
		return 0;
	if (bpf_map__update_elem(s->maps.pids, &tgid, sizeof(tgid), &one, sizeof(one), BPF_ANY))
		return -errno;
	return 0;
}

/* The frames of stack @id (0-terminated) into @ips; how many. */
static size_t stack_frames(struct offcpu_skel *s, __s32 id, __u64 *ips)
{
	size_t n = 0;

	if (id < 0 || bpf_map__lookup_elem(s->maps.stacks, &id, sizeof(id), ips,
					   OFFCPU_BPF_MAX_STACK * sizeof(__u64), 0))
		return 0;
	while (n < OFFCPU_BPF_MAX_STACK && ips[n])
		n++;
	return n;
}

/* One sum as an offcpu-time sample of @ev. */
static int write_sample(struct record *r, size_t ev, uint64_t id, const struct offcpu_bpf_key *k,
			const struct offcpu_bpf_val *v, const __u64 *kips, size_t nk,
			const __u64 *uips, size_t nu)
{
	uint64_t buf[8 + 2 + 2 * OFFCPU_BPF_MAX_STACK + 1], *p = buf + 1;
	struct perf_event_header *h = (struct perf_event_header *)buf;
	uint64_t *nr;
	size_t i;
	int err;

	*p++ = id;
	*p++ = nk ? kips[0] : nu ? uips[0] : 0;
	*p++ = (uint64_t)k->pid | (uint64_t)k->tid << 32;
	*p++ = v->last_in;
	*p++ = v->total_ns;
	nr = p++;
	*nr = 0;
	if (nk) {
		*p++ = PERF_CONTEXT_KERNEL;
		for (i = 0; i < nk; i++)
			*p++ = kips[i];
	}
	if (nu) {
		*p++ = PERF_CONTEXT_USER;
		for (i = 0; i < nu; i++)
			*p++ = uips[i];
	}
	*nr = (uint64_t)(p - nr - 1);
	/* PERF_SAMPLE_RAW: the task state at switch-out (0: preempted, still runnable) */
	*p++ = (uint64_t)sizeof(uint32_t) | (uint64_t)k->state << 32;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = nk ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	h->size = (uint16_t)((uint8_t *)p - (uint8_t *)buf);
	err = ksamples__add(r, h, &r->ev[ev]);
	if (!err)
		err = perfmap_code__sample(r, h, &r->ev[ev]);
	if (!err)
		err = perf_writer__write(r->w, buf, h->size);
	return err;
}

/*
 * Stop the switch and fork programs, then add every thread's pending sum
 * (offcpu.bpf.c) into the map by running the flush iterator over all tasks.
 * The exit program stays until the end: a thread that exits meanwhile adds
 * its own.
 */
static int flush_pending(struct offcpu_skel *s)
{
	struct bpf_link *it = s->links.offcpu_flush;
	char buf[64];
	ssize_t got;
	int fd, err = 0;

	bpf_link__destroy(s->links.offcpu_switch);
	s->links.offcpu_switch = NULL;
	bpf_link__destroy(s->links.offcpu_fork);
	s->links.offcpu_fork = NULL;
	/* a grace period: no switch program is still running on another CPU */
	syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	if (!it)
		it = s->links.offcpu_flush = bpf_program__attach_iter(s->progs.offcpu_flush, NULL);
	if (!it)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(it));
	if (fd < 0)
		return -errno;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		;
	if (got < 0)
		err = -errno;
	close(fd);
	return err;
}

int offcpu_bpf__write(struct record *r)
{
	struct offcpu_skel *s = r->offcpu_bpf;
	struct offcpu_bpf_key key, next, *prev = NULL;
	struct offcpu_bpf_val val;
	__u64 *kips, *uips;
	size_t ev, nk, nu;
	int err = 0;

	if (!s)
		return 0;
	/* the sums stop growing: no switch of a followed thread counts after this */
	err = flush_pending(s);
	offcpu_skel__detach(s);
	if (err)
		return err;
	for (ev = 0; ev < r->nr_ev && !r->ev[ev].is_bpf; ev++)
		;
	if (ev == r->nr_ev)
		return -EINVAL;
	kips = calloc(2 * OFFCPU_BPF_MAX_STACK, sizeof(*kips));
	if (!kips)
		return -ENOMEM;
	uips = kips + OFFCPU_BPF_MAX_STACK;
	while (!err && !bpf_map__get_next_key(s->maps.offcpu, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		if (bpf_map__lookup_elem(s->maps.offcpu, &key, sizeof(key), &val, sizeof(val), 0))
			continue;
		nk = stack_frames(s, key.kstack, kips);
		nu = stack_frames(s, key.ustack, uips);
		err = write_sample(r, ev, r->offcpu_id, &key, &val, kips, nk, uips, nu);
		if (!err) {
			r->nr_switch_samples += val.count;
			r->ev[ev].nr_samples++;
		}
	}
	r->offcpu_dropped = s->bss->dropped;
	free(kips);
	return err;
}

void offcpu_bpf__free(struct record *r)
{
	offcpu_skel__destroy(r->offcpu_bpf);
	r->offcpu_bpf = NULL;
}
