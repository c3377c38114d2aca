/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session: one recording opened for reporting. session__load() reads every
 * record that is not a sample (mappings, process tree, comms) and jrec's
 * private features, and builds the address spaces and JIT symbol tables;
 * samples are then resolved one by one with session__resolve() (resolve.h).
 */
#ifndef JREC_SESSION_H
#define JREC_SESSION_H

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>

#include "addrspace.h"
#include "archive-syms.h"
#include "code-bytes.h"
#include "ctx-switches.h"
#include "dso.h"
#include "file-cookies.h"
#include "jit-symbols.h"
#include "jmmap-reader.h"
#include "kernel-syms.h"
#include "perf-reader.h"
#include "pidmap.h"
#include "proc-history.h"
#include "resolve.h"
#include "stored-syms.h"
#include "strpool.h"

/*
 * Symbol lookups by (file, address): a direct-mapped cache in front of the
 * binary search, behind the resolution cache (resolve.c), so it sees each
 * address's first lookup and chain frames; 768 KiB.
 */
#define SYM_CACHE_SIZE 32768
struct sym_cache_ent {
	const void *owner; /* the dso, or the kernel table */
	uint64_t addr;
	const struct sym *sym;
};

struct res_cache_ent;

struct session {
	struct perf_reader *r;
	struct sym_cache_ent *sym_cache;
	struct res_cache_ent *res_cache;
	struct inline_cache_ent *inline_cache;
	const char *path;
	struct addrspace as;
	/*
	 * the mappings of data (perf record -d: PERF_RECORD_MISC_MMAP_DATA),
	 * kept when the samples' data addresses are named (data_maps:
	 * resolve__names_data_addr()), for session__resolve_data()
	 */
	struct addrspace data_as;
	bool data_maps;
	struct jit_symbols jit;
	struct dso_set dsos;
	struct stored_syms stored; /* JREC_FEAT_SYMTAB, the dsos' last source */
	struct archive_syms archive; /* JREC_FEAT_ARCHIVE, tried before it */
	/* JREC_FEAT_CODE and _ARCHIVE_CODE, read only when want_code is set (annotate, archive) */
	struct code_table code;
	bool want_code;
	struct strpool strings;
	struct proc_history procs;   /* threads, names, forks, execs; as and jit subscribe */
	struct file_cookies cookies; /* cookies of mapped files their records lack */
	struct ctx_switches switches; /* PERF_RECORD_SWITCH(_CPU_WIDE): off-CPU intervals */
	/* kernel */
	struct kernel_syms ksyms;
	struct kernel_syms ksyms_mods; /* module symbols from the recorded kallsyms */
	struct elf_image *vmlinux;     /* owns the names in ksyms when it came from a vmlinux */
	char *vmlinux_path;    /* that vmlinux, for its code (annotate) */
	uint64_t vmlinux_text; /* its _text, before relocation */
	bool ksyms_tried, have_ksyms;
	bool ksyms_loading;      /* ksyms_thread runs the loading; nothing else touches ksyms */
	/*
	 * session__load() may return with the loading still running: the caller
	 * resolves user space first (presum__feed()) and calls
	 * session__kernel_wait() itself before it reads the kernel's symbols
	 * other than through session__resolve() (jrec report)
	 */
	bool ksyms_wait_later;
	bool ksyms_done; /* set by ksyms_thread as it ends (atomic) */
	/*
	 * Work for a thread that would otherwise be idle: ksyms_thread's once
	 * the symbols are loaded, or this one when session__kernel_wait() would
	 * wait for it. Called from both (it must do its work once, and be safe
	 * to call from two threads), set before session__load(): the browser
	 * opens its terminal (browser__open_early())
	 */
	void (*kernel_wait_work)(void);
	pthread_t ksyms_thread;
	struct kernel_carry *kernel_carry; /* session__kernel_from() */
	const char *ksyms_source;
	uint64_t kernel_text; /* recorded runtime _text, 0 if unknown */
	char kernel_release[128];
	struct jrec_cookie kernel_bid;
	/* the recording */
	bool is_jrec;
	char mode[32];
	bool monotonic; /* sample times are CLOCK_MONOTONIC, comparable with jitdump */
	uint64_t nr_samples, nr_lost, nr_mmap_events;
	uint64_t first_time, last_time;
	uint64_t jitdump_truncated;
	bool jmmap_bad; /* the module's records ended in a corrupt one */
	/*
	 * The data section's MMAP2s of the processes the module traced copy
	 * the JMMAP section's MMAP3s (INFO mmap_records=jmmap), and that
	 * section was read whole: they are skipped (Documentation/jrec-data.rst).
	 */
	bool skip_traced_mmaps;
	/* jrec top's copies of jitdumps and perf-map lines (session__add_side_files()) */
	const void *side_jitdumps, *side_perfmaps;
	size_t side_jitdumps_len, side_perfmaps_len;
	bool live; /* being recorded on this machine now (session__set_live()) */
	/*
	 * Set before session__load(): each sample of the first pass, at its
	 * time, given to it as well (samples are then decoded in that pass).
	 */
	int (*pass1_sample)(const struct pr_event *ev, uint64_t time, void *ctx);
	void *pass1_ctx;
};

