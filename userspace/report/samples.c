// SPDX-License-Identifier: GPL-2.0
/*
 * The pass over the samples (samples.h): each sample's call chain as the
 * views see it, the one the kernel recorded or the recorded kernel part and
 * the user stack copy unwound (unwind.c), each of its addresses resolved
 * (resolve.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "byteorder.h"
#include "elf-image.h"
#include "samples.h"
#include "session.h"
#include "unwind.h"

/* perf's default kernel.perf_event_max_stack is 127 */
#define MAX_USER_FRAMES 256

int samples__init(struct samples *it, struct session *s)
{
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->inlines = true;
	it->nr_events = perf_reader__nr_attrs(s->r);
	it->attr0 = perf_reader__attr(s->r, 0);
	return 0;
}

/*
 * The context-switches event whose samples become offcpu-time, once the
 * session is loaded: switch-outs become time only where switch records
 * end them.
 */
static size_t cs_event(const struct samples *it)
{
	size_t i;

	for (i = 0; i < it->nr_events; i++)
		if (offcpu__is_summed_event(perf_reader__attr(it->s->r, i)))
			return i;
	if (!ctx_switches__any(&it->s->switches))
		return SIZE_MAX;
	for (i = 0; i < it->nr_events; i++)
		if (offcpu__is_switch_event(perf_reader__attr(it->s->r, i)))
			return i;
	return SIZE_MAX;
}

bool samples__have_offcpu(const struct samples *it)
{
	return cs_event(it) != SIZE_MAX;
}

int samples__set_wall(struct samples *it)
{
	size_t i;

	it->cs_event = cs_event(it);
	if (it->cs_event == SIZE_MAX)
		return -ENOENT;
	it->wall = true;
	it->wall_event = SIZE_MAX;
	for (i = 0; i < it->nr_events && it->wall_event == SIZE_MAX; i++)
		if (i != it->cs_event)
			it->wall_event = i;
	return 0;
}

const char *samples__event_name(const struct samples *it, size_t i)
{
	if (i == cs_event(it))
		return OFFCPU_EVENT_NAME;
	return i < it->nr_events ? perf_reader__attr(it->s->r, i)->name : "?";
}

bool samples__event_ns(const struct samples *it, size_t i)
{
	return i == cs_event(it) || (i < it->nr_events && offcpu__period_is_ns(samples__event(it, i)));
}

const char *samples__state(struct samples *it)
{
	const struct sample_frames *fr;

	if (!it->cur.offcpu)
		return OFFCPU_STATE_RUNNING;
	if (samples__frames(it, &fr))
		return OFFCPU_STATE_UNKNOWN;
	return offcpu__state(fr, it->cur.preempted);
}

void samples__release(struct samples *it)
{
	if (!it)
		return;
	unwinder__delete(it->unwinder);
	wall_clock__release(&it->wall_clock);
	free(it->chain);
	free(it->read_last);
	free(it->res);
	free(it->ips);
	memset(it, 0, sizeof(*it));
}

size_t samples__nr_events(const struct samples *it)
{
	return it->nr_events;
}

const struct pr_attr *samples__event(const struct samples *it, size_t i)
{
	return i < it->nr_events ? perf_reader__attr(it->s->r, i) : NULL;
}

