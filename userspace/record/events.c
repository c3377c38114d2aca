// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the perf events. One event per CPU (per thread and CPU with
 * -p), inheriting into children, CLOCK_MONOTONIC timestamps, sample ids on
 * every record, MMAP2 (with build-ids when the kernel has attr.build_id),
 * COMM, FORK/EXIT. One ring buffer per CPU; other events on that CPU write
 * into it through PERF_EVENT_IOC_SET_OUTPUT. With jmmap, perf's MMAP and
 * MMAP2 records are off: the module reports every mapping, and the
 * recorder writes the MMAP2 records from its MMAP3s (synth__mmap3()).
 * --off-cpu opens a second event beside each one: context-switches at
 * period 1 with the same call chains, and PERF_RECORD_SWITCH records, so
 * that each switch-out carries the stack the thread blocked in and its next
 * switch-in the time it resumed (Documentation/jrec-offcpu.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perf-file.h"
#include "record.h"

#define EVENTS_RECORD_MAX 65536

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* The sampled event of -e (event-spec.c), its exclusions and precision as perf sets them. */
static void set_event(struct record *r, const struct event_spec *ev)
{
	struct perf_event_attr *a = &r->attr;

	a->type = ev->type;
	a->config = ev->config;
	a->exclude_user = ev->exclude_user;
	a->exclude_kernel = ev->exclude_kernel;
	a->exclude_hv = ev->exclude_hv;
	a->exclude_guest = ev->exclude_guest;
	a->exclude_host = ev->exclude_host;
	a->precise_ip = ev->precise_ip;
	r->event_name = ev->name;
}

/*
 * --off-cpu: every switch-out of the target's threads as a sample with the
 * sampling event's call chain mode and sample layout (the same trailer on
 * every record, as perf wants), and PERF_RECORD_SWITCH records for the
 * switch-ins. Mappings, comms and tasks come from the sampling event only.
 * Its samples are taken in the kernel: it never excludes kernel mode.
 */
static void init_cs_attr(struct record *r)
{
	const struct perf_event_attr *a = &r->attr;
	struct perf_event_attr *c = &r->cs_attr;

	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->type = PERF_TYPE_SOFTWARE;
	c->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	c->sample_period = 1;
	c->sample_type = a->sample_type;
	c->sample_regs_user = a->sample_regs_user;
	c->sample_stack_user = a->sample_stack_user;
	c->exclude_callchain_user = a->exclude_callchain_user;
	c->disabled = a->disabled;
	c->inherit = a->inherit;
	c->enable_on_exec = a->enable_on_exec;
	c->context_switch = 1;
	c->sample_id_all = 1;
	c->use_clockid = 1;
	c->clockid = CLOCK_MONOTONIC;
}

static void init_attr(struct record *r)
{
	struct perf_event_attr *a = &r->attr;
	long page = sysconf(_SC_PAGESIZE);

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	set_event(r, &r->opts.event);
	if (r->opts.period) {
		a->sample_period = r->opts.period;
	} else {
		a->freq = 1;
		a->sample_freq = r->opts.freq;
	}
	/*
	 * What perf record asks for: one event needs no IDENTIFIER, and the CPU
	 * is worth its 8 bytes a sample only system-wide.
	 */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (r->opts.system_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	callgraph__config_attr(r->opts.callgraph, r->opts.dump_size, a);
	a->disabled = 1;
	a->inherit = !r->opts.system_wide && !r->opts.no_inherit;
	/* -p PID -- COMMAND samples PID only, from now */
	a->enable_on_exec = r->opts.argc > 0 && !r->opts.system_wide && !r->opts.pid;
	a->mmap = !r->mmap2_from_jmmap;
	a->mmap2 = !r->mmap2_from_jmmap;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->build_id = !r->mmap2_from_jmmap;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(r->opts.mmap_pages * (unsigned long)page / 4);
	if (r->opts.off_cpu) {
		/* two events: each sample and record says whose it is, where perf looks first */
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		init_cs_attr(r);
	}
}

/* The threads to open events for: the -p process's, or just -1/child. */
static int target_tids(struct record *r, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *de;
	size_t n = 0, cap = 16;
	pid_t *t;
	DIR *d;

	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	if (r->opts.system_wide) {
		t[n++] = -1;
		goto out;
	}
	if (!r->opts.pid) {
		t[n++] = r->child;
		goto out;
	}
	if (r->opts.tid) {
		t[n++] = r->opts.tid;
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)r->opts.pid);
	d = opendir(path);
	if (!d) {
		free(t);
		return -ESRCH;
	}
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (n == cap) {
			pid_t *nt = realloc(t, 2 * cap * sizeof(*t));

			if (!nt) {
				closedir(d);
				free(t);
				return -ENOMEM;
			}
			t = nt;
			cap *= 2;
		}
		t[n++] = (pid_t)tid;
	}
	closedir(d);
out:
	*tids = t;
	*nr = n;
	return 0;
}

