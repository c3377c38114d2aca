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

#include "array.h"
#include "perf-file.h"
#include "record.h"

#define EVENTS_RECORD_MAX 65536

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* Event @ev's type, config, exclusions and precision from -e (event-spec.c), as perf sets them. */
static void set_event(struct perf_event_attr *a, const struct event_spec *ev)
{
	a->type = ev->type;
	a->config = ev->config;
	a->exclude_user = ev->exclude_user;
	a->exclude_kernel = ev->exclude_kernel;
	a->exclude_hv = ev->exclude_hv;
	a->exclude_guest = ev->exclude_guest;
	a->exclude_host = ev->exclude_host;
	a->precise_ip = ev->precise_ip;
}

/*
 * --off-cpu: every switch-out of the target's threads as a sample with the
 * sampling event's call chain mode and sample layout (the same trailer on
 * every record, as perf wants), and PERF_RECORD_SWITCH records for the
 * switch-ins. Mappings, comms and tasks come from the sampling event only.
 * Its samples are taken in the kernel: it never excludes kernel mode.
 */
static void init_cs_attr(const struct perf_event_attr *a, struct perf_event_attr *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->type = PERF_TYPE_SOFTWARE;
	c->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	c->sample_period = 1;
	c->sample_type = a->sample_type;
	c->read_format = a->read_format;
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

/*
 * What perf record asks of event @i: the tracking bits on the first only, a
 * group's members enabled with their leader (only a leader is disabled and
 * waits for the exec), tracepoints with their raw data and CPU at period 1
 * unless -c or -F says otherwise.
 */
static void init_attr(struct record *r, size_t i, const struct event_spec *spec)
{
	struct record_event *e = &r->ev[i];
	struct perf_event_attr *a = &e->attr;
	long page = sysconf(_SC_PAGESIZE);
	int track = i == r->track, leader = spec->leader == i;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	set_event(a, spec);
	snprintf(e->name, sizeof(e->name), "%s", spec->name);
	e->leader = spec->leader;
	e->nr_members = spec->nr_members;
	if (spec->tracepoint && !r->opts.period && !r->opts.freq_given) {
		a->sample_period = 1;
	} else if (r->opts.period) {
		a->sample_period = r->opts.period;
	} else {
		a->freq = 1;
		a->sample_freq = r->opts.freq;
	}
	/* the CPU is worth its 8 bytes a sample only system-wide, or for a tracepoint */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (r->opts.system_wide || spec->tracepoint)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (spec->tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	callgraph__config_attr(r->opts.callgraph, r->opts.dump_size, a);
	a->disabled = leader;
	a->inherit = !r->opts.system_wide && !r->opts.no_inherit;
	/* -p PID -- COMMAND samples PID only, from now; -D enables them after its delay */
	a->enable_on_exec = leader && r->opts.argc > 0 && !r->opts.system_wide &&
			    !r->opts.pid && !r->opts.delay_ms;
	a->mmap = track && !r->mmap2_from_jmmap;
	a->mmap2 = track && !r->mmap2_from_jmmap;
	a->comm = track;
	a->comm_exec = track;
	a->task = track;
	a->build_id = track && !r->mmap2_from_jmmap;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(r->opts.mmap_pages * (unsigned long)page / 4);
}

/*
 * Several events: each sample and record says whose it is, as perf's do:
 * PERF_SAMPLE_ID where their sample layouts agree, else
 * PERF_SAMPLE_IDENTIFIER (first in a sample, last in a trailer); --off-cpu
 * always the latter, where its reader looks. The ids read back with
 * PERF_FORMAT_ID (and LOST), on one event too, as perf 6.1 asks (LOST
 * dropped by open_one() on a kernel without it).
 */
static void set_ids(struct record *r)
{
	uint64_t bit = r->opts.off_cpu ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	size_t i;

	for (i = 0; i < r->nr_ev; i++)
		r->ev[i].attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	if (r->nr_ev < 2)
		return;
	for (i = 1; i < r->nr_ev; i++)
		if (r->ev[i].attr.sample_type != r->ev[0].attr.sample_type)
			bit = PERF_SAMPLE_IDENTIFIER;
	for (i = 0; i < r->nr_ev; i++)
		r->ev[i].attr.sample_type |= bit;
}

/*
 * -D, -C: perf's "dummy:HG", last, tracks: with -D from the exec (or now,
 * without a workload) while the others wait for the delay; with -C on
 * every CPU, so that a process's mappings are known whichever CPU it made
 * them on. Its attr as perf 6.1's.
 */
static void init_dummy(struct record *r, struct record_event *d)
{
	struct perf_event_attr *a = &d->attr;
	long page = sysconf(_SC_PAGESIZE);

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (r->opts.system_wide)
		a->sample_type |= PERF_SAMPLE_CPU;
	a->inherit = !r->opts.system_wide && !r->opts.no_inherit;
	a->enable_on_exec = r->opts.argc > 0 && !r->opts.system_wide && !r->opts.pid;
	a->disabled = a->enable_on_exec;
	a->mmap = a->mmap2 = a->build_id = !r->mmap2_from_jmmap;
	a->comm = a->comm_exec = a->task = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(r->opts.mmap_pages * (unsigned long)page / 4);
	snprintf(d->name, sizeof(d->name), "dummy:HG");
	d->leader = (size_t)(d - r->ev);
	d->nr_members = 1;
	d->all_cpus = 1;
}

static int init_events(struct record *r)
{
	const struct event_list *l = &r->opts.events;
	int dummy = r->opts.delay_ms || r->opts.cpus;
	size_t i;

	r->nr_ev = l->nr + (r->opts.off_cpu ? 1 : 0) + (dummy ? 1 : 0);
	r->track = dummy ? r->nr_ev - 1 : 0;
	r->ev = calloc(r->nr_ev, sizeof(*r->ev));
	if (!r->ev)
		return -ENOMEM;
	for (i = 0; i < l->nr; i++)
		init_attr(r, i, &l->ev[i]);
	if (r->opts.off_cpu) {
		struct record_event *c = &r->ev[l->nr];

		c->leader = l->nr;
		c->nr_members = 1;
		if (r->offcpu_bpf) {
			/* summed in the kernel, written at the end (offcpu-bpf.c) */
			offcpu_bpf__init_attr(&c->attr);
			snprintf(c->name, sizeof(c->name), "offcpu-time");
			c->is_bpf = 1;
		} else {
			init_cs_attr(&r->ev[0].attr, &c->attr);
			snprintf(c->name, sizeof(c->name), "context-switches");
			c->is_cs = 1;
		}
	}
	if (dummy)
		init_dummy(r, &r->ev[r->track]);
	set_ids(r);
	return 0;
}

static int add_pid_threads(pid_t pid, pid_t **t, size_t *n, size_t *cap)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (array_grow(t, cap, *n + 1)) {
			closedir(d);
			return -ENOMEM;
		}
		(*t)[(*n)++] = (pid_t)tid;
	}
	closedir(d);
	return 0;
}

