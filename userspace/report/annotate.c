// SPDX-License-Identifier: GPL-2.0
/* annotate: per-instruction sample counts and each function's code (annotate.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "code-bytes.h"
#include "disasm.h"
#include "jrec-sections.h"
#include "elf-code.h"
#include "elf-image.h"
#include "filters.h"
#include "machine-files.h"
#include "samples.h"
#include "session.h"
#include "unpack.h"

/* The largest function annotated; a symbol claiming more is cut to this. */
#define ANN_CODE_MAX (4u << 20)

void annotate__init(struct annotate *a, struct session *s, const struct filters *f)
{
	memset(a, 0, sizeof(*a));
	a->s = s;
	a->f = f;
}

static const void *owner_of(const struct resolved *r)
{
	if (r->jit)
		return r->jit;
	return r->dso;
}

static uint64_t slot_hash(const void *owner, uint64_t start, char level)
{
	return ((uint64_t)(uintptr_t)owner ^ start * 0x9e3779b97f4a7c15ULL ^ (uint64_t)level) *
	       0xff51afd7ed558ccdULL;
}

static int grow_slots(struct annotate *a)
{
	size_t n = a->nr_slots ? a->nr_slots * 2 : 1024, i;
	struct ann_slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < a->nr_slots; i++) {
		const struct ann_slot *o = &a->slots[i];
		size_t k;

		if (!o->owner)
			continue;
		k = slot_hash(o->owner, o->start, o->level) & (n - 1);
		while (slots[k].owner)
			k = (k + 1) & (n - 1);
		slots[k] = *o;
	}
	free(a->slots);
	a->slots = slots;
	a->nr_slots = n;
	return 0;
}

/* Where @r's function ends: its symbol table's or its JIT load's end. */
static uint64_t sym_end(struct annotate *a, const struct resolved *r)
{
	const struct sym *y = NULL;

	if (r->jit)
		return r->jit->end;
	if (r->level == RES_KERNEL) {
		if (a->s->have_ksyms)
			y = symtab__find(&a->s->ksyms.tab, r->sym_start);
	} else if (r->dso && r->dso->img) {
		y = symtab__find(elf_image__symtab(r->dso->img), r->sym_start);
	}
	return y && y->end > r->sym_start ? y->end : r->sym_start + 1;
}

/*
 * The slot of @r's function, its ann_sym added when new; NULL on -ENOMEM.
 * A resolution always names an owner (its JIT symbol or its dso).
 */
static const struct ann_slot *find_sym(struct annotate *a, const struct resolved *r, uint32_t pid)
{
	const void *owner = owner_of(r);
	struct ann_slot *sl;
	struct ann_sym *y;
	size_t k;

	if (!owner)
		owner = a; /* a resolution with neither: one key of its own */
	if ((a->nr + 1) * 2 >= a->nr_slots && grow_slots(a))
		return NULL;
	k = slot_hash(owner, r->sym_start, r->level) & (a->nr_slots - 1);
	for (; a->slots[k].owner; k = (k + 1) & (a->nr_slots - 1)) {
		sl = &a->slots[k];
		if (sl->owner == owner && sl->start == r->sym_start && sl->level == r->level)
			return sl;
	}
	if (a->nr == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;
		struct ann_sym *n = realloc(a->syms, cap * sizeof(*n));

		if (!n)
			return NULL;
		a->syms = n;
		a->cap = cap;
	}
	y = &a->syms[a->nr];
	annotate__sym_of(a, r, y);
	y->pid = pid;
	y->shown = !a->f || (filters__dso(a->f, r->dso, r->anon_name) && filters__sym(a->f, r->sym));
	sl = &a->slots[k];
	*sl = (struct ann_slot){ owner, r->sym_start, (uint32_t)a->nr, r->level, y->shown };
	a->nr++;
	return sl;
}

/* The address of @r in its function's own addresses: a file's vaddr, else the runtime one. */
static uint64_t sym_addr(const struct resolved *r)
{
	if (!r->jit && r->level != RES_KERNEL && r->dso && r->dso->img)
		return r->vaddr;
	return r->addr;
}

