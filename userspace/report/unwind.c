// SPDX-License-Identifier: GPL-2.0
/*
 * unwind: libdw's unwinder over the registers and the stack copy of a
 * --call-graph dwarf sample (see unwind.h).
 *
 * One Dwfl per process lives as long as the report: the objects reported
 * into it keep their parsed CFI (libdw's per-module cache), so a sample
 * costs the frames it unwinds, not the loading of its objects. An object is
 * reported the first time a frame's pc falls into it, as perf does, at the
 * address its mapping had at the sample's time. When a later sample finds
 * another object where one was reported (the process unmapped and mapped
 * again), the process's Dwfl is rebuilt before the next sample.
 */
#include <elf.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cfi-elf.h"
#include "elf-image.h"
#include "machine-files.h"
#include "session.h"
#include "unwind.h"

/* x86_64: perf's register numbers (PERF_REG_X86_*) in DWARF's order, pc last */
static const uint8_t dwarf_to_perf[] = {
	0 /* ax */,  3 /* dx */,  2 /* cx */,  1 /* bx */,  4 /* si */,  5 /* di */,
	6 /* bp */,  7 /* sp */,  16,	       17,	    18,		 19,
	20,	     21,	  22,	       23 /* r8..r15 */,	 8 /* ip */,
};
#define NR_DWARF_REGS 17
#define PERF_REG_SP 7
#define PERF_REG_IP 8

/* What a Dwfl module was reported for: its userdata. */
struct uw_mod {
	const void *obj; /* the dso, or the JIT symbol */
	bool is_jit;
	uint64_t bias;
	const void *mem; /* an image in memory (JIT CFI, a running vdso) for find_elf() */
	size_t mem_len;
};

struct uw_proc {
	Dwfl *dwfl;
	bool stale; /* an object was found where another one was reported */
	struct uw_mod **mods;
	size_t nr_mods, cap_mods;
};

/* The code file of each dso, looked up once. */
struct uw_file {
	const struct dso *dso;
	char *path; /* NULL: none, frames in it are stepped by frame pointers */
};

/* The ELF image built for a JIT symbol's CFI, once. */
struct uw_jit {
	const struct jit_sym *sym;
	void *elf;
	size_t len;
};

/*
 * The unwinder's result per (object, address): libdw's CFI row for the
 * address, kept when it is of the plain form compiled code has (the CFA
 * is rsp or rbp plus an offset, the return address and rbp saved at
 * offsets from it), which the fast path then applies itself. A sample
 * whose frames all have such rows costs a few lookups; any other row
 * sends the sample through dwfl_getthread_frames().
 */
enum row_state { ROW_EMPTY = 0, ROW_PLAIN, ROW_OUTERMOST, ROW_SLOW };
enum bp_rule { BP_SAME, BP_SAVED };
struct uw_row {
	const void *obj;
	uint64_t rel_pc;
	uint8_t state; /* enum row_state */
	uint8_t cfa_reg; /* 7 (rsp) or 6 (rbp) */
	uint8_t bp_rule; /* enum bp_rule */
	int32_t cfa_off, ra_off, bp_off;
};
#define ROW_CACHE_SIZE 65536

/* The mappings a sample's frames were found in, for the next frames. */
#define NR_RECENT_MAPS 4

struct unwinder {
	struct session *s;
	struct uw_row *rows; /* ROW_CACHE_SIZE, direct-mapped */
	const struct as_map *recent[NR_RECENT_MAPS];
	unsigned int next_recent;
	struct pidmap procs;
	Dwfl_Callbacks cb;
	uint8_t machine_hdr[sizeof(Elf64_Ehdr)];
	Elf *machine; /* an empty x86_64 ELF: tells libdw the architecture */
	struct uw_file *files;
	size_t nr_files, cap_files;
	struct uw_jit *jits;
	size_t nr_jits, cap_jits;
	uint64_t regs_mask; /* the sample_regs_user reg_index[] was made for */
	int8_t reg_index[NR_DWARF_REGS];
	/* the sample being unwound */
	struct uw_proc *proc;
	uint32_t pid, tid;
	uint64_t time;
	Dwarf_Word regs[NR_DWARF_REGS];
	uint64_t sp;
	const uint8_t *stack;
	size_t stack_size;
	uint64_t *ips;
	size_t nr, max;
};

/* A Dwfl module whose ELF image is in memory: a JIT symbol's CFI, a running vdso. */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	const struct uw_mod *um = *userdata;

	*elfp = um && um->mem ? elf_memory((char *)um->mem, um->mem_len) : NULL;
	return -1;
}

