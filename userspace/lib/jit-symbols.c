// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "array.h"
#include "jit-symbols.h"
#include "jitdump.h"
#include "perfmap.h"

struct jit_pending {
	uint64_t code_addr;
	struct jit_line *lines;
	size_t nr_lines;
};

static struct jit_proc *get_proc(struct jit_symbols *js, uint32_t pid)
{
	bool added;
	struct jit_proc *p = pidmap__get_or_add(&js->procs, pid, sizeof(*p), &added);

	if (p && added)
		p->pid = pid;
	return p;
}

struct jit_proc *jit_symbols__proc(const struct jit_symbols *js, uint32_t pid)
{
	return pidmap__get(&js->procs, pid);
}

static struct jit_sym *push(struct jit_symbols *js, struct jit_proc *p)
{
	struct jit_sym *s;

	if (array_grow(&p->syms, &p->cap, p->nr + 1))
		return NULL;
	s = &p->syms[p->nr++];
	memset(s, 0, sizeof(*s));
	s->seq = js->seq++;
	s->t_end = UINT64_MAX;
	return s;
}

int jit_symbols__add(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t start,
		     uint64_t size, const char *name, size_t name_len, enum jit_source src)
{
	struct jit_proc *p = get_proc(js, pid);
	struct jit_sym *s;

	if (!p)
		return -ENOMEM;
	if (!size || start + size < start)
		return -EINVAL;
	s = push(js, p);
	if (!s)
		return -ENOMEM;
	s->name = strndup(name, name_len);
	if (!s->name) {
		p->nr--;
		return -ENOMEM;
	}
	s->start = start;
	s->end = start + size;
	s->t_start = time;
	s->t_named = time;
	s->source = (uint8_t)src;
	s->owner = pid;
	if (src == JIT_SRC_JITDUMP)
		p->has_jitdump = true;
	else if (time)
		p->has_timed_perfmap = true;
	return 0;
}

int jit_symbols__move(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t old_addr,
		      uint64_t new_addr, uint64_t size)
{
	struct jit_proc *p = get_proc(js, pid);
	struct jit_sym *best = NULL, *s;
	size_t i;
	char *name;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < p->nr; i++) {
		s = &p->syms[i];
		if (s->start == old_addr && s->t_start <= time && s->t_end > time &&
		    (!best || s->seq > best->seq))
			best = s;
	}
	if (!best)
		return -ENOENT;
	best->t_end = time;
	name = best->name;
	return jit_symbols__add(js, pid, time, new_addr, size ? size : best->end - best->start,
				name, strlen(name), JIT_SRC_JITDUMP);
}

int jit_symbols__unmap(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t start,
		       uint64_t len)
{
	struct jit_proc *p = get_proc(js, pid);

	if (!p || array_grow(&p->unmaps, &p->cap_unmaps, p->nr_unmaps + 1))
		return -ENOMEM;
	p->unmaps[p->nr_unmaps].time = time;
	p->unmaps[p->nr_unmaps].start = start;
	p->unmaps[p->nr_unmaps].end = start + len;
	p->nr_unmaps++;
	return 0;
}

int jit_symbols__exec(struct jit_symbols *js, uint32_t pid, uint64_t time)
{
	struct jit_proc *p = get_proc(js, pid);

	if (!p || array_grow(&p->execs, &p->cap_execs, p->nr_execs + 1))
		return -ENOMEM;
	p->execs[p->nr_execs++] = time;
	return 0;
}

static int on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint64_t time)
{
	return jit_symbols__exec(ctx, pid, time);
}

static int on_exec(void *ctx, uint32_t pid, uint64_t time, bool exact)
{
	return jit_symbols__exec(ctx, pid, time);
}

int jit_symbols__subscribe(struct jit_symbols *js, struct proc_history *ph)
{
	static const struct proc_history_ops ops = {on_fork, on_exec};

	return proc_history__subscribe(ph, &ops, js);
}

uint64_t jit_symbols__replaced(const struct jit_symbols *js, const struct jit_sym *s)
{
	const struct jit_proc *p = pidmap__get(&js->procs, s->owner);
	uint64_t t = s->t_end;
	size_t i;

	if (!p || js->ignore_time)
		return t;
	for (i = 0; i < p->nr; i++) {
		const struct jit_sym *o = &p->syms[i];

		if (o->seq > s->seq && o->t_start && o->t_start >= s->t_start && o->t_start < t &&
		    o->start < s->end && o->end > s->start)
			t = o->t_start;
	}
	return t;
}