uint64_t annotate__addr_of(const struct resolved *r)
{
	return sym_addr(r);
}

void annotate__sym_of(struct annotate *a, const struct resolved *r, struct ann_sym *out)
{
	memset(out, 0, sizeof(*out));
	out->res = *r;
	out->name = r->sym;
	out->start = r->sym_start;
	out->end = sym_end(a, r);
	out->shown = true;
}

static void merge_hits(struct ann_sym *y);

/*
 * A sample's function and address, remembered per (process, address, mode)
 * for the sample times over which the address resolves the same (ELF and
 * kernel symbols), so that a sample seen before skips its resolution and
 * the function's lookup. A slot taken by another address is only computed
 * again.
 */
#define ANN_MEMO_SIZE 4096 /* a power of two */

struct ann_memo {
	uint64_t ip, from, until; /* until 0: empty */
	uint64_t addr;		  /* sym_addr() of the resolution */
	uint32_t pid, idx;	  /* idx: the ann_sym */
	uint16_t mode;
	bool shown;
};

static struct ann_memo *memo_slot(struct annotate *a, const struct sample *smp)
{
	uint64_t ip = smp->ev->sample.ip, mode = smp->ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t h = (ip ^ (uint64_t)smp->pid << 40 ^ mode << 56) * 0x9e3779b97f4a7c15ULL;

	return &a->memo[h >> 40 & (ANN_MEMO_SIZE - 1)];
}

static bool memo_hit(const struct ann_memo *m, const struct sample *smp)
{
	return m->ip == smp->ev->sample.ip && m->pid == smp->pid &&
	       m->mode == (smp->ev->misc & PERF_RECORD_MISC_CPUMODE_MASK) && m->from <= smp->time &&
	       smp->time < m->until;
}

int annotate__sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct annotate *a = ctx;
	const struct resolved *r;
	const struct ann_slot *sl;
	struct ann_memo *m;
	struct ann_sym *y;
	uint64_t addr, w = a->weight ? a->weight : 1;
	bool shown;

	if (!a->have_event) {
		a->have_event = true;
		a->event = smp->event;
		a->event_name = smp->event_name;
	}
	if (smp->event != a->event)
		return 0;
	a->total_period += smp->period;
	a->total_samples += w;
	if (!a->memo && !(a->memo = calloc(ANN_MEMO_SIZE, sizeof(*a->memo))))
		return -ENOMEM;
	m = memo_slot(a, smp);
	if (memo_hit(m, smp)) {
		y = &a->syms[m->idx];
		shown = m->shown;
		addr = m->addr;
	} else {
		r = samples__self(it);
		if (!r->sym)
			return 0;
		sl = find_sym(a, r, smp->pid);
		if (!sl)
			return -ENOMEM;
		y = &a->syms[sl->idx];
		shown = sl->shown;
		addr = sym_addr(r);
		if (r->valid_until > smp->time)
			*m = (struct ann_memo){ smp->ev->sample.ip,
						r->valid_from,
						r->valid_until,
						addr,
						smp->pid,
						sl->idx,
						smp->ev->misc & PERF_RECORD_MISC_CPUMODE_MASK,
						sl->shown };
	}
	/* a function not shown is not counted: only those shown are ordered and printed */
	if (!shown)
		return 0;
	y->period += smp->period;
	y->samples += w;
	if (y->nr_hits && y->hits[y->nr_hits - 1].addr == addr) {
		y->hits[y->nr_hits - 1].period += smp->period;
		y->hits[y->nr_hits - 1].samples += w;
		return 0;
	}
	/* the distinct addresses of a function are few: merge before growing */
	if (y->nr_hits == y->cap_hits && y->nr_hits >= 2 * y->merged + 64)
		merge_hits(y);
	if (y->nr_hits == y->cap_hits) {
		size_t cap = y->cap_hits ? y->cap_hits * 2 : 16;
		struct ann_hit *n = realloc(y->hits, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		y->hits = n;
		y->cap_hits = cap;
	}
	y->hits[y->nr_hits++] = (struct ann_hit){ addr, smp->period, w };
	return 0;
}