/*
 * Separate debuginfo, where .debug_frame may be when a binary has no
 * .eh_frame: the file the dso's symbols came from, if that is one. Not for
 * a binary that has .eh_frame: code its .eh_frame leaves out (hand-written
 * assembly such as a thread's first frame) has no .debug_frame entry
 * either, and opening the debug file means inflating all its compressed
 * DWARF (libc's: a sixth of a whole report's time), only to end the chain
 * where it ends anyway.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct uw_mod *um = *userdata;
	Dwarf_Addr bias;
	const char *path = um && !um->is_jit && !dwfl_module_eh_cfi(mod, &bias)
				   ? dso__debug_file(um->obj)
				   : NULL;
	int fd = path ? machine_file__open(path) : -1;

	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	if (!*debuginfo_file_name) {
		close(fd);
		return -1;
	}
	return fd;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->tid;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct unwinder *u = thread_arg;

	return dwfl_thread_state_registers(thread, 0, NR_DWARF_REGS, u->regs);
}

/* Memory: the stack copy only. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;

	if (addr < u->sp || addr - u->sp > u->stack_size || u->stack_size - (addr - u->sp) < 8)
		return false;
	memcpy(result, u->stack + (addr - u->sp), sizeof(*result));
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

int unwinder__new(struct session *s, struct unwinder **out)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u)
		return -ENOMEM;
	u->s = s;
	u->rows = calloc(ROW_CACHE_SIZE, sizeof(*u->rows));
	if (!u->rows) {
		free(u);
		return -ENOMEM;
	}
	u->cb.find_elf = find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	cfi_elf__ehdr(u->machine_hdr);
	elf_version(EV_CURRENT);
	u->machine = elf_memory((char *)u->machine_hdr, sizeof(u->machine_hdr));
	if (!u->machine) {
		free(u->rows);
		free(u);
		return -ENOMEM;
	}
	*out = u;
	return 0;
}

static void proc_reset(struct uw_proc *p)
{
	size_t i;

	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	for (i = 0; i < p->nr_mods; i++)
		free(p->mods[i]);
	p->nr_mods = 0;
	p->stale = false;
}

void unwinder__delete(struct unwinder *u)
{
	struct uw_proc *p;
	size_t it = 0, i;

	if (!u)
		return;
	while ((p = pidmap__next(&u->procs, &it))) {
		proc_reset(p);
		free(p->mods);
		free(p);
	}
	pidmap__release(&u->procs);
	for (i = 0; i < u->nr_files; i++)
		free(u->files[i].path);
	free(u->files);
	for (i = 0; i < u->nr_jits; i++)
		free(u->jits[i].elf);
	free(u->jits);
	free(u->rows);
	elf_end(u->machine);
	free(u);
}

/* The process's Dwfl, made (and attached to the unwinder) when needed. */
static struct uw_proc *get_proc(struct unwinder *u, uint32_t pid)
{
	bool added;
	struct uw_proc *p = pidmap__get_or_add(&u->procs, pid, sizeof(*p), &added);

	if (!p)
		return NULL;
	if (p->stale)
		proc_reset(p);
	if (p->dwfl)
		return p;
	p->dwfl = dwfl_begin(&u->cb);
	if (!p->dwfl)
		return NULL;
	if (!dwfl_attach_state(p->dwfl, u->machine, (pid_t)pid, &thread_callbacks, u)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		return NULL;
	}
	return p;
}

static const char *code_file(struct unwinder *u, struct dso *d)
{
	char path[4096];
	size_t lo = 0, hi = u->nr_files, i;
	struct uw_file *f;

	/* sorted by dso pointer */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (u->files[mid].dso == d)
			return u->files[mid].path;
		if ((uintptr_t)u->files[mid].dso < (uintptr_t)d)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (array_grow(&u->files, &u->cap_files, u->nr_files + 1))
		return NULL;
	f = u->files;
	for (i = u->nr_files; i > lo; i--)
		f[i] = f[i - 1];
	u->nr_files++;
	f[lo].dso = d;
	f[lo].path = dso__code_file(&u->s->dsos, d, path, sizeof(path)) ? NULL : strdup(path);
	return f[lo].path;
}