/* The threads to open events for: the -p processes', or just -1/child. */
static int target_tids(struct record *r, pid_t **tids, size_t *nr)
{
	size_t n = 0, cap = 0, i;
	pid_t *t = NULL;
	int err = 0, alive = 0;

	if (array_grow(&t, &cap, 1))
		return -ENOMEM;
	if (r->opts.system_wide) {
		t[n++] = -1;
	} else if (!r->opts.nr_pids) {
		t[n++] = r->child;
	} else if (r->opts.tid) {
		t[n++] = r->opts.tid;
	} else {
		for (i = 0; i < r->opts.nr_pids && err != -ENOMEM; i++) {
			err = add_pid_threads(r->opts.pids[i], &t, &n, &cap);
			alive += !err;
		}
		/* a process of several that exited since is left out; all gone, none */
		err = err == -ENOMEM ? err : alive ? 0 : -ESRCH;
	}
	if (err) {
		free(t);
		return err;
	}
	*tids = t;
	*nr = n;
	return 0;
}

static int open_one(struct record *r, size_t ev, pid_t tid, int cpu, int group_fd)
{
	struct perf_event_attr *a = &r->ev[ev].attr;
	int fd;

	for (;;) {
		fd = sys_perf_event_open(a, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (r->ev[ev].is_cs)
			return -errno; /* no fallbacks: its samples are the kernel's */
		if ((errno == EINVAL || errno == E2BIG) && (a->read_format & PERF_FORMAT_LOST)) {
			/* kernel before 6.0 */
			for (size_t i = 0; i < r->nr_ev; i++)
				r->ev[i].attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
			continue;
		}
		if ((errno == EINVAL || errno == E2BIG) && a->build_id) {
			/* kernel before 5.12: MMAP2 without build-ids */
			a->build_id = 0;
			continue;
		}
		if ((errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV) &&
		    a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES &&
		    !r->opts.event_given) {
			struct event_spec clock;

			if (!r->opts.quiet)
				fprintf(stderr, "jrec record: cycles not supported (no hardware "
						"counters), falling back to cpu-clock\n");
			event_spec__parse("cpu-clock", &clock, NULL, 0);
			set_event(a, &clock);
			snprintf(r->ev[ev].name, sizeof(r->ev[ev].name), "%s", clock.name);
			continue;
		}
		if ((errno == EACCES || errno == EPERM) && !a->exclude_kernel) {
			a->exclude_kernel = 1;
			a->exclude_hv = 1;
			if (r->opts.verbose)
				fprintf(stderr, "jrec record: kernel samples not permitted, "
						"recording user space only\n");
			continue;
		}
		return -errno;
	}
}

/* One more fd of event @ev, its id asked for; @out the ring it writes into, or -1. */
static int add_fd(struct record *r, int fd, int out, size_t ev)
{
	if (ioctl(fd, PERF_EVENT_IOC_ID, &r->ids[r->nr_fds])) {
		int err = -errno;

		close(fd);
		return err;
	}
	r->out_fds[r->nr_fds] = out;
	r->fd_ev[r->nr_fds] = ev;
	r->fds[r->nr_fds++] = fd;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct record_id *)a)->id, y = ((const struct record_id *)b)->id;

	return x < y ? -1 : x > y;
}