static int cmp_hit(const void *x, const void *y)
{
	const struct ann_hit *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int cmp_sym(const void *x, const void *y)
{
	const struct ann_sym *a = x, *b = y;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Sort @y's hits by address and add up those of one address. */
static void merge_hits(struct ann_sym *y)
{
	size_t k, n;

	if (!y->nr_hits)
		return;
	qsort(y->hits, y->nr_hits, sizeof(*y->hits), cmp_hit);
	for (k = 1, n = 1; k < y->nr_hits; k++) {
		if (y->hits[k].addr == y->hits[n - 1].addr) {
			y->hits[n - 1].period += y->hits[k].period;
			y->hits[n - 1].samples += y->hits[k].samples;
		} else {
			y->hits[n++] = y->hits[k];
		}
	}
	y->nr_hits = n;
	y->merged = n;
}

int annotate__finish(struct annotate *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		struct ann_sym *y = &a->syms[i];

		if (!y->nr_hits)
			continue;
		merge_hits(y);
		/* a sample past the symbol's recorded end (no size known) widens it */
		if (y->hits[y->nr_hits - 1].addr >= y->end)
			y->end = y->hits[y->nr_hits - 1].addr + 1;
	}
	/* the table's slots point at the old order */
	free(a->slots);
	a->slots = NULL;
	a->nr_slots = 0;
	if (a->nr)
		qsort(a->syms, a->nr, sizeof(*a->syms), cmp_sym);
	return 0;
}

void annotate__release(struct annotate *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr; i++)
		free(a->syms[i].hits);
	free(a->syms);
	free(a->slots);
	free(a->memo);
	memset(a, 0, sizeof(*a));
}

void ann_code__release(struct ann_code *c)
{
	if (!c)
		return;
	free(c->bytes);
	c->bytes = NULL;
	c->len = 0;
	ko_code__release(&c->ko);
}

/* [@start, @end) out of the ELF file at @path: its loaded segments, by address. */
static int read_elf(const char *path, uint64_t start, uint64_t end, struct ann_code *out,
		    char *why, size_t whylen)
{
	struct elf_code ec;
	size_t len = end - start;
	long got;
	int fd, err;

	fd = machine_file__open(path);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open %s: %s", path, strerror(-fd));
		return -ENOENT;
	}
	err = elf_code__open_fd(fd, &ec);
	if (err) {
		snprintf(why, whylen, "%s: %s", path,
			 err == -ENOEXEC ? "not a 64-bit ELF file" : strerror(-err));
		close(fd);
		return err == -ENOMEM ? err : -ENOENT;
	}
	out->bytes = malloc(len);
	if (!out->bytes) {
		elf_code__release(&ec);
		close(fd);
		return -ENOMEM;
	}
	got = elf_code__read(&ec, fd, start, out->bytes, len);
	out->machine = ec.machine;
	elf_code__release(&ec);
	close(fd);
	if (got <= 0) {
		snprintf(why, whylen, "%s: %s", path,
			 got < 0 ? "read error" : "no loaded segment holds the function");
		ann_code__release(out);
		return -ENOENT;
	}
	out->len = (size_t)got;
	snprintf(out->from, sizeof(out->from), "%s", path);
	return 0;
}

static int copy_code(struct ann_code *out, const uint8_t *bytes, size_t len, uint16_t machine)
{
	out->bytes = malloc(len ? len : 1);
	if (!out->bytes)
		return -ENOMEM;
	memcpy(out->bytes, bytes, len);
	out->len = len;
	out->machine = machine;
	return 0;
}

