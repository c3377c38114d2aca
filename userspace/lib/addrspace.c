// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "array.h"


static struct as_proc *get_proc(struct addrspace *as, uint32_t pid)
{
	bool added;
	struct as_proc *p = pidmap__get_or_add(&as->procs, pid, sizeof(*p), &added);

	if (p && added)
		p->pid = pid;
	return p;
}

struct as_proc *addrspace__proc(const struct addrspace *as, uint32_t pid)
{
	return pidmap__get(&as->procs, pid);
}

static struct as_event *push_ev(struct addrspace *as, uint32_t pid, uint64_t time, uint8_t kind)
{
	struct as_proc *p = get_proc(as, pid);
	struct as_event *e;

	if (!p)
		return NULL;
	if (array_grow(&p->ev, &p->cap_ev, p->nr_ev + 1))
		return NULL;
	e = &p->ev[p->nr_ev++];
	memset(e, 0, sizeof(*e));
	e->time = time;
	e->seq = as->seq++;
	e->kind = kind;
	return e;
}

int addrspace__add_map(struct addrspace *as, uint32_t pid, uint64_t time, const struct as_map *m,
		       bool from_jmmap, bool exec_cause)
{
	struct as_event *e = push_ev(as, pid, time, AS_EV_MAP);

	if (!e)
		return -ENOMEM;
	e->map = *m;
	e->from_jmmap = from_jmmap;
	e->exec_cause = exec_cause;
	if (from_jmmap)
		return addrspace__set_jmmap(as, pid);
	return 0;
}

int addrspace__add_unmap(struct addrspace *as, uint32_t pid, uint64_t time, uint64_t start,
			 uint64_t len)
{
	struct as_event *e = push_ev(as, pid, time, AS_EV_UNMAP);

	if (!e)
		return -ENOMEM;
	e->map.start = start;
	e->map.end = start + len < start ? UINT64_MAX : start + len;
	e->from_jmmap = true;
	return 0;
}

int addrspace__add_exec(struct addrspace *as, uint32_t pid, uint64_t time, bool from_jmmap)
{
	struct as_event *e = push_ev(as, pid, time, AS_EV_EXEC);

	if (!e)
		return -ENOMEM;
	e->from_jmmap = from_jmmap;
	return 0;
}

int addrspace__add_fork(struct addrspace *as, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct as_proc *p;
	size_t i;

	if (pid == ppid)
		return 0;
	p = get_proc(as, pid);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < p->nr_forks; i++) {
		struct as_fork *f = &p->forks[i];

		if (f->ppid == ppid && proc_history__same_fork(f->time, time)) {
			if (time < f->time)
				f->time = time;
			return 0;
		}
	}
	if (array_grow(&p->forks, &p->cap_forks, p->nr_forks + 1))
		return -ENOMEM;
	p->forks[p->nr_forks].time = time;
	p->forks[p->nr_forks].ppid = ppid;
	p->nr_forks++;
	/* a new process: whatever an older one under this pid had mapped is gone */
	return push_ev(as, pid, time, AS_EV_FORK) ? 0 : -ENOMEM;
}

int addrspace__set_jmmap(struct addrspace *as, uint32_t pid)
{
	struct as_proc *p = get_proc(as, pid);

	if (!p)
		return -ENOMEM;
	p->jmmap_traced = true;
	return 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct as_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int map_cmp(const void *a, const void *b)
{
	const struct as_map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->t_start != y->t_start)
		return x->t_start < y->t_start ? -1 : 1;
	/* begun at once: one of them ended at once; the one that lasts goes last, where lookups look */
	return x->t_end < y->t_end ? -1 : x->t_end > y->t_end;
}

/*
 * While the events are replayed, the indices of the mappings still open
 * (t_end == UINT64_MAX): what a new mapping, an unmap or an exec can end.
 * Open mappings never overlap, so sorted by start their ends rise too, and
 * the ones a range overlaps are found by one binary search and a short walk
 * back. idx[0, nsorted) is sorted by start; the newest are appended
 * unsorted after it and merged in batches. A mapping that closes stays
 * where it is until the next merge drops it; lookups skip it.
 */
struct open_set {
	size_t *idx;
	size_t nr, nsorted, cap;
	size_t *tmp; /* merge space */
	size_t cap_tmp;
	size_t *hits; /* what one unmap overlaps */
	size_t cap_hits;
};

#define OPEN_UNSORTED_MAX 256

static bool is_open(const struct as_proc *p, size_t i)
{
	return p->maps[i].t_end == UINT64_MAX;
}