/* Every fd's id and its event, sorted: whose is a sample. */
static int sort_ids(struct record *r)
{
	size_t i;

	r->by_id = calloc(r->nr_fds + 1, sizeof(*r->by_id));
	if (!r->by_id)
		return -ENOMEM;
	for (i = 0; i < r->nr_fds; i++)
		r->by_id[i] = (struct record_id){ r->ids[i], r->fd_ev[i] };
	r->nr_by_id = r->nr_fds;
	qsort(r->by_id, r->nr_by_id, sizeof(*r->by_id), cmp_id);
	return 0;
}

const struct record_event *events__of_sample(const struct record *r,
					     const struct perf_event_header *h)
{
	uint64_t st = r->ev[0].attr.sample_type, id;
	const struct record_id *hit;
	size_t off;

	if (r->nr_ev < 2)
		return &r->ev[0];
	if ((st | r->ev[r->track].attr.sample_type) & PERF_SAMPLE_IDENTIFIER) {
		off = 0;
	} else {
		/* PERF_SAMPLE_ID: the layouts agree; it follows IP, TID, TIME and ADDR */
		off = 8 * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			   !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR));
	}
	if (h->size < sizeof(*h) + off + sizeof(id))
		return &r->ev[0];
	memcpy(&id, (const uint8_t *)(h + 1) + off, sizeof(id));
	hit = bsearch(&(struct record_id){ id, 0 }, r->by_id, r->nr_by_id, sizeof(*hit), cmp_id);
	return hit ? &r->ev[hit->ev] : &r->ev[0];
}

/* Whether event @k is opened on @cpu: -C's CPUs, all for the tracking dummy. */
static bool on_cpu(const struct record *r, size_t k, int cpu)
{
	size_t i;

	if (!r->opts.cpus || r->ev[k].all_cpus)
		return true;
	for (i = 0; i < r->opts.nr_cpus; i++)
		if (r->opts.cpus[i] == cpu)
			return true;
	return false;
}

/*
 * Every event for every thread on every CPU, a group's members with their
 * leader's fd of the same thread and CPU; the first fd of a CPU owns its
 * ring, the others write into it.
 */