/* A kernel symbol's address by name, for a module's relocations (ko_resolve_fn). */
static int ksym_addr(void *ctx, const char *name, uint64_t *addr)
{
	const struct session *s = ctx;
	size_t i;

	for (i = 0; i < s->ksyms.tab.nr; i++)
		if (!strcmp(s->ksyms.tab.syms[i].name, name)) {
			*addr = s->ksyms.tab.syms[i].start;
			return 0;
		}
	return -ENOENT;
}

struct ko_read {
	struct session *s;
	const char *name;
	uint64_t addr;
	size_t max;
	struct ko_code *out;
};

static int parse_ko(const void *bytes, size_t len, void *ctx)
{
	struct ko_read *k = ctx;
	void *img;
	size_t n;
	int err;

	err = unpack__all(unpack__kind(bytes, len), bytes, len, KO_CODE_MAX_FILE, &img, &n);
	if (err)
		return err;
	err = ko_code__read(img, n, k->name, k->addr, k->max, ksym_addr, k->s, k->out);
	free(img);
	return err;
}

/*
 * Module @mod's function @y from the module's object file (installed, then
 * the debug copy) of the recorded release, placed at the address kallsyms
 * recorded for it: the file's own relocations are applied where the target
 * is known (within the function's section, or a kernel symbol the report
 * knows), the others are listed in @out->ko and the note.
 */
static int module_file_code(struct annotate *a, const struct ann_sym *y, const char *mod,
			    uint64_t end, struct ann_code *out, char *why, size_t whylen)
{
	struct session *s = a->s;
	struct ko_read k = { s, y->name, y->start, (size_t)(end - y->start), &out->ko };
	char path[4096];
	size_t at = 0;
	int which, err = -ENOENT;

	snprintf(why, whylen, "no file of module %s under %s/lib/modules/%s or %s/lib/modules/%s",
		 mod, s->dsos.symfs, s->kernel_release, s->dsos.debug_dir, s->kernel_release);
	for (which = 0; which < 2; which++) {
		if (dso__module_file(&s->dsos, s->kernel_release, mod, which, path, sizeof(path)))
			continue;
		err = machine_file__read(path, parse_ko, &k);
		if (!err)
			break;
		if (err == -ENOMEM)
			return err;
		snprintf(why, whylen, "%s: %s", path,
			 err == -ENOENT  ? "no function of that name in it"
			 : err == -ENOEXEC ? "not a 64-bit relocatable ELF object"
					  : "corrupt or unreadable");
		err = -ENOENT;
	}
	if (err)
		return err;
	out->bytes = out->ko.bytes;
	out->len = out->ko.len;
	out->machine = out->ko.machine;
	out->ko.bytes = NULL;
	out->source = "module file";
	snprintf(out->from, sizeof(out->from), "%.500s", path);
	if (!out->ko.nr_unapplied)
		return 0;
	at = (size_t)snprintf(out->note, sizeof(out->note),
			      "%zu of the module's %zu relocations in it are not applied: the "
			      "operands at",
			      out->ko.nr_unapplied, out->ko.nr_relocs);
	for (size_t i = 0; i < out->ko.nr_relocs && at < sizeof(out->note); i++)
		if (!out->ko.relocs[i].applied)
			at += (size_t)snprintf(out->note + at, sizeof(out->note) - at, " +0x%x",
					       out->ko.relocs[i].off);
	if (at < sizeof(out->note))
		snprintf(out->note + at, sizeof(out->note) - at,
			 " are the file's (marked \"unrelocated\")");
	return 0;
}

/* The module a kernel function belongs to ("jmmap" of "[jmmap]"), or NULL for the kernel's own. */
static const char *module_of(const struct ann_sym *y, char *buf, size_t len)
{
	const char *p = y->res.dso ? y->res.dso->path : NULL;
	size_t n;

	if (!p || p[0] != '[' || !strcmp(p, "[kernel.kallsyms]") || !strcmp(p, "[unknown]"))
		return NULL;
	n = strlen(p);
	if (n < 3 || p[n - 1] != ']' || n - 2 >= len)
		return NULL;
	memcpy(buf, p + 1, n - 2);
	buf[n - 2] = 0;
	return buf;
}

