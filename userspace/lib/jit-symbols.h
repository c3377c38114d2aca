/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jit-symbols: each process's JIT-compiled functions over time, from jitdump
 * LOAD/MOVE/DEBUG_INFO records, perf-map lines (timed when the recorder saw
 * them appear, else valid from the start) and jmmap's MUNMAP records. A
 * symbol is valid from its load until moved or unmapped; where several cover
 * an address at a time, the newest load wins (address reuse).
 *
 * A timed perf-map line is often written long after its code (a runtime
 * that dumps its map at exit or on request): it names its range from the
 * start of the mapping that holds it, unless something else named or
 * changed that range in between (an earlier line or jitdump load, a move, an
 * unmap, a new mapping over it, an exec); then from that moment. Before the
 * line appeared it only names what no symbol seen by then names, so a later
 * line for the same address wins from when it appeared.
 */
#ifndef JREC_JIT_SYMBOLS_H
#define JREC_JIT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pidmap.h"
#include "proc-history.h"

struct addrspace;

enum jit_source { JIT_SRC_JITDUMP = 1, JIT_SRC_PERFMAP = 2 };

struct jit_line {
	uint64_t addr;
	uint32_t lineno;
	uint32_t file; /* offset into the owning table's string pool */
};

struct jit_sym {
	uint64_t start, end;
	uint64_t t_start, t_end; /* loaded (a perf-map line: seen) at t_start */
	uint64_t t_named;	  /* names its range from here (<= t_start) */
	uint64_t seq;
	uint64_t code_index;
	char *name;
	uint8_t source; /* enum jit_source */
	uint32_t owner; /* the process whose records loaded it (a forked child inherits) */
	struct jit_line *lines; /* DEBUG_INFO rows, sorted by addr */
	size_t nr_lines;
	/* UNWINDING_INFO: .eh_frame then .eh_frame_hdr (its last eh_hdr_len bytes), or NULL */
	uint8_t *eh;
	uint32_t eh_len, eh_hdr_len;
	/* a jitdump LOAD's code bytes, kept when jit_symbols.keep_code is set; else NULL */
	uint8_t *code;
	uint64_t code_len;
	uint16_t machine; /* a jitdump's code: its header's EM_*; 0 unknown */
};

struct jit_proc {
	uint32_t pid;
	struct jit_sym *syms;
	uint64_t *max_end;
	size_t nr, cap;
	/* DEBUG_INFO seen before its LOAD, keyed by code address */
	struct jit_pending *pending;
	size_t nr_pending, cap_pending;
	char *files; /* string pool for line tables */
	size_t files_len, files_cap;
	struct { uint64_t time, start, end; } *unmaps;
	size_t nr_unmaps, cap_unmaps;
	uint64_t *execs; /* exec times: the address space, and every timed symbol, ends */
	size_t nr_execs, cap_execs;
	bool has_jitdump, has_timed_perfmap;
	/* UNWINDING_INFO seen, for the next LOAD */
	uint8_t *pending_eh;
	uint32_t pending_eh_len, pending_eh_hdr_len;
};

struct jit_symbols {
	struct pidmap procs;
	uint64_t seq;
	bool ignore_time; /* the recording's clock is not the JIT's: every load valid from 0 */
	/*
	 * A timed perf-map line was seen up to one poll interval after it was
	 * written: where no symbol covers an address, one that appears within
	 * this many ns after the sample is taken.
	 */
	uint64_t perfmap_slack;
	bool keep_code; /* keep each jitdump LOAD's code bytes (annotate), set before adding */
};

int jit_symbols__add(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t start,
		     uint64_t size, const char *name, size_t name_len, enum jit_source src);
int jit_symbols__move(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t old_addr,
		      uint64_t new_addr, uint64_t size);
int jit_symbols__unmap(struct jit_symbols *js, uint32_t pid, uint64_t time, uint64_t start,
		       uint64_t len);
/* Add a whole jitdump buffer for @pid (0: the dump header's pid). */
int jit_symbols__add_jitdump(struct jit_symbols *js, uint32_t pid, const void *buf, size_t len,
			     bool *truncated);
int jit_symbols__add_perfmap(struct jit_symbols *js, uint32_t pid, uint64_t time,
			     const char *buf, size_t len);
/*
 * @pid's address space was replaced at @time (an exec, or a new process
 * under a reused pid): its timed symbols loaded before then end there.
 */
int jit_symbols__exec(struct jit_symbols *js, uint32_t pid, uint64_t time);
/*
 * Hear of every new process and exec from @ph: each is a jit_symbols__exec()
 * (an earlier process under a reused pid has its JIT symbols end there).
 */
int jit_symbols__subscribe(struct jit_symbols *js, struct proc_history *ph);
struct jit_proc *jit_symbols__proc(const struct jit_symbols *js, uint32_t pid);
/*
 * Done adding: end symbols at their unmaps and execs, and date each timed
 * perf-map line back to when its range was last named or changed, by @as's
 * mappings (finished first; NULL: by the JIT records alone).
 */
int jit_symbols__finish(struct jit_symbols *js, const struct addrspace *as);
const struct jit_sym *jit_symbols__find(const struct jit_symbols *js, uint32_t pid, uint64_t addr,
					uint64_t time);
/*
 * When @s's code may have stopped being what ran at its range: its end
 * (unmapped, moved, exec) or the first load or timed perf-map line that
 * came after it (a later sequence number, at or after its time) over any
 * part of its range, whichever is first; UINT64_MAX when neither. After
 * jit_symbols__finish().
 */
uint64_t jit_symbols__replaced(const struct jit_symbols *js, const struct jit_sym *s);
/*
 * Whether @pid's own records unmapped @addr between @from and @to
 * (inclusive): then what its parent had there at fork time is gone.
 */
bool jit_symbols__unmapped(const struct jit_symbols *js, uint32_t pid, uint64_t addr,
			   uint64_t from, uint64_t to);
/* "file:line" of @addr in @s from its DEBUG_INFO, or NULL. */
const char *jit_symbols__srcline(const struct jit_symbols *js, const struct jit_sym *s,
				 uint64_t addr, char *buf, size_t len);
void jit_symbols__release(struct jit_symbols *js);

#endif