int session__open(struct session *s, const char *path, char *err, size_t errlen);
/*
 * Before session__load(): the JITDUMP and PERFMAP sections' payloads (their
 * entries, as jitdump_copy__emit() and perfmap_watch__update() write them)
 * of side files copied as they were written (jrec top, reading a recording
 * still being made), read as if the recording held them. The bytes stay the
 * caller's until session__close().
 */
static inline void session__add_side_files(struct session *s, const void *jitdumps, size_t jlen,
					   const void *perfmaps, size_t plen)
{
	s->side_jitdumps = jitdumps;
	s->side_jitdumps_len = jlen;
	s->side_perfmaps = perfmaps;
	s->side_perfmaps_len = plen;
}
/*
 * Before session__load(): the recording is being made on this machine now
 * (jrec top), so the running kernel is the recorded one, though the
 * recording does not say which it is yet (its release and kernel symbols are
 * written at its end).
 */
static inline void session__set_live(struct session *s)
{
	s->live = true;
}
/* Pass 1. 0 or -errno. */
int session__load(struct session *s);
void session__close(struct session *s);
/*
 * The times of the recording's first and last samples: perf's SAMPLE_TIME
 * section, or a walk over the samples when the file has none. 0, or
 * -ENOENT when no sample has a time.
 */
int session__sample_span(struct session *s, uint64_t *first, uint64_t *last);

/*
 * The module's records (the JMMAP section) to @fn, in order, as pass 1 read
 * them: for views that show them. 0 when there are none, else as
 * jmmap_reader__walk().
 */
int session__jmmap_walk(struct session *s, jm_event_fn fn, void *ctx);
/* The comm of @tid at @time (interned), never NULL. */
const char *session__comm(struct session *s, uint32_t tid, uint32_t pid, uint64_t time);
/* @tid's name as perf script gives it at @time: ":TID" before it has one (proc_history__comm_seen()). */
const char *session__comm_seen(struct session *s, uint32_t tid, uint64_t time);

/*
 * Load the kernel symbols on another thread while the first pass goes on
 * (once, and only when the kernel's reference address is known);
 * session__kernel_wait() collects it before anything reads them.
 */
void session__kernel_prefetch(struct session *s);
void session__kernel_wait(struct session *s);
/* Load the kernel symbols now, on this thread (kernel-symbols.c). */
void session__kernel_load(struct session *s);

/*
 * The kernel's symbols carried from one session of a live recording to the
 * next (jrec top opens one a refresh, and the kernel does not change under
 * it): taken out of a session before it is closed, given to the next
 * before it loads, so that the kernel's symbols are read once.
 */
struct kernel_carry {
	bool held;
	struct kernel_syms ksyms, mods;
	struct elf_image *vmlinux;
	char *vmlinux_path;
	uint64_t vmlinux_text, kernel_text;
	const char *source;
	bool have;
};
/* @s's kernel symbols, once loaded, into @c (what @c held is released); @s keeps none. */
void session__kernel_keep(struct session *s, struct kernel_carry *c);
/*
 * @c's symbols for @s (opened, not loaded yet), taken instead of reading
 * them again when @s first needs the kernel's symbols, if its kernel is at
 * the same address.
 */
void session__kernel_from(struct session *s, struct kernel_carry *c);
void kernel_carry__release(struct kernel_carry *c);

/*
 * Files of this machine that the recording only names (machine-files.c):
 * the jitdump @pid mapped at @path, when it is one and the recording has no
 * copy; then, after pass 1, the perf maps of processes without timed lines.
 */
void session__machine_jitdump(struct session *s, uint32_t pid, const char *path);
void session__machine_perfmaps(struct session *s);
/* The lookup caches of session__resolve(); session__close() calls it. */
void session__free_caches(struct session *s);
/* --symfs: where the binaries, their debuginfo and the kernel's files are looked for. */
static inline int session__set_symfs(struct session *s, const char *dir)
{
	return dso_set__set_symfs(&s->dsos, dir);
}

/* Why the recording ends early, or NULL when it is whole. */
static inline const char *session__cut_short(const struct session *s)
{
	enum pr_cut c = perf_reader__cut_short(s->r);

	return c ? pr_cut_str(c) : NULL;
}

/* The malformed records that reading skipped. */
static inline uint64_t session__nr_bad(const struct session *s)
{
	return perf_reader__nr_bad(s->r);
}

/* The sample's time, or its file offset when the recording has no times. */
static inline uint64_t session__time(const struct pr_event *ev)
{
	return ev->id.has_time ? ev->id.time : ev->offset;
}

#endif