static const struct uw_jit *jit_elf(struct unwinder *u, const struct jit_sym *j)
{
	struct uw_jit *e;
	size_t i;

	for (i = u->nr_jits; i-- > 0;)
		if (u->jits[i].sym == j)
			return u->jits[i].elf ? &u->jits[i] : NULL;
	if (array_grow(&u->jits, &u->cap_jits, u->nr_jits + 1))
		return NULL;
	e = &u->jits[u->nr_jits++];
	e->sym = j;
	if (cfi_elf__build(j->start, j->end - j->start, j->eh, j->eh_len, j->eh_hdr_len, &e->elf,
			   &e->len))
		e->elf = NULL;
	return e->elf ? e : NULL;
}

/* A dso whose image is in memory, over the addresses its segments have at @bias. */
static Dwfl_Module *report_mem_image(Dwfl *dwfl, const struct dso *d, uint64_t bias)
{
	uint64_t loads[16][3], lo = UINT64_MAX, hi = 0;
	unsigned int i, n = elf_image__loads(d->img, loads, 16);

	for (i = 0; i < n; i++) {
		if (loads[i][2] < lo)
			lo = loads[i][2];
		if (loads[i][2] + loads[i][1] > hi)
			hi = loads[i][2] + loads[i][1];
	}
	if (!n || lo >= hi)
		return NULL;
	/* libdwfl takes the bias as the start less the first segment's page */
	return dwfl_report_module(dwfl, d->short_name, bias + (lo & ~0xfffull), bias + hi);
}

/* Report into @p what covers @pc at the sample's time, unless it is there already. */
static void report_module(struct unwinder *u, struct uw_proc *p, uint64_t pc)
{
	struct session *s = u->s;
	const struct as_map *m = addrspace__find(&s->as, u->pid, pc, u->time);
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, pc);
	const struct jit_sym *j = NULL;
	const struct uw_jit *je = NULL;
	const char *path = NULL;
	const void *obj;
	struct uw_mod *um;
	uint64_t bias = 0;
	void **ud;
	int fd;

	if (m && m->dso) {
		dso__load(&s->dsos, m->dso);
		if (!m->dso->img)
			return;
		obj = m->dso;
		bias = m->start - elf_image__offset_to_vaddr(m->dso->img, m->pgoff);
	} else {
		j = jit_symbols__find(&s->jit, u->pid, pc, u->time);
		if (!j || !j->eh)
			return; /* no CFI: libdw steps over it by frame pointers */
		obj = j;
	}
	if (mod) {
		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		um = *ud;
		/* the next sample gets a new Dwfl: this one has another object here */
		if (!um || um->obj != obj || um->bias != bias)
			p->stale = true;
		return;
	}
	if (array_grow(&p->mods, &p->cap_mods, p->nr_mods + 1))
		return;
	um = calloc(1, sizeof(*um));
	if (!um)
		return;
	um->obj = obj;
	um->is_jit = !(m && m->dso);
	um->bias = bias;
	if (m && m->dso) {
		path = code_file(u, m->dso);
		/* no file: an image that lives in memory (the running vdso) */
		if (!path)
			um->mem = elf_image__mem(m->dso->img, &um->mem_len);
	} else {
		je = jit_elf(u, j);
		if (je) {
			um->mem = je->elf;
			um->mem_len = je->len;
		}
	}
	if (!path && !um->mem) {
		free(um);
		return;
	}
	fd = path ? machine_file__open(path) : -1;
	if (path && fd < 0) {
		free(um);
		return;
	}
	dwfl_report_begin_add(p->dwfl);
	if (path)
		mod = dwfl_report_elf(p->dwfl, m->dso->short_name, path, fd, bias, true);
	else if (je)
		mod = dwfl_report_module(p->dwfl, j->name, j->start, j->end);
	else
		mod = report_mem_image(p->dwfl, m->dso, bias);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod) {
		/* the descriptor is libdwfl's only when it made the module */
		if (fd >= 0)
			close(fd);
		free(um);
		return;
	}
	dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	*ud = um;
	p->mods[p->nr_mods++] = um;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(u, u->proc, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a return address: the call is the instruction before it */
	if (!activation)
		pc--;
	u->ips[u->nr++] = pc;
	return u->nr < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/*
 * Where @pc is at the sample's time: the object (a dso, or a JIT symbol with
 * CFI) and its load bias. false when it is in neither.
 */
static bool locate(struct unwinder *u, uint64_t pc, const void **obj, uint64_t *bias)
{
	struct session *s = u->s;
	const struct as_map *m = NULL;
	const struct jit_sym *j;
	unsigned int i;

	for (i = 0; i < NR_RECENT_MAPS; i++) {
		const struct as_map *r = u->recent[i];

		if (r && pc >= r->start && pc < r->end) {
			m = r;
			break;
		}
	}
	if (!m) {
		m = addrspace__find(&s->as, u->pid, pc, u->time);
		if (m && m->dso) {
			u->recent[u->next_recent] = m;
			u->next_recent = (u->next_recent + 1) % NR_RECENT_MAPS;
		}
	}
	if (m && m->dso) {
		dso__load(&s->dsos, m->dso);
		if (!m->dso->img)
			return false;
		*obj = m->dso;
		*bias = m->start - elf_image__offset_to_vaddr(m->dso->img, m->pgoff);
		return true;
	}
	j = jit_symbols__find(&s->jit, u->pid, pc, u->time);
	if (!j || !j->eh)
		return false;
	*obj = j;
	*bias = 0;
	return true;
}

/* The CFA rule of @frame as (register, offset): false unless rsp or rbp plus a constant. */
static bool plain_cfa(Dwarf_Frame *frame, struct uw_row *row)
{
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;
	int64_t off;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	if ((reg != 7 && reg != 6) || off < INT32_MIN || off > INT32_MAX)
		return false;
	row->cfa_reg = (uint8_t)reg;
	row->cfa_off = (int32_t)off;
	return true;
}

/* Register @regno saved at CFA + *@off: 1; same value: 0; anything else: -1. */
static int saved_at(Dwarf_Frame *frame, int regno, int32_t *off)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;

	if (dwarf_frame_register(frame, regno, ops_mem, &ops, &nops))
		return -1;
	if (!ops)
		return 0; /* same value */
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa)
		return -1; /* undefined, in a register, an expression */
	if (nops == 1) {
		*off = 0;
		return 1;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst &&
	    (int64_t)ops[1].number >= INT32_MIN && (int64_t)ops[1].number <= INT32_MAX) {
		*off = (int32_t)(int64_t)ops[1].number;
		return 1;
	}
	return -1;
}