/*
 * The kernel's code: what jrec archive stored, else /proc/kcore of the
 * running kernel, else, for a module's function, the module's object file,
 * and for the kernel's own, the vmlinux with the recorded build-id that the
 * kernel's symbols came from, at its link-time addresses.
 */
static int kernel_code(struct annotate *a, const struct ann_sym *y, uint64_t end,
		       struct ann_code *out, char *why, size_t whylen)
{
	uint64_t start = y->start;
	const struct code_rec *c = code_table__kernel(&a->s->code, start);
	struct session *s = a->s;
	char kcore[256], modbuf[256];
	const char *mod = module_of(y, modbuf, sizeof(modbuf));
	int err;

	if (c) {
		out->source = "archive";
		snprintf(out->from, sizeof(out->from), "[kernel.kallsyms]");
		return copy_code(out, c->bytes, c->len, c->machine);
	}
	if (!s->dsos.own_vdso)
		snprintf(kcore, sizeof(kcore), "the recording's kernel (%s) is not the running one",
			 s->kernel_release[0] ? s->kernel_release : "unknown");
	else if (access("/proc/kcore", R_OK))
		snprintf(kcore, sizeof(kcore), "cannot read /proc/kcore: %s", strerror(errno));
	else if ((err = read_elf("/proc/kcore", start, end, out, kcore, sizeof(kcore))) != -ENOENT) {
		out->source = "kcore";
		return err;
	}
	if (mod) {
		err = module_file_code(a, y, mod, end, out, why, whylen);
		if (err == -ENOENT)
			snprintf(why + strlen(why), whylen - strlen(why), "; %s", kcore);
		return err;
	}
	if (s->vmlinux_path && s->kernel_text) {
		uint64_t delta = s->kernel_text - s->vmlinux_text;

		err = read_elf(s->vmlinux_path, start - delta, end - delta, out, why, whylen);
		if (err != -ENOENT) {
			out->source = "vmlinux";
			return err;
		}
		snprintf(why + strlen(why), whylen - strlen(why), "; %s", kcore);
		return -ENOENT;
	}
	snprintf(why, whylen, "%s; no vmlinux with the kernel's build-id was found", kcore);
	return -ENOENT;
}

/* A perf-map symbol's code as the recorder read it out of the process. */
static int perfmap_code(struct annotate *a, const struct jit_sym *j, struct ann_code *out,
			char *why, size_t whylen)
{
	const struct code_rec *c = code_table__process(&a->s->code, j->owner, j->start, j->t_start);
	/* unmapped, moved, or named anew by a later line or load over its range */
	uint64_t replaced = jit_symbols__replaced(&a->s->jit, j);
	int err;

	if (!c) {
		snprintf(why, whylen, "the recording holds no code bytes for this perf-map symbol");
		return -ENOENT;
	}
	err = copy_code(out, c->bytes, c->len, c->machine);
	if (err)
		return err;
	out->source = "perf-map copy";
	if (c->time >= j->t_start)
		snprintf(out->from, sizeof(out->from),
			 "of process %u, read %.3f s after its perf-map line appeared", c->pid,
			 (double)(c->time - j->t_start) / 1e9);
	else
		snprintf(out->from, sizeof(out->from), "of process %u", c->pid);
	if (c->time > replaced)
		snprintf(out->note, sizeof(out->note),
			 "the bytes were read %.3f s after the code was unmapped or replaced; they may "
			 "not be the code that ran",
			 (double)(c->time - replaced) / 1e9);
	else if (c->time < j->t_named)
		snprintf(out->note, sizeof(out->note),
			 "the bytes were read before the symbol was named; they may not be its code");
	return 0;
}