static int open_one(struct record *r, pid_t tid, int cpu)
{
	int fd;

	for (;;) {
		fd = sys_perf_event_open(&r->attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return fd;
		if ((errno == EINVAL || errno == E2BIG) && r->attr.build_id) {
			/* kernel before 5.12: MMAP2 without build-ids */
			r->attr.build_id = 0;
			continue;
		}
		if ((errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV) &&
		    r->attr.type == PERF_TYPE_HARDWARE &&
		    r->attr.config == PERF_COUNT_HW_CPU_CYCLES && !r->opts.event_given) {
			if (!r->opts.quiet)
				fprintf(stderr, "jrec record: cycles not supported (no hardware "
						"counters), falling back to cpu-clock\n");
			event_spec__parse("cpu-clock", &r->opts.event, NULL, 0);
			set_event(r, &r->opts.event);
			continue;
		}
		if ((errno == EACCES || errno == EPERM) && !r->attr.exclude_kernel) {
			r->attr.exclude_kernel = 1;
			r->attr.exclude_hv = 1;
			if (r->opts.verbose)
				fprintf(stderr, "jrec record: kernel samples not permitted, "
						"recording user space only\n");
			continue;
		}
		return -errno;
	}
}

/* The context-switch event of --off-cpu: no fallbacks, its samples are the kernel's. */
static int open_cs(struct record *r, pid_t tid, int cpu)
{
	int fd = sys_perf_event_open(&r->cs_attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd >= 0 ? fd : -errno;
}

/* One more fd of the events, its id asked for; @out the ring it writes into, or -1. */
static int add_fd(struct record *r, int fd, int out, bool cs)
{
	if (ioctl(fd, PERF_EVENT_IOC_ID, &r->ids[r->nr_fds])) {
		int err = -errno;

		close(fd);
		return err;
	}
	r->out_fds[r->nr_fds] = out;
	r->is_cs[r->nr_fds] = cs;
	r->fds[r->nr_fds++] = fd;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The context-switch event's ids, sorted, to tell its samples from the sampling event's. */
static int sort_cs_ids(struct record *r)
{
	size_t i;

	if (!r->opts.off_cpu)
		return 0;
	r->cs_ids = calloc(r->nr_fds + 1, sizeof(*r->cs_ids));
	if (!r->cs_ids)
		return -ENOMEM;
	for (i = 0; i < r->nr_fds; i++)
		if (r->is_cs[i])
			r->cs_ids[r->nr_cs_ids++] = r->ids[i];
	qsort(r->cs_ids, r->nr_cs_ids, sizeof(*r->cs_ids), cmp_u64);
	return 0;
}

/* Whether sample @h is a switch-out: its IDENTIFIER, first, is the context-switch event's. */
static bool is_switch_sample(const struct record *r, const struct perf_event_header *h)
{
	uint64_t id;

	if (!r->nr_cs_ids || h->size < sizeof(*h) + sizeof(id))
		return false;
	memcpy(&id, h + 1, sizeof(id));
	return bsearch(&id, r->cs_ids, r->nr_cs_ids, sizeof(id), cmp_u64) != NULL;
}

int events__open(struct record *r)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	pid_t *tids = NULL;
	size_t nr_tids = 0, nr, i;
	int cpu, err;

	init_attr(r);
	err = target_tids(r, &tids, &nr_tids);
	if (err)
		return err;
	nr = (size_t)nr_cpus * nr_tids * (r->opts.off_cpu ? 2 : 1);
	r->fds = calloc(nr, sizeof(*r->fds));
	r->ids = calloc(nr, sizeof(*r->ids));
	r->out_fds = calloc(nr, sizeof(*r->out_fds));
	r->is_cs = calloc(nr, sizeof(*r->is_cs));
	r->rings = calloc((size_t)nr_cpus, sizeof(*r->rings));
	if (!r->fds || !r->ids || !r->out_fds || !r->is_cs || !r->rings) {
		err = -ENOMEM;
		goto out;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		int first = -1;

		for (i = 0; i < nr_tids; i++) {
			int fd = open_one(r, tids[i], cpu);

			if (fd == -ENODEV || (fd == -EINVAL && first < 0 && cpu > 0))
				break; /* offline CPU */
			if (fd == -ESRCH && r->opts.pid)
				continue; /* a thread that just exited */
			if (fd < 0) {
				err = fd;
				goto out;
			}
			/* redirected into first once it is mapped */
			err = add_fd(r, fd, first, false);
			if (err)
				goto out;
			if (first < 0) {
				first = fd;
				r->rings[r->nr_rings].fd = fd;
				r->rings[r->nr_rings].cpu = cpu;
				r->nr_rings++;
			}
			if (!r->opts.off_cpu)
				continue;
			fd = open_cs(r, tids[i], cpu);
			if (fd == -ESRCH && r->opts.pid)
				continue;
			if (fd < 0) {
				err = fd;
				r->cs_failed = 1;
				goto out;
			}
			err = add_fd(r, fd, first, true);
			if (err)
				goto out;
		}
	}
	err = r->nr_rings ? 0 : -ENODEV;
	if (!err)
		err = sort_cs_ids(r);
out:
	free(tids);
	return err;
}

int events__mmap(struct record *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t i;

again:
	for (i = 0; i < r->nr_rings; i++) {
		struct events_ring *rg = &r->rings[i];
		size_t len = ((size_t)r->opts.mmap_pages + 1) * (size_t)page;

		rg->base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, rg->fd, 0);
		if (rg->base == MAP_FAILED) {
			int err = -errno;

			rg->base = NULL;
			/*
			 * Over perf_event_mlock_kb without CAP_PERFMON: a
			 * default ring that was made bigger (--call-graph dwarf)
			 * shrinks to what the limit allows.
			 */
			if (err != -EPERM || r->opts.mmap_pages_given || r->opts.mmap_pages <= 128)
				return err;
			while (i-- > 0) {
				munmap(r->rings[i].base, len);
				r->rings[i].base = NULL;
			}
			r->opts.mmap_pages /= 2;
			goto again;
		}
		rg->data_size = (size_t)r->opts.mmap_pages * (size_t)page;
	}
	/* the other events of each CPU write into that CPU's (now mapped) ring */
	for (i = 0; i < r->nr_fds; i++)
		if (r->out_fds[i] >= 0 &&
		    ioctl(r->fds[i], PERF_EVENT_IOC_SET_OUTPUT, r->out_fds[i]))
			return -errno;
	return 0;
}

static int ioctl_all(struct record *r, unsigned long req)
{
	size_t i;

	for (i = 0; i < r->nr_fds; i++)
		if (ioctl(r->fds[i], req, 0))
			return -errno;
	return 0;
}

int events__enable(struct record *r)
{
	return ioctl_all(r, PERF_EVENT_IOC_ENABLE);
}

int events__disable(struct record *r)
{
	return ioctl_all(r, PERF_EVENT_IOC_DISABLE);
}

static int handle(struct record *r, const struct perf_event_header *h)
{
	int err;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (is_switch_sample(r, h))
			r->nr_switch_samples++;
		else
			r->nr_samples++;
		err = ksamples__add(r, h);
		if (!err)
			err = perfmap_code__sample(r, h);
		if (err)
			return err;
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16) {
			uint64_t lost;

			memcpy(&lost, (const uint8_t *)h + sizeof(*h) + 8, sizeof(lost));
			r->nr_lost += lost;
		}
		break;
	default:
		break;
	}
	err = perf_writer__write(r->w, h, h->size);
	if (err)
		return err;
	return watch__record(r, h);
}