int events__open(struct record *r)
{
	size_t nr_cpus = (size_t)sysconf(_SC_NPROCESSORS_CONF);
	pid_t *tids = NULL;
	int *group_fd = NULL;
	size_t nr_tids = 0, nr, i, k, c;
	int err;

	r->open_failed_ev = -1;
	err = init_events(r);
	if (!err)
		err = target_tids(r, &tids, &nr_tids);
	if (err)
		goto out;
	nr = nr_cpus * nr_tids * r->nr_ev;
	r->fds = calloc(nr, sizeof(*r->fds));
	r->ids = calloc(nr, sizeof(*r->ids));
	r->out_fds = calloc(nr, sizeof(*r->out_fds));
	r->fd_ev = calloc(nr, sizeof(*r->fd_ev));
	r->rings = calloc(nr_cpus, sizeof(*r->rings));
	group_fd = calloc(r->nr_ev, sizeof(*group_fd));
	if (!r->fds || !r->ids || !r->out_fds || !r->fd_ev || !r->rings || !group_fd) {
		err = -ENOMEM;
		goto out;
	}
	for (c = 0; c < nr_cpus; c++) {
		int first = -1, cpu = (int)c, offline = 0;

		for (i = 0; i < nr_tids && !offline; i++) {
			for (k = 0; k < r->nr_ev; k++) {
				size_t lead = r->ev[k].leader;
				int fd;

				if (!on_cpu(r, k, cpu) || r->ev[k].is_bpf)
					continue;
				fd = open_one(r, k, tids[i], cpu, lead == k ? -1 : group_fd[lead]);
				if (fd == -ENODEV || (fd == -EINVAL && first < 0 && c > 0)) {
					/* an offline CPU; one -C names must work */
					offline = !r->opts.cpus || (r->ev[k].all_cpus && first < 0);
					if (offline)
						break;
				}
				if (fd == -ESRCH && r->opts.nr_pids && lead == k)
					break; /* a thread that just exited */
				if (fd < 0) {
					err = fd;
					r->cs_failed = r->ev[k].is_cs;
					r->open_failed_ev = (int)k;
					goto out;
				}
				group_fd[k] = fd;
				/* redirected into first once it is mapped */
				err = add_fd(r, fd, first, k);
				if (err)
					goto out;
				if (first < 0) {
					first = fd;
					r->rings[r->nr_rings].fd = fd;
					r->rings[r->nr_rings].cpu = cpu;
					r->nr_rings++;
				}
			}
		}
	}
	err = r->nr_rings ? 0 : -ENODEV;
	for (i = 0; i < r->nr_fds && !err; i++) {
		if (r->fd_ev[i] == r->track) {
			r->track_id = r->ids[i];
			break;
		}
	}
	if (!err)
		err = sort_ids(r);
	/* offcpu-time has no fd: an id none has, after theirs */
	if (!err && r->nr_by_id)
		r->offcpu_id = r->by_id[r->nr_by_id - 1].id + 1;
out:
	free(group_fd);
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

int events__enable_tracking(struct record *r)
{
	size_t i;

	for (i = 0; i < r->nr_fds; i++)
		if (r->fd_ev[i] == r->track && ioctl(r->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	return 0;
}

int events__disable(struct record *r)
{
	return ioctl_all(r, PERF_EVENT_IOC_DISABLE);
}

static int handle(struct record *r, const struct perf_event_header *h)
{
	int err;

	if (h->type != PERF_RECORD_SAMPLE)
		r->map_events++; /* perf's maps may change (synth.c, anon_again()) */
	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		struct record_event *e = (struct record_event *)events__of_sample(r, h);

		e->nr_samples++;
		if (e->is_cs)
			r->nr_switch_samples++;
		else
			r->nr_samples++;
		err = ksamples__add(r, h, e);
		if (!err)
			err = perfmap_code__sample(r, h, e);
		if (err)
			return err;
		break;
	}
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16) {
			uint64_t lost;

			memcpy(&lost, (const uint8_t *)h + sizeof(*h) + 8, sizeof(lost));
			r->nr_lost += lost;
		}
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
	free(r->fd_ev);
	free(r->by_id);
	free(r->ev);
	r->ev = NULL;
	r->nr_ev = 0;
	r->out_fds = NULL;
	r->fd_ev = NULL;
	r->by_id = NULL;
	r->nr_by_id = 0;
	r->rings = NULL;
	r->fds = NULL;
	r->ids = NULL;
	r->nr_rings = r->nr_fds = 0;
}