int annotate__code(struct annotate *a, const struct ann_sym *y, struct ann_code *out, char *why,
		   size_t whylen)
{
	const struct resolved *r = &y->res;
	uint64_t end = y->end;
	char path[4096];

	memset(out, 0, sizeof(*out));
	if (end - y->start > ANN_CODE_MAX)
		end = y->start + ANN_CODE_MAX;
	if (r->jit && r->jit->source == JIT_SRC_PERFMAP)
		return perfmap_code(a, r->jit, out, why, whylen);
	if (r->jit) {
		if (!r->jit->code) {
			snprintf(why, whylen, "the jitdump holds no code for it");
			return -ENOENT;
		}
		if (copy_code(out, r->jit->code, r->jit->code_len, r->jit->machine))
			return -ENOMEM;
		out->source = "jitdump";
		snprintf(out->from, sizeof(out->from), "jit-%u.dump", r->jit->owner);
		return 0;
	}
	if (r->level == RES_KERNEL) {
		return kernel_code(a, y, end, out, why, whylen);
	}
	if (!r->dso) {
		snprintf(why, whylen, "no file or JIT code holds it");
		return -ENOENT;
	}
	if (dso__code_file(&a->s->dsos, r->dso, path, sizeof(path))) {
		const struct code_rec *c = r->dso->cookie.len
						   ? code_table__file(&a->s->code, &r->dso->cookie, y->start)
						   : NULL;

		if (c) {
			out->source = "archive";
			snprintf(out->from, sizeof(out->from), "%s", r->dso->path);
			return copy_code(out, c->bytes, c->len, c->machine);
		}
		snprintf(why, whylen, "no copy of %s with its build-id %s", r->dso->path,
			 r->dso->cookie.len ? "was found, and the recording has no archived code of it"
					    : "(none recorded) was found");
		return -ENOENT;
	}
	out->source = "elf";
	return read_elf(path, y->start, end, out, why, whylen);
}

/* @on_target for each direct branch of @code that leaves @y. */
static int branch_targets(const struct ann_sym *y, const struct ann_code *code,
			  ann_target_fn on_target, void *ctx)
{
	struct disasm *d;
	struct disasm_insn in;
	size_t off = 0, n;
	int err = 0;

	if (!disasm__supported(code->machine))
		return 0;
	err = disasm__new(code->machine, DISASM_ATT, &d);
	if (err)
		return err == -ENOMEM ? err : 0;
	while (!err && (n = disasm__one(d, code->bytes + off, code->len - off, y->start + off, &in))) {
		if (in.has_target && (in.target < y->start || in.target >= y->end))
			err = on_target(ctx, &y->res, in.target);
		off += n;
	}
	disasm__delete(d);
	return err;
}

int annotate__archive_section(struct annotate *a, struct buf *sec, size_t *nr,
			      ann_target_fn on_target, void *ctx)
{
	struct ann_code code;
	char why[512];
	size_t i;
	int err = 0;

	*nr = 0;
	for (i = 0; i < a->nr && !err; i++) {
		const struct ann_sym *y = &a->syms[i];
		struct code_rec c = { 0 };

		if (y->res.jit || (y->res.level != RES_KERNEL && (!y->res.dso || !y->res.dso->cookie.len)))
			continue;
		err = annotate__code(a, y, &code, why, sizeof(why));
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err)
			break;
		c.kind = y->res.level == RES_KERNEL ? JREC_CODE_KERNEL : JREC_CODE_FILE;
		c.addr = y->start;
		c.machine = code.machine;
		if (c.kind == JREC_CODE_FILE)
			c.cookie = y->res.dso->cookie;
		c.bytes = code.bytes;
		c.len = code.len > JREC_CODE_MAX ? JREC_CODE_MAX : (uint32_t)code.len;
		if (!sec->len)
			err = jrec_section__begin(sec, JREC_FEAT_ARCHIVE_CODE);
		if (!err)
			err = code_bytes__emit(sec, &c);
		if (!err)
			err = branch_targets(y, &code, on_target, ctx);
		if (!err)
			(*nr)++;
		ann_code__release(&code);
	}
	if (!err && sec->len)
		err = jrec_section__compress(sec, 3);
	return err;
}