bool jit_symbols__unmapped(const struct jit_symbols *js, uint32_t pid, uint64_t addr,
			   uint64_t from, uint64_t to)
{
	const struct jit_proc *p = pidmap__get(&js->procs, pid);
	size_t i;

	if (!p || js->ignore_time)
		return false;
	for (i = 0; i < p->nr_unmaps; i++)
		if (p->unmaps[i].start <= addr && addr < p->unmaps[i].end &&
		    p->unmaps[i].time >= from && p->unmaps[i].time <= to)
			return true;
	return false;
}

static int pool_add(struct jit_proc *p, const char *s, uint32_t *off)
{
	size_t n = strlen(s) + 1;

	if (array_grow(&p->files, &p->files_cap, p->files_len + n))
		return -ENOMEM;
	if (p->files_len > UINT32_MAX)
		return -E2BIG;
	memcpy(p->files + p->files_len, s, n);
	*off = (uint32_t)p->files_len;
	p->files_len += n;
	return 0;
}

struct jd_ctx {
	struct jit_symbols *js;
	uint32_t pid;
	struct jit_proc *p;
	bool untimed; /* the dump's times are the CPU's counter, not the samples' clock */
	uint16_t machine; /* the dump header's EM_* */
};

/*
 * JITDUMP_FLAGS_ARCH_TIMESTAMP: the writer stamped its records with the CPU's
 * timestamp counter. Without the recording's conversion to its clock, the
 * dump's loads are taken as valid from the start (a reused address then
 * keeps its newest name).
 */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP 1ULL