/* libdw's row for @rel_pc in @cfi, as a plain row when it is one. */
static void row_from_cfi(Dwarf_CFI *cfi, uint64_t rel_pc, struct uw_row *row)
{
	Dwarf_Frame *frame;
	Dwarf_Addr start, end;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal;
	int ra, bp;

	row->state = ROW_SLOW;
	if (dwarf_cfi_addrframe(cfi, rel_pc, &frame))
		return;
	ra = dwarf_frame_info(frame, &start, &end, &signal);
	if (ra < 0 || signal || !plain_cfa(frame, row))
		goto out;
	/* an undefined return address: the outermost frame (_start) */
	if (!dwarf_frame_register(frame, ra, ops_mem, &ops, &nops) && ops == ops_mem && !nops) {
		row->state = ROW_OUTERMOST;
		goto out;
	}
	if (saved_at(frame, ra, &row->ra_off) != 1)
		goto out;
	bp = saved_at(frame, 6, &row->bp_off);
	if (bp < 0)
		goto out;
	row->bp_rule = bp ? BP_SAVED : BP_SAME;
	row->state = ROW_PLAIN;
out:
	free(frame);
}

/* The row for @lookup_pc in @obj: cached, else from the module's CFI (.eh_frame, then .debug_frame). */
static const struct uw_row slow_row = { .state = ROW_SLOW };

static const struct uw_row *get_row(struct unwinder *u, const void *obj, uint64_t bias,
				    uint64_t pc, uint64_t lookup_pc)
{
	uint64_t rel = lookup_pc - bias, h = (rel ^ ((uintptr_t)obj >> 4)) * 0x9e3779b97f4a7c15ULL;
	struct uw_row *row = &u->rows[h >> 48 & (ROW_CACHE_SIZE - 1)];
	Dwfl_Module *mod;
	Dwarf_Addr b;
	Dwarf_CFI *cfi;
	void **ud;

	if (row->state != ROW_EMPTY && row->obj == obj && row->rel_pc == rel)
		return row;
	memset(row, 0, sizeof(*row));
	row->obj = obj;
	row->rel_pc = rel;
	row->state = ROW_SLOW;
	report_module(u, u->proc, pc);
	mod = dwfl_addrmodule(u->proc->dwfl, lookup_pc);
	if (mod)
		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!mod || !*ud || ((struct uw_mod *)*ud)->obj != obj ||
	    ((struct uw_mod *)*ud)->bias != bias) {
		/* not reported (yet), or another object is there in this Dwfl: not cached */
		row->state = ROW_EMPTY;
		return &slow_row;
	}
	cfi = dwfl_module_eh_cfi(mod, &b);
	if (cfi)
		row_from_cfi(cfi, lookup_pc - b, row);
	if (row->state == ROW_SLOW && (cfi = dwfl_module_dwarf_cfi(mod, &b)))
		row_from_cfi(cfi, lookup_pc - b, row);
	return row;
}