static int by_start(const void *a, const void *b, void *ctx)
{
	const struct as_map *maps = ctx;
	const struct as_map *x = &maps[*(const size_t *)a], *y = &maps[*(const size_t *)b];

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort the unsorted tail into the sorted part, dropping closed mappings. */
static int merge_open(struct as_proc *p, struct open_set *o)
{
	size_t i = 0, n = 0, *a = o->idx, *b;

	if (!o->nr)
		return 0;
	qsort_r(o->idx + o->nsorted, o->nr - o->nsorted, sizeof(*o->idx), by_start, p->maps);
	if (array_grow(&o->tmp, &o->cap_tmp, o->nr))
		return -ENOMEM;
	b = o->idx + o->nsorted;
	while (i < o->nsorted || b < o->idx + o->nr) {
		size_t x;

		if (b == o->idx + o->nr ||
		    (i < o->nsorted && p->maps[a[i]].start <= p->maps[*b].start))
			x = a[i++];
		else
			x = *b++;
		if (is_open(p, x))
			o->tmp[n++] = x;
	}
	if (n)
		memcpy(o->idx, o->tmp, n * sizeof(*o->idx));
	o->nr = o->nsorted = n;
	return 0;
}

static struct as_map *push_map(struct as_proc *p, struct open_set *o, const struct as_map *m)
{
	if (array_grow(&p->maps, &p->cap_maps, p->nr_maps + 1) ||
	    array_grow(&o->idx, &o->cap, o->nr + 1))
		return NULL;
	p->maps[p->nr_maps] = *m;
	o->idx[o->nr++] = p->nr_maps;
	if (o->nr - o->nsorted > OPEN_UNSORTED_MAX && merge_open(p, o))
		return NULL;
	return &p->maps[p->nr_maps++];
}

/* The open mappings overlapping [start, end) into o->hits, *nr_hits of them. */
static int overlapping(const struct as_proc *p, struct open_set *o, uint64_t start,
		       uint64_t end, size_t *nr_hits)
{
	size_t i, lo = 0, hi = o->nsorted;

	*nr_hits = 0;
	for (i = o->nsorted; i < o->nr; i++) {
		const struct as_map *m = &p->maps[o->idx[i]];

		if (is_open(p, o->idx[i]) && m->start < end && m->end > start) {
			if (array_grow(&o->hits, &o->cap_hits, *nr_hits + 1))
				return -ENOMEM;
			o->hits[(*nr_hits)++] = o->idx[i];
		}
	}
	/* the last sorted entry starting before end, then back while they reach start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[o->idx[mid]].start < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct as_map *m = &p->maps[o->idx[lo]];

		if (!is_open(p, o->idx[lo]))
			continue;
		if (m->end <= start)
			break;
		if (array_grow(&o->hits, &o->cap_hits, *nr_hits + 1))
			return -ENOMEM;
		o->hits[(*nr_hits)++] = o->idx[lo];
	}
	return 0;
}

/* End every open mapping that overlaps [start, end) at @t, keeping the parts outside. */
static int unmap_range(struct as_proc *p, struct open_set *o, uint64_t start, uint64_t end,
		       uint64_t t)
{
	size_t i, nr_hits;
	int err = overlapping(p, o, start, end, &nr_hits);

	for (i = 0; i < nr_hits && !err; i++) {
		struct as_map old = p->maps[o->hits[i]];

		p->maps[o->hits[i]].t_end = t;
		if (old.start < start) {
			struct as_map left = old;

			left.end = start;
			left.t_start = t;
			left.rest = true;
			if (!push_map(p, o, &left))
				err = -ENOMEM;
		}
		if (!err && old.end > end) {
			struct as_map right = old;

			right.pgoff += end - old.start;
			right.start = end;
			right.t_start = t;
			right.rest = true;
			if (!push_map(p, o, &right))
				err = -ENOMEM;
		}
	}
	return err;
}

static int note_exec(struct as_proc *p, uint64_t t)
{
	if (array_grow(&p->execs, &p->cap_execs, p->nr_execs + 1))
		return -ENOMEM;
	p->execs[p->nr_execs++] = t;
	return 0;
}

/* End every open mapping made before @t: an exec, or a new process under this pid. */
static int end_all(struct as_proc *p, struct open_set *o, uint64_t t)
{
	size_t i;

	/* a mapping made at the exec's own time stays: it is the new image's */
	for (i = 0; i < o->nr; i++)
		if (is_open(p, o->idx[i]) && p->maps[o->idx[i]].t_start < t)
			p->maps[o->idx[i]].t_end = t;
	return merge_open(p, o);
}

static int exec_at(struct as_proc *p, struct open_set *o, uint64_t t)
{
	int err = end_all(p, o, t);

	return err ? err : note_exec(p, t);
}

static int u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int fork_cmp(const void *a, const void *b)
{
	const struct as_fork *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

static int finish_proc(struct as_proc *p)
{
	struct open_set o = { 0 };
	bool in_exec_run = false;
	size_t i;
	int err = 0;

	if (p->nr_ev)
		qsort(p->ev, p->nr_ev, sizeof(*p->ev), ev_cmp);
	for (i = 0; i < p->nr_ev && !err; i++) {
		const struct as_event *e = &p->ev[i];
		struct as_map m;

		if (p->jmmap_traced && !e->from_jmmap && e->kind != AS_EV_EXEC &&
		    e->kind != AS_EV_FORK)
			continue;
		switch (e->kind) {
		case AS_EV_MAP:
			/* jmmap: the loader's mappings of a new image come before its EXEC */
			if (e->exec_cause && !in_exec_run)
				err = exec_at(p, &o, e->time);
			in_exec_run = e->exec_cause;
			/* a new mapping replaces whatever was mapped there */
			if (!err)
				err = unmap_range(p, &o, e->map.start, e->map.end, e->time);
			m = e->map;
			m.t_start = e->time;
			m.t_end = UINT64_MAX;
			m.from_jmmap = e->from_jmmap;
			m.rest = false;
			if (!err && !push_map(p, &o, &m))
				err = -ENOMEM;
			break;
		case AS_EV_UNMAP:
			in_exec_run = false;
			err = unmap_range(p, &o, e->map.start, e->map.end, e->time);
			break;
		case AS_EV_EXEC:
			/* with jmmap the image was already switched at its first EXEC mapping */
			if (!(p->jmmap_traced && e->from_jmmap))
				err = exec_at(p, &o, e->time);
			else
				err = note_exec(p, e->time);
			in_exec_run = false;
			break;
		case AS_EV_FORK:
			err = end_all(p, &o, e->time);
			in_exec_run = false;
			break;
		}
	}
	free(o.idx);
	free(o.tmp);
	free(o.hits);
	free(p->ev);
	p->ev = NULL;
	p->nr_ev = p->cap_ev = 0;
	if (err)
		return err;
	if (p->nr_execs)
		qsort(p->execs, p->nr_execs, sizeof(*p->execs), u64_cmp);
	if (p->nr_forks)
		qsort(p->forks, p->nr_forks, sizeof(*p->forks), fork_cmp);
	if (p->nr_maps)
		qsort(p->maps, p->nr_maps, sizeof(*p->maps), map_cmp);
	p->max_end = malloc((p->nr_maps ? p->nr_maps : 1) * sizeof(*p->max_end));
	if (!p->max_end)
		return -ENOMEM;
	for (i = 0; i < p->nr_maps; i++)
		p->max_end[i] = i && p->max_end[i - 1] > p->maps[i].end ? p->max_end[i - 1]
									 : p->maps[i].end;
	return 0;
}

static int on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint64_t time)
{
	return addrspace__add_fork(ctx, pid, ppid, time);
}

static int on_exec(void *ctx, uint32_t pid, uint64_t time, bool exact)
{
	return addrspace__add_exec(ctx, pid, time, exact);
}

int addrspace__subscribe(struct addrspace *as, struct proc_history *ph)
{
	static const struct proc_history_ops ops = {on_fork, on_exec};

	return proc_history__subscribe(ph, &ops, as);
}

int addrspace__finish(struct addrspace *as)
{
	struct as_proc *p;
	size_t it = 0;
	int err;

	while ((p = pidmap__next(&as->procs, &it))) {
		err = finish_proc(p);
		if (err)
			return err;
	}
	return 0;
}

/* The first index in [0, hi) whose mapping starts at @start or later. */
static size_t first_at(const struct as_proc *p, size_t hi, uint64_t start)
{
	size_t lo = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The mapping of @p covering @addr at @t. Mappings valid at the same time
 * never overlap (a new one ends what it covers), so among those starting at
 * the same address only the last one begun by @t can be it: one binary
 * search per distinct start below @addr, not a scan of every mapping a JIT's
 * W^X flips left there.
 */
static const struct as_map *find_own(const struct as_proc *p, uint64_t addr, uint64_t t)
{
	size_t lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* maps[0..lo) start at or below addr; walk them back one start at a time */
	while (lo > 0 && p->max_end[lo - 1] > addr) {
		size_t g = first_at(p, lo, p->maps[lo - 1].start), a = g, b = lo;
		const struct as_map *m;

		/* the last of maps[g..lo) with t_start <= t (sorted by t_start) */
		while (a < b) {
			size_t mid = a + (b - a) / 2;

			if (p->maps[mid].t_start <= t)
				a = mid + 1;
			else
				b = mid;
		}
		if (a > g) {
			m = &p->maps[a - 1];
			if (addr < m->end && t < m->t_end)
				return m;
		}
		lo = g;
	}
	return NULL;
}

bool addrspace__parent_at(const struct as_proc *p, uint64_t t, uint32_t *ppid,
			  uint64_t *fork_time, uint64_t *until)
{
	const struct as_fork *f = NULL;
	uint64_t end = UINT64_MAX;
	size_t i;

	/* the fork that made the process running under this pid at @t */
	for (i = 0; i < p->nr_forks && p->forks[i].time <= t; i++)
		f = &p->forks[i];
	if (!f)
		return false;
	if (i < p->nr_forks)
		end = p->forks[i].time;
	/* the first exec after it */
	for (i = 0; i < p->nr_execs; i++) {
		if (p->execs[i] >= f->time) {
			if (p->execs[i] < end)
				end = p->execs[i];
			break;
		}
	}
	if (end <= t)
		return false;
	*ppid = f->ppid;
	*fork_time = f->time;
	if (until)
		*until = end;
	return true;
}

const struct as_map *addrspace__find(const struct addrspace *as, uint32_t pid, uint64_t addr,
				     uint64_t time)
{
	const struct as_proc *p = pidmap__get(&as->procs, pid);
	int depth;

	for (depth = 0; p && depth < AS_MAX_PARENT_DEPTH; depth++) {
		const struct as_map *m = find_own(p, addr, time);

		uint32_t ppid;
		uint64_t fork_time;

		if (m)
			return m;
		if (!addrspace__parent_at(p, time, &ppid, &fork_time, NULL))
			return NULL;
		if (fork_time < time)
			time = fork_time;
		p = pidmap__get(&as->procs, ppid);
	}
	return NULL;
}

const struct as_map *addrspace__find_replaced(const struct addrspace *as, uint32_t pid,
					      uint64_t addr, uint64_t time)
{
	const struct as_proc *p = pidmap__get(&as->procs, pid);
	uint64_t exec = 0;
	size_t i;

	if (!p || addrspace__find(as, pid, addr, time))
		return NULL;
	for (i = 0; i < p->nr_execs && p->execs[i] <= time; i++)
		exec = p->execs[i];
	if (!exec)
		return NULL;
	/* a process forked under this pid after that exec is another one */
	for (i = 0; i < p->nr_forks && p->forks[i].time <= time; i++)
		if (p->forks[i].time >= exec)
			return NULL;
	return addrspace__find(as, pid, addr, exec - 1);
}

/* @m carries on what @prev held there: same file and rights, and @m a part of it or its growth. */
static bool continues(const struct as_map *prev, const struct as_map *m)
{
	if (prev->t_end != m->t_start || prev->dso != m->dso || prev->prot != m->prot)
		return false;
	if (m->rest)
		return m->start >= prev->start && m->end <= prev->end;
	/* the kernel reports an anonymous vma's growth as a mapping of the whole */
	return !m->dso && !m->from_jmmap && m->start <= prev->start && m->end >= prev->end &&
	       m->end - m->start > prev->end - prev->start;
}

#define AS_SINCE_MAX_STEPS 4096

int addrspace__since(const struct addrspace *as, uint32_t pid, uint64_t addr, uint64_t time,
		     uint64_t *since)
{
	const struct as_map *m = addrspace__find(as, pid, addr, time), *prev;
	int steps;

	if (!m)
		return -ENOENT;
	for (steps = 0; steps < AS_SINCE_MAX_STEPS && m->t_start; steps++) {
		prev = addrspace__find(as, pid, addr, m->t_start - 1);
		if (!prev || !continues(prev, m))
			break;
		m = prev;
	}
	*since = m->t_start;
	return 0;
}

void addrspace__release(struct addrspace *as)
{
	struct as_proc *p;
	size_t it = 0;

	if (!as)
		return;
	while ((p = pidmap__next(&as->procs, &it))) {
		free(p->ev);
		free(p->maps);
		free(p->max_end);
		free(p->forks);
		free(p->execs);
		free(p);
	}
	pidmap__release(&as->procs);
}