static int on_debug(struct jd_ctx *c, const struct jitdump_event *ev)
{
	struct jit_pending *n;
	struct jit_line *lines;
	size_t i;
	int err;

	lines = calloc(ev->nr_lines ? ev->nr_lines : 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (i = 0; i < ev->nr_lines; i++) {
		lines[i].addr = ev->lines[i].addr;
		lines[i].lineno = ev->lines[i].lineno;
		err = pool_add(c->p, ev->lines[i].file, &lines[i].file);
		if (err) {
			free(lines);
			return err;
		}
	}
	if (array_grow(&c->p->pending, &c->p->cap_pending, c->p->nr_pending + 1)) {
		free(lines);
		return -ENOMEM;
	}
	n = c->p->pending;
	n[c->p->nr_pending].code_addr = ev->code_addr;
	n[c->p->nr_pending].lines = lines;
	n[c->p->nr_pending].nr_lines = ev->nr_lines;
	c->p->nr_pending++;
	return 0;
}

static void attach_pending(struct jit_proc *p, struct jit_sym *s)
{
	size_t i;

	/* DEBUG_INFO comes before its LOAD: take the newest one for this address */
	for (i = p->nr_pending; i-- > 0;) {
		if (p->pending[i].code_addr != s->start || !p->pending[i].lines)
			continue;
		s->lines = p->pending[i].lines;
		s->nr_lines = p->pending[i].nr_lines;
		p->pending[i].lines = NULL;
		return;
	}
}

/* UNWINDING_INFO describes the code of the LOAD that follows it. */
static int on_unwind(struct jd_ctx *c, const struct jitdump_event *ev)
{
	uint8_t *eh;

	if (ev->unwind_size > JITDUMP_UNWIND_MAX || !ev->unwind_size)
		return 0;
	eh = malloc(ev->unwind_size);
	if (!eh)
		return -ENOMEM;
	memcpy(eh, ev->unwind, ev->unwind_size);
	free(c->p->pending_eh);
	c->p->pending_eh = eh;
	c->p->pending_eh_len = (uint32_t)ev->unwind_size;
	c->p->pending_eh_hdr_len = (uint32_t)ev->unwind_hdr_size;
	return 0;
}

static void attach_unwind(struct jit_proc *p, struct jit_sym *s)
{
	s->eh = p->pending_eh;
	s->eh_len = p->pending_eh_len;
	s->eh_hdr_len = p->pending_eh_hdr_len;
	p->pending_eh = NULL;
}

static int keep_code(const struct jd_ctx *c, struct jit_sym *s, const struct jitdump_event *ev)
{
	const struct jit_symbols *js = c->js;

	s->machine = c->machine;
	if (!js->keep_code || !ev->code || !ev->code_size)
		return 0;
	s->code = malloc(ev->code_size);
	if (!s->code)
		return -ENOMEM;
	memcpy(s->code, ev->code, ev->code_size);
	s->code_len = ev->code_size;
	return 0;
}

static int on_jitdump(const struct jitdump_event *ev, void *ctx)
{
	struct jd_ctx *c = ctx;
	int err;

	switch (ev->type) {
	case JITDUMP_LOAD:
		err = jit_symbols__add(c->js, c->pid, c->untimed ? 0 : ev->time, ev->code_addr,
				       ev->code_size, ev->name, strlen(ev->name), JIT_SRC_JITDUMP);
		if (err == -EINVAL)
			return 0; /* a zero-sized load names nothing */
		if (!err) {
			attach_pending(c->p, &c->p->syms[c->p->nr - 1]);
			attach_unwind(c->p, &c->p->syms[c->p->nr - 1]);
			err = keep_code(c, &c->p->syms[c->p->nr - 1], ev);
		}
		return err;
	case JITDUMP_MOVE:
		err = jit_symbols__move(c->js, c->pid, c->untimed ? 0 : ev->time, ev->old_addr,
					ev->new_addr, ev->code_size);
		return err == -ENOENT ? 0 : err;
	case JITDUMP_DEBUG_INFO:
		return on_debug(c, ev);
	case JITDUMP_UNWINDING_INFO:
		return on_unwind(c, ev);
	default:
		return 0;
	}
}

int jit_symbols__add_jitdump(struct jit_symbols *js, uint32_t pid, const void *buf, size_t len,
			     bool *truncated)
{
	struct jitdump_info info;
	struct jd_ctx c = { js, pid, NULL, false, 0 };
	int err;

	*truncated = false;
	/* peek at the header for the pid before creating anything */
	err = jitdump__parse(buf, len, NULL, NULL, &info);
	if (err)
		return err;
	if (!c.pid)
		c.pid = info.pid;
	c.untimed = info.flags & JITDUMP_FLAGS_ARCH_TIMESTAMP;
	c.machine = (uint16_t)info.elf_mach;
	c.p = get_proc(js, c.pid);
	if (!c.p)
		return -ENOMEM;
	err = jitdump__parse(buf, len, on_jitdump, &c, &info);
	*truncated = info.truncated;
	return err;
}

struct pm_ctx {
	struct jit_symbols *js;
	uint32_t pid;
	uint64_t time;
};

static int on_perfmap(uint64_t start, uint64_t size, const char *name, size_t name_len,
		      void *ctx)
{
	struct pm_ctx *c = ctx;
	int err = jit_symbols__add(c->js, c->pid, c->time, start, size, name, name_len,
				   JIT_SRC_PERFMAP);

	return err == -EINVAL ? 0 : err;
}

int jit_symbols__add_perfmap(struct jit_symbols *js, uint32_t pid, uint64_t time,
			     const char *buf, size_t len)
{
	struct pm_ctx c = { js, pid, time };
	size_t bad;

	return perfmap__parse(buf, len, on_perfmap, &c, &bad);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int line_cmp(const void *a, const void *b)
{
	const struct jit_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint64_t max_below(uint64_t acc, uint64_t t, uint64_t limit)
{
	return t > acc && t < limit ? t : acc;
}

/*
 * Since when timed perf-map line @s names its range (see jit-symbols.h):
 * the start of the mapping that holds it, or the last time something else
 * named or changed the range before the line appeared.
 */
static uint64_t named_since(const struct jit_proc *p, size_t i, const struct addrspace *as)
{
	const struct jit_sym *s = &p->syms[i];
	uint64_t t = s->t_start, from, m;
	size_t k, lo = 0, hi = p->nr;

	/* no mapping known to hold it: nothing to date it from */
	if (!as || addrspace__since(as, p->pid, s->start, t, &from))
		return t;
	if (!addrspace__since(as, p->pid, s->end - 1, t, &m) && m > from)
		from = m;
	for (k = 0; k < p->nr_execs; k++)
		from = max_below(from, p->execs[k], t + 1);
	for (k = 0; k < p->nr_unmaps; k++)
		if (p->unmaps[k].start < s->end && p->unmaps[k].end > s->start)
			from = max_below(from, p->unmaps[k].time, t + 1);
	/* the symbols that overlap it (sorted by start, max_end beside) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->syms[mid].start < s->end)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0 && p->max_end[lo] > s->start) {
		const struct jit_sym *o = &p->syms[lo];

		if (lo == i || o->end <= s->start)
			continue;
		/* an earlier load or line; a move away from the range */
		from = max_below(from, o->t_start, t);
		if (o->t_end != UINT64_MAX)
			from = max_below(from, o->t_end, t + 1);
	}
	return from;
}

static int finish_proc(struct jit_symbols *js, struct jit_proc *p, const struct addrspace *as)
{
	size_t i, k;

	for (i = 0; i < p->nr; i++) {
		struct jit_sym *s = &p->syms[i];

		if (js->ignore_time)
			s->t_start = 0, s->t_named = 0, s->t_end = UINT64_MAX;
		for (k = 0; k < p->nr_unmaps && !js->ignore_time; k++) {
			uint64_t t = p->unmaps[k].time;

			if (p->unmaps[k].start < s->end && p->unmaps[k].end > s->start &&
			    t >= s->t_start && t < s->t_end)
				s->t_end = t;
		}
		/*
		 * An exec replaces the address space. Only timed symbols end
		 * there: an untimed perf-map line (t_start 0) is read whole at
		 * report time and mostly belongs to the image exec'd last.
		 */
		for (k = 0; k < p->nr_execs && !js->ignore_time && s->t_start; k++)
			if (p->execs[k] > s->t_start && p->execs[k] < s->t_end)
				s->t_end = p->execs[k];
		if (s->nr_lines > 1)
			qsort(s->lines, s->nr_lines, sizeof(*s->lines), line_cmp);
	}

	if (p->nr)
		qsort(p->syms, p->nr, sizeof(*p->syms), sym_cmp);
	p->max_end = malloc((p->nr ? p->nr : 1) * sizeof(*p->max_end));
	if (!p->max_end)
		return -ENOMEM;
	for (i = 0; i < p->nr; i++)
		p->max_end[i] = i && p->max_end[i - 1] > p->syms[i].end ? p->max_end[i - 1]
									 : p->syms[i].end;
	/* after the ends above: a move or unmap before a line bounds its start */
	for (i = 0; i < p->nr && !js->ignore_time; i++)
		if (p->syms[i].source == JIT_SRC_PERFMAP && p->syms[i].t_start)
			p->syms[i].t_named = named_since(p, i, as);
	return 0;
}

int jit_symbols__finish(struct jit_symbols *js, const struct addrspace *as)
{
	struct jit_proc *p;
	size_t it = 0;
	int err;

	while ((p = pidmap__next(&js->procs, &it))) {
		err = finish_proc(js, p, as);
		if (err)
			return err;
	}
	return 0;
}

const struct jit_sym *jit_symbols__find(const struct jit_symbols *js, uint32_t pid, uint64_t addr,
					uint64_t time)
{
	const struct jit_proc *p = pidmap__get(&js->procs, pid);
	const struct jit_sym *best = NULL, *early = NULL, *late = NULL;
	size_t lo = 0, hi;

	if (!p || !p->max_end)
		return NULL;
	hi = p->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct jit_sym *s = &p->syms[lo];

		if (p->max_end[lo] <= addr)
			break;
		if (addr >= s->end || time >= s->t_end)
			continue;
		if (s->t_named > time) {
			if (s->source == JIT_SRC_PERFMAP && s->t_named - time <= js->perfmap_slack &&
			    (!late || s->t_start < late->t_start))
				late = s;
			continue;
		}
		if (s->t_start > time) {
			/* a line written later that names this time: the first one to appear */
			if (!early || s->t_start < early->t_start ||
			    (s->t_start == early->t_start && s->seq > early->seq))
				early = s;
			continue;
		}
		/* newest load wins; jitdump over an untimed perf-map line at the same time */
		if (!best || s->t_start > best->t_start ||
		    (s->t_start == best->t_start && s->seq > best->seq))
			best = s;
	}
	return best ? best : early ? early : late;
}

const char *jit_symbols__srcline(const struct jit_symbols *js, const struct jit_sym *s,
				 uint64_t addr, char *buf, size_t len)
{
	const struct jit_proc *p = pidmap__get(&js->procs, s->owner);
	const struct jit_line *l = NULL;
	const char *file, *base;
	size_t i;

	if (!p || !s->nr_lines)
		return NULL;
	for (i = 0; i < s->nr_lines && s->lines[i].addr <= addr; i++)
		l = &s->lines[i];
	if (!l)
		return NULL;
	file = p->files + l->file;
	base = strrchr(file, '/');
	snprintf(buf, len, "%s:%u", base ? base + 1 : file, l->lineno);
	return buf;
}

void jit_symbols__release(struct jit_symbols *js)
{
	struct jit_proc *p;
	size_t it = 0, k;

	if (!js)
		return;
	while ((p = pidmap__next(&js->procs, &it))) {
		for (k = 0; k < p->nr; k++) {
			free(p->syms[k].name);
			free(p->syms[k].lines);
			free(p->syms[k].eh);
			free(p->syms[k].code);
		}
		free(p->pending_eh);
		for (k = 0; k < p->nr_pending; k++)
			free(p->pending[k].lines);
		free(p->pending);
		free(p->syms);
		free(p->max_end);
		free(p->files);
		free(p->unmaps);
		free(p->execs);
		free(p);
	}
	pidmap__release(&js->procs);
}
