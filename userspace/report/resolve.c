// SPDX-License-Identifier: GPL-2.0
/*
 * resolve: one sample address to a function. User space: the mapping that
 * covered the address at the sample's time, then the file's symbols (by
 * cookie, see dso.c), or JIT symbols for anonymous memory and for files that
 * are not ELF. Kernel: relocated kernel symbols.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigalloc.h"
#include "elf-image.h"
#include "map-names.h"
#include "session.h"

static const struct sym *cached_find(struct session *s, const void *owner,
				     const struct symtab *t, uint64_t addr)
{
	struct sym_cache_ent *e;
	uint64_t h;

	if (!s->sym_cache) {
		s->sym_cache = big_zalloc(SYM_CACHE_SIZE * sizeof(*s->sym_cache));
		if (!s->sym_cache)
			return symtab__find(t, addr);
	}
	h = (addr ^ ((uintptr_t)owner >> 4)) * 0x9e3779b97f4a7c15ULL;
	e = &s->sym_cache[h >> 48 & (SYM_CACHE_SIZE - 1)];
	if (e->owner != owner || e->addr != addr) {
		e->owner = owner;
		e->addr = addr;
		e->sym = symtab__find(t, addr);
	}
	return e->sym;
}

static void resolve_kernel(struct session *s, uint64_t ip, struct resolved *out)
{
	const struct sym *sym;
	const char *mod = "[kernel.kallsyms]";

	out->level = RES_KERNEL;
	out->addr = ip;
	session__kernel_wait(s);
	if (!s->ksyms_tried)
		session__kernel_load(s);
	sym = s->have_ksyms ? cached_find(s, &s->ksyms, &s->ksyms.tab, ip) : NULL;
	if (sym) {
		mod = s->ksyms.modules[sym->module];
		out->sym = sym->name;
		out->sym_start = sym->start;
	} else {
		out->why = s->have_ksyms ? DSO_NO_SYMBOL : DSO_KERNEL_NOSYMS;
		/* outside the kernel's own code and every module known: perf's [unknown] */
		if (s->have_ksyms && !kernel_syms__in_core(&s->ksyms, ip))
			mod = "[unknown]";
	}
	out->dso = dso_set__get(&s->dsos, mod, NULL);
	if (out->dso && out->dso->status == DSO_NOT_LOADED)
		out->dso->status = s->have_ksyms ? DSO_OK : DSO_KERNEL_NOSYMS;
}

/*
 * Resolutions by (pid, ip), for file-backed mappings that no later mapping
 * overlaps and for the kernel: valid while the mapping is.
 */
#define RES_CACHE_SIZE 16384
struct res_cache_ent {
	uint64_t ip;
	uint32_t pid;
	bool kernel, used;
	uint64_t from, until; /* the sample times the result holds for */
	struct resolved res;
};

/* The inlined functions at an address of a file, by (image, address); a taken slot is computed again. */
#define INLINE_CACHE_SIZE 4096

struct inline_cache_ent {
	const struct elf_image *img; /* NULL: empty */
	uint64_t vaddr;
	uint32_t nr;
	const char *names[ELF_INLINE_MAX];
};

void session__free_caches(struct session *s)
{
	big_free(s->sym_cache, SYM_CACHE_SIZE * sizeof(*s->sym_cache));
	big_free(s->res_cache, RES_CACHE_SIZE * sizeof(*s->res_cache));
	big_free(s->inline_cache, INLINE_CACHE_SIZE * sizeof(*s->inline_cache));
	s->sym_cache = NULL;
	s->res_cache = NULL;
	s->inline_cache = NULL;
}