static int drain_ring(struct record *r, struct events_ring *rg, int *wrote)
{
	struct perf_event_mmap_page *pg = rg->base;
	const uint8_t *data = (const uint8_t *)rg->base + pg->data_offset;
	uint64_t head, tail, mask = rg->data_size - 1;
	union {
		struct perf_event_header h;
		uint8_t b[EVENTS_RECORD_MAX];
	} tmp;
	int err = 0;

	if (!pg->data_offset)
		data = (const uint8_t *)rg->base + sysconf(_SC_PAGESIZE);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		const struct perf_event_header *h = (const void *)(data + (tail & mask));
		size_t off = tail & mask, size;
		struct perf_event_header hh;

		if (off + sizeof(hh) <= rg->data_size) {
			memcpy(&hh, h, sizeof(hh));
		} else {
			size_t first = rg->data_size - off;

			memcpy(&hh, h, first);
			memcpy((uint8_t *)&hh + first, data, sizeof(hh) - first);
		}
		size = hh.size;
		if (size < sizeof(hh) || size > head - tail) {
			err = -EIO; /* a torn ring: should not happen */
			break;
		}
		if (off + size > rg->data_size) {
			size_t first = rg->data_size - off;

			memcpy(tmp.b, data + off, first);
			memcpy(tmp.b + first, data, size - first);
			h = &tmp.h;
		}
		err = handle(r, h);
		if (err)
			break;
		*wrote = 1;
		tail += size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

int events__drain(struct record *r)
{
	size_t i;
	int err;

	for (i = 0; i < r->nr_rings; i++) {
		err = drain_ring(r, &r->rings[i], &r->round_written);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A round ends every ROUND_NS, not with every pass: readers only need flush
 * points often enough to bound what they hold for sorting, and each costs 8
 * bytes. The header's data size follows every pass. What a pass wrote (the
 * samples drained, the MMAP2s written from the module's records) is in the
 * round that ends next.
 */
int events__end_round(struct record *r)
{
	struct perf_event_header fr = {PERF_RECORD_FINISHED_ROUND, 0, sizeof(fr)};
	int err;

	if (!r->round_written)
		return 0;
	if (recorder__now() - r->last_round < ROUND_NS)
		return perf_writer__flush(r->w);
	r->round_written = 0;
	err = perf_writer__write(r->w, &fr, sizeof(fr));
	if (!err)
		err = perf_writer__flush(r->w);
	r->last_round = recorder__now();
	r->nr_rounds++;
	return err;
}

void events__close(struct record *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t i;

	for (i = 0; i < r->nr_rings; i++)
		if (r->rings[i].base)
			munmap(r->rings[i].base, ((size_t)r->opts.mmap_pages + 1) * (size_t)page);
	for (i = 0; i < r->nr_fds; i++)
		close(r->fds[i]);
	free(r->rings);
	free(r->fds);
	free(r->ids);
	free(r->out_fds);
	free(r->is_cs);
	free(r->cs_ids);
	r->out_fds = NULL;
	r->is_cs = NULL;
	r->cs_ids = NULL;
	r->nr_cs_ids = 0;
	r->rings = NULL;
	r->fds = NULL;
	r->ids = NULL;
	r->nr_rings = r->nr_fds = 0;
}