static bool stack_word(const struct unwinder *u, uint64_t addr, uint64_t *v)
{
	Dwarf_Word w;

	if (!memory_read(NULL, addr, &w, (void *)u))
		return false;
	*v = w;
	return true;
}

/*
 * The fast path: the frames the cached rows give, while every frame has a
 * plain row. false when one does not (the caller then lets libdw unwind the
 * whole sample), true when the chain ended as libdw would end it.
 */
static bool unwind_fast(struct unwinder *u)
{
	uint64_t pc = u->regs[16], sp = u->regs[7], bp = u->regs[6], bias;
	const struct uw_row *row;
	bool bp_known = true;
	const void *obj;
	size_t n = 0;

	memset(u->recent, 0, sizeof(u->recent));
	for (;;) {
		/* a return address: the call is the instruction before it */
		uint64_t lookup = n ? pc - 1 : pc, cfa, ra;

		if (!locate(u, lookup, &obj, &bias))
			return false;
		row = get_row(u, obj, bias, pc, lookup);
		if (row->state == ROW_SLOW)
			return false;
		u->ips[n++] = lookup;
		if (row->state == ROW_OUTERMOST || n == u->max)
			break;
		if (row->cfa_reg != 7 && !bp_known)
			break;
		cfa = (row->cfa_reg == 7 ? sp : bp) + (uint64_t)(int64_t)row->cfa_off;
		if (!stack_word(u, cfa + (uint64_t)(int64_t)row->ra_off, &ra) || !ra)
			break;
		/*
		 * rbp's slot below the stack pointer: an epilogue popped it
		 * already, so the register holds the caller's value. A slot
		 * past the copied stack leaves rbp unknown, as libdw leaves a
		 * register it cannot read: only a frame whose CFA is rbp-based
		 * needs it.
		 */
		if (row->bp_rule == BP_SAVED && cfa + (uint64_t)(int64_t)row->bp_off >= sp)
			bp_known = stack_word(u, cfa + (uint64_t)(int64_t)row->bp_off, &bp);
		sp = cfa;
		pc = ra;
	}
	u->nr = n;
	return true;
}

size_t unwinder__frames(struct unwinder *u, const struct pr_event *ev, uint64_t time,
			uint64_t *ips, size_t max)
{
	const struct pr_sample *smp = &ev->sample;
	const struct perf_reader *r = u->s->r;
	uint64_t mask = ev->attr ? ev->attr->sample_regs_user : 0;
	unsigned int i;

	if (!smp->regs_abi || !smp->regs || !max || !ev->attr)
		return 0;
	if (!(mask >> PERF_REG_IP & 1) || !(mask >> PERF_REG_SP & 1))
		return 0;
	if (mask != u->regs_mask) {
		/* where each DWARF register is among the mask's, in bit order */
		for (i = 0; i < NR_DWARF_REGS; i++) {
			unsigned int bit = dwarf_to_perf[i];

			u->reg_index[i] = (mask >> bit & 1)
						  ? (int8_t)__builtin_popcountll(mask & ((1ull << bit) - 1))
						  : -1;
		}
		u->regs_mask = mask;
	}
	for (i = 0; i < NR_DWARF_REGS; i++)
		u->regs[i] = u->reg_index[i] < 0 ? 0 : pr_reg_at(r, smp, (unsigned int)u->reg_index[i]);
	u->sp = u->regs[7];
	u->stack = smp->stack;
	u->stack_size = smp->stack ? smp->stack_size : 0;
	u->pid = ev->id.pid;
	u->tid = ev->id.tid;
	u->time = time;
	u->ips = ips;
	u->nr = 0;
	u->max = max;
	u->proc = get_proc(u, u->pid);
	if (!u->proc) {
		ips[0] = u->regs[16];
		return 1;
	}
	if (unwind_fast(u))
		return u->nr;
	u->nr = 0;
	/* errors end the walk where it got to: the frames so far are the chain */
	dwfl_getthread_frames(u->proc->dwfl, (pid_t)u->tid, frame_cb, u);
	if (!u->nr) {
		ips[0] = u->regs[16];
		u->nr = 1;
	}
	return u->nr;
}