bool samples__have_chains(const struct samples *it)
{
	size_t i;

	for (i = 0; i < it->nr_events; i++)
		if (perf_reader__attr(it->s->r, i)->sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

double samples__progress(const struct samples *it)
{
	uint64_t size = perf_reader__data_size(it->s->r);

	return it->cur.ev && size ? (double)it->cur.ev->offset / (double)size : 0.0;
}

const char *samples__comm(struct samples *it)
{
	if (!it->have_comm) {
		it->comm = session__comm(it->s, it->cur.tid, it->cur.pid, it->cur.time);
		it->have_comm = true;
	}
	return it->comm;
}

const char *samples__comm_seen(struct samples *it)
{
	return session__comm_seen(it->s, it->cur.tid, it->cur.time);
}

const struct resolved *samples__self(struct samples *it)
{
	if (!it->have_self) {
		session__resolve_regs(it->s, it->cur.pid, it->cur.ev->sample.ip, it->cur.time,
				      it->cur.ev->misc, &it->self);
		it->have_self = true;
	}
	return &it->self;
}

const char *samples__srcline(struct samples *it, const struct resolved *res)
{
	return session__srcline(it->s, it->cur.pid, res);
}

const char *samples__srcline_found(struct samples *it, const struct resolved *res)
{
	return session__srcline_found(it->s, res);
}

/*
 * The chain of the current sample in host byte order, context markers
 * (PERF_CONTEXT_KERNEL, PERF_CONTEXT_USER) included, innermost first.
 */
static int raw_chain(struct samples *it, const uint64_t **ips, uint64_t *nr)
{
	const struct pr_event *ev = it->cur.ev;
	const struct pr_sample *smp = &ev->sample;
	bool dwarf = smp->regs_abi && smp->stack_size;
	uint64_t i, n = 0, need = smp->nr_callchain + (dwarf ? 1 + MAX_USER_FRAMES : 0);
	int err;

	*ips = NULL;
	*nr = 0;
	if (!need)
		return 0;
	if (array_grow(&it->chain, &it->chain_cap, need))
		return -ENOMEM;
	for (i = 0; i < smp->nr_callchain; i++) {
		uint64_t ip = pr_callchain_at(it->s->r, smp, i);

		/* unwound user frames replace whatever user part was recorded */
		if (dwarf && ip == PERF_CONTEXT_USER)
			break;
		it->chain[n++] = ip;
	}
	if (dwarf) {
		if (!it->unwinder) {
			err = unwinder__new(it->s, &it->unwinder);
			if (err)
				return err;
		}
		it->chain[n] = PERF_CONTEXT_USER;
		i = unwinder__frames(it->unwinder, ev, it->cur.time, it->chain + n + 1,
				     MAX_USER_FRAMES);
		if (i)
			n += 1 + i;
	}
	*ips = it->chain;
	*nr = n;
	return 0;
}

static int push(struct samples *it, uint64_t ip, const struct resolved *res)
{
	if (array_grow(&it->res, &it->cap_res, it->frames.nr + 1) ||
	    array_grow(&it->ips, &it->cap_ips, it->frames.nr + 1))
		return -ENOMEM;
	it->ips[it->frames.nr] = ip;
	it->res[it->frames.nr++] = *res;
	return 0;
}

/*
 * The functions inlined at frame @res, innermost first, each a frame of its
 * own at the same address (as perf shows them); @ret: a return address.
 */
static int push_inlined(struct samples *it, uint64_t ip, const struct resolved *res, bool ret)
{
	const char *names[ELF_INLINE_MAX];
	size_t i, n = session__inlines(it->s, res, ret, names, ELF_INLINE_MAX);
	struct resolved in = *res;
	int err = 0;

	in.inlined = true;
	for (i = 0; i < n && !err; i++) {
		in.sym = names[i];
		err = push(it, ip, &in);
		it->frames.nr_chain++;
	}
	return err;
}

int samples__frames(struct samples *it, const struct sample_frames **out)
{
	const struct pr_event *ev = it->cur.ev;
	uint16_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct sample_frames *f = &it->frames;
	const struct resolved *self = samples__self(it);
	struct resolved res;
	const uint64_t *ips;
	uint64_t i, nr = 0;
	bool first = true, context_first = true;
	int err;

	*out = f;
	if (it->have_frames)
		return 0;
	memset(f, 0, sizeof(*f));
	err = raw_chain(it, &ips, &nr);
	for (i = 0; i < nr && !err; i++) {
		uint64_t ip = ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			context_first = true;
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL
			       : ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
							 : 0; /* hypervisor, guest: not ours */
			continue;
		}
		if (first && mode && ip == ev->sample.ip)
			f->first_is_ip = true;
		first = false;
		if (!mode)
			continue;
		if (context_first)
			session__resolve_regs(it->s, it->cur.pid, ip, it->cur.time, mode, &res);
		else
			session__resolve(it->s, it->cur.pid, ip, it->cur.time, mode, &res);
		if (it->inlines && mode == PERF_RECORD_MISC_USER)
			err = push_inlined(it, ip, &res, !context_first);
		context_first = false;
		if (!err)
			err = push(it, ip, &res);
		f->nr_chain++;
	}
	if (err)
		return err;
	f->res = it->res;
	f->ips = it->ips;
	if (!f->nr_chain) {
		f->res = self;
		f->ips = &ev->sample.ip;
		f->nr = 1;
	}
	it->have_frames = true;
	return 0;
}

static void sample_set(struct samples *it, const struct pr_event *ev)
{
	struct sample *smp = &it->cur;
	size_t ai = ev->attr && it->attr0 ? (size_t)(ev->attr - it->attr0) : 0;

	smp->ev = ev;
	smp->pid = ev->id.pid;
	smp->tid = ev->id.tid;
	smp->cpu = ev->id.cpu;
	smp->time = session__time(ev);
	smp->period = ev->sample.period;
	smp->event = ai;
	smp->event_name = ev->attr ? ev->attr->name : "?";
	smp->offcpu = smp->preempted = false;
	it->have_comm = it->have_self = it->have_frames = false;
	it->frames.nr = 0;
}

struct pass {
	struct samples *it;
	sample_fn on_sample;
	record_fn on_record;
	void *ctx;
};

/*
 * A switch-out (the context-switches event) as an offcpu-time sample: its
 * period the nanoseconds until the thread came back. 1 when the thread never
 * did within the recording, and for the idle task (pid 0, with -a), which
 * leaves a CPU whenever work comes and waits for nothing: no sample.
 */
static int offcpu_sample(struct samples *it, struct sample *smp)
{
	uint64_t in;

	if (!smp->tid)
		return 1;
	if (offcpu__is_summed_event(smp->ev->attr)) {
		smp->offcpu = true;
		smp->preempted = offcpu__summed_preempted(&smp->ev->sample);
		smp->event_name = OFFCPU_EVENT_NAME;
		return 0;
	}
	if (ctx_switches__interval(&it->s->switches, smp->tid, smp->time, &in, &smp->preempted))
		return 1;
	smp->offcpu = true;
	smp->period = in - smp->time;
	smp->event_name = OFFCPU_EVENT_NAME;
	return 0;
}

/* --wall: an on-CPU sample's period as time. 1 for samples of the events left out. */
static int wall_sample(struct samples *it, struct sample *smp)
{
	uint64_t in = 0;

	if (smp->event != it->wall_event)
		return 1;
	if (samples__event_ns(it, smp->event))
		return 0;
	ctx_switches__last_in(&it->s->switches, smp->tid, smp->time, &in);
	return wall_clock__period(&it->wall_clock, smp->tid, smp->time, in, &smp->period);
}

/* The current sample to the pass, as an offcpu-time or --wall one where it is. */
static int deliver(struct pass *p)
{
	struct samples *it = p->it;
	int skip = 0;

	if (it->cur.event == it->cs_event)
		skip = offcpu_sample(it, &it->cur);
	else if (it->wall)
		skip = wall_sample(it, &it->cur);
	if (skip)
		return skip < 0 ? skip : 0;
	return p->on_sample(it, &it->cur, p->ctx);
}

struct read_last {
	uint64_t id, value;
	bool used;
};

/* The slot of counter @id's last value in it->read_last, made when new; NULL: no memory. */
static struct read_last *read_slot(struct samples *it, uint64_t id)
{
	size_t i, mask;

	if (2 * (it->read_nr + 1) > it->read_cap) {
		size_t cap = it->read_cap ? 2 * it->read_cap : 64, j;
		struct read_last *t = calloc(cap, sizeof(*t)), *old = it->read_last;

		if (!t)
			return NULL;
		for (j = 0; j < it->read_cap; j++) {
			if (!old[j].used)
				continue;
			for (i = old[j].id * 0x9e3779b97f4a7c15ULL >> 7 & (cap - 1); t[i].used;
			     i = (i + 1) & (cap - 1))
				;
			t[i] = old[j];
		}
		free(old);
		it->read_last = t;
		it->read_cap = cap;
	}
	mask = it->read_cap - 1;
	for (i = id * 0x9e3779b97f4a7c15ULL >> 7 & mask; it->read_last[i].used; i = (i + 1) & mask)
		if (it->read_last[i].id == id)
			return &it->read_last[i];
	it->read_last[i].used = true;
	it->read_last[i].id = id;
	it->read_nr++;
	return &it->read_last[i];
}

/*
 * A sample that read its counters (PERF_SAMPLE_READ, perf record -e
 * '{a,b}:S'), as perf delivers it: a sample of each counter's event, its
 * period what the counter counted since its last read; none for a counter
 * that did not move, or whose id the recording does not know (a read
 * without ids).
 */
static int deliver_read(struct pass *p, const struct pr_event *ev)
{
	struct samples *it = p->it;
	const struct pr_sample *ps = &ev->sample;
	const uint8_t *v = ps->read;
	uint64_t i;
	int err = 0;

	for (i = 0; i < ps->read_nr && !err; i++, v += 8 * ps->read_stride) {
		uint64_t value = bo_u64(v, ps->swapped), id;
		const struct pr_attr *a;
		struct read_last *last;

		if (!ps->read_id_at)
			break;
		id = bo_u64(v + 8 * ps->read_id_at, ps->swapped);
		a = perf_reader__attr_by_id(it->s->r, id);
		if (!a)
			continue;
		last = read_slot(it, id);
		if (!last)
			return -ENOMEM;
		if (value == last->value)
			continue;
		sample_set(it, ev);
		it->cur.period = value - last->value;
		last->value = value;
		it->cur.event = (size_t)(a - it->attr0);
		it->cur.event_name = a->name;
		err = deliver(p);
	}
	return err;
}

static int on_event(const struct pr_event *ev, void *arg)
{
	struct pass *p = arg;
	struct samples *it = p->it;

	if (ev->type != PERF_RECORD_SAMPLE)
		return p->on_record ? p->on_record(ev, p->ctx) : 0;
	if (ev->sample.read)
		return deliver_read(p, ev);
	sample_set(it, ev);
	return deliver(p);
}

int samples__feed(struct samples *it, const struct pr_event *ev, sample_fn on_sample, void *ctx)
{
	sample_set(it, ev);
	return on_sample(it, &it->cur, ctx);
}

int samples__for_each(struct samples *it, sample_fn on_sample, record_fn on_record, void *ctx)
{
	struct pass p = { it, on_sample, on_record, ctx };

	it->cs_event = cs_event(it);
	it->read_nr = 0; /* each pass counts from the start */
	if (it->read_last)
		memset(it->read_last, 0, it->read_cap * sizeof(*it->read_last));
	return perf_reader__for_each_event(it->s->r, on_event, &p);
}

/* A record of the ordered pass: its copy at buf + pos. */
struct ordered_rec {
	uint64_t time, file_off;
	size_t pos, seq;
};

struct ordered {
	const struct perf_reader *r;
	uint8_t *buf;
	size_t len, cap;
	struct ordered_rec *recs;
	size_t nr, cap_recs;
	uint64_t last_time;
};

static int collect(const struct pr_event *ev, void *arg)
{
	struct ordered *o = arg;
	struct ordered_rec *rec;

	if (array_grow(&o->buf, &o->cap, o->len + ev->size) ||
	    array_grow(&o->recs, &o->cap_recs, o->nr + 1))
		return -ENOMEM;
	memcpy(o->buf + o->len, ev->raw, ev->size);
	if (ev->id.has_time)
		o->last_time = ev->id.time;
	rec = &o->recs[o->nr];
	rec->time = o->last_time;
	rec->file_off = ev->offset;
	rec->pos = o->len;
	rec->seq = o->nr++;
	o->len += ev->size;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct ordered_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int samples__for_each_ordered(struct samples *it, sample_fn on_sample, record_fn on_record,
			      void *ctx)
{
	struct pass p = { it, on_sample, on_record, ctx };
	struct ordered o = { .r = it->s->r };
	struct pr_event ev;
	size_t i;
	int err;

	it->cs_event = cs_event(it);
	it->read_nr = 0;
	if (it->read_last)
		memset(it->read_last, 0, it->read_cap * sizeof(*it->read_last));
	err = perf_reader__for_each_event(it->s->r, collect, &o);
	if (!err)
		qsort(o.recs, o.nr, sizeof(*o.recs), by_time);
	for (i = 0; i < o.nr && !err; i++) {
		if (perf_reader__decode(o.r, o.buf + o.recs[i].pos, o.recs[i].file_off, &ev))
			continue; /* counted as bad by the walk that copied it */
		err = on_event(&ev, &p);
	}
	free(o.buf);
	free(o.recs);
	return err;
}