size_t session__inlines(struct session *s, const struct resolved *res, bool ret,
			const char **names, size_t max)
{
	struct elf_image *img = res->dso && !res->jit && res->sym ? res->dso->img : NULL;
	uint64_t vaddr = res->vaddr - (ret && res->vaddr ? 1 : 0);
	struct inline_cache_ent *e, one;
	size_t nr;

	if (!img || !max)
		return 0;
	if (!s->inline_cache)
		s->inline_cache = big_zalloc(INLINE_CACHE_SIZE * sizeof(*s->inline_cache));
	e = s->inline_cache ? &s->inline_cache[((vaddr ^ ((uintptr_t)img >> 4)) *
						0x9e3779b97f4a7c15ULL) >> 52 & (INLINE_CACHE_SIZE - 1)]
			    : &one;
	if (e == &one || e->img != img || e->vaddr != vaddr) {
		e->img = img;
		e->vaddr = vaddr;
		e->nr = (uint32_t)elf_image__inlines(img, vaddr, e->names, ELF_INLINE_MAX);
	}
	nr = e->nr < max ? e->nr : max;
	memcpy(names, e->names, nr * sizeof(*names));
	return nr;
}

static struct res_cache_ent *res_slot(struct session *s, uint32_t pid, uint64_t ip)
{
	uint64_t h = (ip ^ ((uint64_t)pid << 40)) * 0x9e3779b97f4a7c15ULL;

	if (!s->res_cache) {
		s->res_cache = big_zalloc(RES_CACHE_SIZE * sizeof(*s->res_cache));
		if (!s->res_cache)
			return NULL;
	}
	return &s->res_cache[h >> 50 & (RES_CACHE_SIZE - 1)];
}

static void resolve_user(struct session *s, uint32_t pid, uint64_t ip, uint64_t time,
			 struct resolved *out, const struct as_map **mapp);
static bool resolve_in_file(struct session *s, const struct as_map *m, uint64_t ip, bool data,
			    struct resolved *out);

/*
 * The sample times [*from, return) a result found in mapping @m at @time
 * holds for @pid: @m's own when it is @pid's; for a mapping inherited from a
 * parent, also only while the process that got it runs under @pid without
 * exec'ing, and not at all (0) when @pid has mappings of its own, which may
 * cover the address at other times.
 */
static uint64_t valid_span(struct session *s, uint32_t pid, const struct as_map *m,
			   uint64_t time, uint64_t *from)
{
	const struct as_proc *own = addrspace__proc(&s->as, pid);
	uint64_t until, fork_time;
	uint32_t ppid;

	*from = m->t_start;
	if (!own || (m >= own->maps && m < own->maps + own->nr_maps))
		return m->t_end;
	if (own->nr_maps || !addrspace__parent_at(own, time, &ppid, &fork_time, &until))
		return 0;
	if (fork_time > *from)
		*from = fork_time;
	return until < m->t_end ? until : m->t_end;
}

void session__resolve(struct session *s, uint32_t pid, uint64_t ip, uint64_t time, uint16_t misc,
		      struct resolved *out)
{
	bool kernel = session__kernel_mode(misc, ip);
	/*
	 * (with mappings of data, which a user address may be remapped as,
	 * results in user space hold only for their sample, and are not kept)
	 */
	struct res_cache_ent *e = kernel || !s->data_maps ? res_slot(s, kernel ? 0 : pid, ip) : NULL;
	const struct as_map *m = NULL;

	uint64_t until = UINT64_MAX, from = 0;

	if (e && e->used && e->ip == ip && e->kernel == kernel && (kernel || e->pid == pid) &&
	    (kernel || (e->from <= time && time < e->until))) {
		*out = e->res;
		out->valid_from = e->from;
		out->valid_until = e->until;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->level = RES_USER;
	out->addr = ip;
	out->map_addr = ip;
	if (kernel) {
		resolve_kernel(s, ip, out);
	} else {
		resolve_user(s, pid, ip, time, out, &m);
		/* only ELF results are time-independent within their mapping */
		if (!m || !m->dso || !m->dso->img || out->jit || s->data_maps)
			return;
		until = valid_span(s, pid, m, time, &from);
		if (!until)
			return;
	}
	out->valid_from = kernel ? 0 : from;
	out->valid_until = kernel ? UINT64_MAX : until;
	if (e) {
		e->ip = ip;
		e->pid = kernel ? 0 : pid;
		e->kernel = kernel;
		e->used = true;
		e->from = out->valid_from;
		e->until = out->valid_until;
		e->res = *out;
	}
}

void session__resolve_regs(struct session *s, uint32_t pid, uint64_t ip, uint64_t time,
			   uint16_t misc, struct resolved *out)
{
	const struct as_map *m;

	session__resolve(s, pid, ip, time, misc, out);
	if (out->dso || out->jit || (misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return;
	m = addrspace__find_replaced(&s->as, pid, ip, time);
	if (!m || !m->dso)
		return;
	memset(out, 0, sizeof(*out));
	out->level = RES_USER;
	out->addr = ip;
	out->map_addr = ip;
	resolve_in_file(s, m, ip, false, out);
}

/*
 * The JIT symbol at @ip for @pid at @time. A forked child runs the code its
 * parent had at fork time (not what the parent loads later) until it
 * unmaps it or execs, so without a symbol of its own the parent's at the
 * fork is taken, up the process tree.
 */
static const struct jit_sym *find_jit(struct session *s, uint32_t pid, uint64_t ip,
				      uint64_t time)
{
	int depth;

	for (depth = 0; depth < AS_MAX_PARENT_DEPTH; depth++) {
		const struct jit_sym *j = jit_symbols__find(&s->jit, pid, ip, time);
		const struct as_proc *p;
		uint64_t fork_time;
		uint32_t ppid;

		if (j)
			return j;
		p = addrspace__proc(&s->as, pid);
		if (!p || !addrspace__parent_at(p, time, &ppid, &fork_time, NULL))
			return NULL;
		if (fork_time < time) {
			if (jit_symbols__unmapped(&s->jit, pid, ip, fork_time, time))
				return NULL;
			time = fork_time;
		}
		pid = ppid;
	}
	return NULL;
}

/*
 * @ip in @m, a file's mapping: true when that settles it (an ELF image's
 * symbol, or why there is none); false for a file without an ELF image,
 * whose code JIT records may name. With @data, a data address: the file's
 * symbol of any kind at its offset in the file (into addr and sym_start).
 */
static bool resolve_in_file(struct session *s, const struct as_map *m, uint64_t ip, bool data,
			    struct resolved *out)
{
	struct dso *d = m->dso;
	const struct sym *sym;

	out->dso = d;
	out->map_addr = ip - m->start + m->pgoff;
	out->addr = out->map_addr;
	dso__load(&s->dsos, d);
	if (!d->img) {
		/* a runtime's own image format (or one whose copy is gone) */
		out->why = d->status;
		return false;
	}
	if (data) {
		sym = symtab__find(elf_image__data_symtab(d->img), out->addr);
	} else {
		out->vaddr = elf_image__offset_to_vaddr(d->img, out->map_addr);
		out->addr = out->vaddr;
		sym = cached_find(s, d, elf_image__symtab(d->img), out->vaddr);
	}
	if (sym) {
		out->sym = sym->name;
		out->sym_start = sym->start;
		out->plt = sym->is_plt;
		return true;
	}
	out->why = d->status != DSO_OK ? d->status
		   : elf_image__has_full_symtab(d->img) ? DSO_NO_SYMBOL
							: DSO_STRIPPED;
	return true;
}

bool resolve__names_data_addr(const struct pr_attr *a)
{
	if (!(a->sample_type & PERF_SAMPLE_ADDR))
		return false;
	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config == PERF_COUNT_SW_PAGE_FAULTS ||
		       a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		       a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	/* BTS: every branch instruction sampled */
	return a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS &&
	       !a->freq && a->sample_period == 1;
}

/*
 * The mapping of data (perf record -d) that covered @addr of @pid at @time,
 * when it was mapped after @m, the mapping of code that covered it (or
 * none did): perf keeps both kinds in one set, where the later one stands.
 */
static const struct as_map *data_map_over(struct session *s, const struct as_map *m,
					  uint32_t pid, uint64_t addr, uint64_t time)
{
	const struct as_map *d;

	if (!s->data_maps)
		return NULL;
	d = addrspace__find(&s->data_as, pid, addr, time);
	return d && (!m || d->t_start > m->t_start) ? d : NULL;
}

/* @addr in @d, a mapping of data: a file's symbol of any kind, or the mapping's name. */
static void resolve_in_data_map(struct session *s, const struct as_map *d, uint64_t addr,
				struct resolved *out)
{
	if (d->dso) {
		resolve_in_file(s, d, addr, true, out);
		return;
	}
	out->why = DSO_ANON;
	out->anon_name = d->name ? d->name : "//anon";
}

static void resolve_user(struct session *s, uint32_t pid, uint64_t ip, uint64_t time,
			 struct resolved *out, const struct as_map **mapp)
{
	const struct as_map *m, *d;
	const struct jit_sym *j;

	m = addrspace__find(&s->as, pid, ip, time);
	*mapp = m;
	if ((d = data_map_over(s, m, pid, ip, time))) {
		/* (a chain's frame in the stack, say: not remembered, as the mapping is not code) */
		*mapp = NULL;
		resolve_in_data_map(s, d, ip, out);
		return;
	}
	if (m && m->dso && resolve_in_file(s, m, ip, false, out))
		return;
	j = find_jit(s, pid, ip, time);
	if (j) {
		char name[64];

		out->sym = j->name;
		out->sym_start = j->start;
		out->jit = j;
		out->why = DSO_OK;
		out->addr = ip;
		if (!out->dso) {
			/* name the JIT side file the symbol came from, as perf names perf maps */
			map_name__jit_source(name, sizeof(name), j->source == JIT_SRC_JITDUMP,
					     j->owner);
			out->anon_name = strpool__str(&s->strings, name);
		}
		return;
	}
	if (!m || !m->dso) {
		out->why = DSO_ANON;
		out->anon_name = m ? "//anon" : RES_UNMAPPED;
	}
}

void session__resolve_data(struct session *s, uint32_t pid, uint64_t addr, uint64_t time,
			   struct resolved *out)
{
	const struct as_map *m, *d;

	if (addr >= 0xffff800000000000ULL) {
		session__resolve(s, pid, addr, time, PERF_RECORD_MISC_KERNEL, out);
		return;
	}
	m = addrspace__find(&s->as, pid, addr, time);
	d = data_map_over(s, m, pid, addr, time);
	if (!d && m && m->dso)
		dso__load(&s->dsos, m->dso);
	if (!d && !(m && m->dso && m->dso->img)) {
		/* nothing, or code of no ELF file (which JIT records name): as a sample's ip there */
		session__resolve(s, pid, addr, time, PERF_RECORD_MISC_USER, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	out->level = RES_USER;
	out->addr = addr;
	out->map_addr = addr;
	if (d)
		resolve_in_data_map(s, d, addr, out);
	else
		resolve_in_file(s, m, addr, true, out);
}

static const char *srcline_found(struct session *s, const struct resolved *res, char *buf,
				 size_t len)
{
	if (res->jit)
		return jit_symbols__srcline(&s->jit, res->jit, res->addr, buf, len);
	if (res->dso && res->dso->img)
		return elf_image__srcline(res->dso->img, res->vaddr, buf, len);
	return NULL;
}

const char *session__srcline_found(struct session *s, const struct resolved *res)
{
	char buf[512];
	const char *line = srcline_found(s, res, buf, sizeof(buf));

	return line ? strpool__str(&s->strings, line) : NULL;
}

const char *session__srcline(struct session *s, uint32_t pid, const struct resolved *res)
{
	char buf[512];
	const char *line = srcline_found(s, res, buf, sizeof(buf));

	if (!line && res->sym) {
		/* perf's form when there is no line table: symbol+offset */
		snprintf(buf, sizeof(buf), "%s+%llu", res->sym,
			 (unsigned long long)(res->addr - res->sym_start));
		line = buf;
	} else if (!line) {
		snprintf(buf, sizeof(buf), "%s[%llx]",
			 res->dso ? res->dso->short_name : (res->anon_name ? res->anon_name : "?"),
			 (unsigned long long)res->addr);
		line = buf;
	}
	return strpool__str(&s->strings, line);
}
