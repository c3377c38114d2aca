// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the standard records the recorder writes itself.
 *
 * For what existed before the events were enabled, as perf synthesizes
 * them: the kernel's text mapping, and for processes that already run (-p,
 * -a) COMM for each thread and MMAP2 for each executable mapping from /proc.
 * They carry the time taken before the events were enabled, so they sort
 * before every sample.
 *
 * With jmmap, perf's own mapping records are off (events.c) and each
 * executable MMAP3 the module reports becomes a MMAP2 here, timed as the
 * MMAP3, so that stock perf reads the recording (Documentation/jrec-data.rst).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "jmmap-reader.h"
#include "map-names.h"
#include "perf-reader.h"
#include "procfs.h"
#include "record.h"

#define SYNTH_SAMPLE_ID_MAX 32

/*
 * The sample_id_all trailer of the tracking event: TID, TIME,
 * its id with several events (ID), CPU with -a, its id again
 * (IDENTIFIER). Its size, record__trailer_size().
 */
static size_t sample_id(uint8_t out[SYNTH_SAMPLE_ID_MAX], const struct record *r, uint32_t pid,
			uint32_t tid, uint64_t time)
{
	uint64_t st = r->ev[r->track].attr.sample_type, id = r->track_id;
	uint32_t pt[2] = {pid, tid}, cpu[2] = {0, 0};
	size_t n = 16;

	memcpy(out, pt, 8);
	memcpy(out + 8, &time, 8);
	if (st & PERF_SAMPLE_ID) {
		memcpy(out + n, &id, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		memcpy(out + n, cpu, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		memcpy(out + n, &id, 8);
		n += 8;
	}
	return n;
}

static void append_id(uint8_t **p, const struct record *r, uint32_t pid, uint32_t tid)
{
	*p += sample_id(*p, r, pid, tid, r->t0);
}

static int emit(struct record *r, void *rec, uint8_t *end)
{
	struct perf_event_header *h = rec;
	int err;

	h->size = (uint16_t)(end - (uint8_t *)rec);
	r->round_written = 1;
	r->map_events++;
	err = perf_writer__write(r->w, h, h->size);
	return err ? err : watch__record(r, rec);
}

int synth__kernel(struct record *r)
{
	union {
		struct perf_event_header h;
		uint8_t b[256];
	} u;
	uint8_t *p;
	uint64_t v;
	uint32_t pt[2] = {(uint32_t)-1, 0};
	static const char name[] = "[kernel.kallsyms]_text";

	if (!r->kernel_text)
		return 0;
	memset(&u, 0, sizeof(u));
	u.h.type = PERF_RECORD_MMAP;
	u.h.misc = PERF_RECORD_MISC_KERNEL;
	p = u.b + sizeof(u.h);
	memcpy(p, pt, 8);
	p += 8;
	v = r->kernel_text;
	memcpy(p, &v, 8); /* start */
	v = ~0ULL - r->kernel_text;
	memcpy(p + 8, &v, 8); /* len */
	v = r->kernel_text;
	memcpy(p + 16, &v, 8); /* pgoff: the reference symbol's address */
	p += 24;
	memcpy(p, name, sizeof(name));
	p += (sizeof(name) + 7) & ~(size_t)7;
	append_id(&p, r, (uint32_t)-1, 0);
	return emit(r, &u, p);
}

struct synth_ctx {
	struct record *r;
	uint32_t pid;
};

/*
 * A MMAP2 of @mm timed @time (the sample_id's pid and tid are the mapping's),
 * encoded in the writer's buffer.
 */
static int emit_mmap2(struct record *r, const struct pr_mmap *mm, uint64_t time)
{
	uint8_t id[SYNTH_SAMPLE_ID_MAX];
	size_t idlen = sample_id(id, r, mm->pid, mm->tid, time);
	/* what perf_records__encode_mmap2() may need, the filename up to PATH_MAX */
	size_t cap = sizeof(struct perf_event_header) + 64 + PATH_MAX + 8 + SYNTH_SAMPLE_ID_MAX;
	void *room;
	int n;

	n = perf_writer__reserve(r->w, cap, &room);
	if (n)
		return n;
	n = perf_records__encode_mmap2(mm, PERF_RECORD_MISC_USER, id, idlen, room, cap);
	if (n < 0)
		return n;
	perf_writer__commit(r->w, (size_t)n);
	r->round_written = 1;
	r->map_events++;
	return 0;
}

static int synth_map(const struct procfs_map *m, void *arg)
{
	struct synth_ctx *c = arg;
	struct pr_mmap mm;
	int err;

	if (!(m->prot & PROT_EXEC))
		return 0;
	memset(&mm, 0, sizeof(mm));
	mm.pid = mm.tid = c->pid;
	mm.start = m->start;
	mm.len = m->end - m->start;
	mm.pgoff = m->pgoff;
	mm.maj = m->dev_major;
	mm.min = m->dev_minor;
	mm.ino = m->ino; /* ino_generation unknown: 0 */
	mm.prot = m->prot;
	mm.flags = m->flags;
	mm.filename = m->path[0] ? m->path : "//anon";
	err = emit_mmap2(c->r, &mm, c->r->t0);
	return err ? err : watch__mapping(c->r, &mm, c->r->t0);
}

/*
 * The MMAP2 of anonymous code (a JIT's, and the one kind a JIT makes by the
 * thousand): "//anon", no device, inode or build-id, so that two differ
 * only in numbers. The first is encoded by perf_records__encode_mmap2()
 * (anon_template()), the others are that record copied into the writer's
 * room by a fixed-size memcpy() with the numbers put in (fill_anon()).
 */
static int anon_template(struct record *r)
{
	struct pr_mmap mm = {.filename = "//anon"};
	uint8_t id[SYNTH_SAMPLE_ID_MAX];
	size_t idlen = sample_id(id, r, 0, 0, 0);
	int n;

	n = perf_records__encode_mmap2(&mm, PERF_RECORD_MISC_USER, id, idlen, r->anon_mmap2,
				       sizeof(r->anon_mmap2));
	if (n < 0)
		return n;
	r->anon_mmap2_size = (uint16_t)n;
	r->anon_mmap2_idlen = (uint8_t)idlen;
	return 0;
}

/* The template with @m's numbers at @room, which holds the whole template. */
static inline void fill_anon(struct record *r, const struct jmmap_rec_mmap3 *m, uint8_t *room)
{
	size_t size = r->anon_mmap2_size;
	uint8_t *trailer;

	/* in 16-byte pieces, unrolled: as one copy, the compiler may make it a `rep movs` */
#pragma GCC unroll 8
	for (size_t i = 0; i < sizeof(r->anon_mmap2); i += 16)
		memcpy(room + i, r->anon_mmap2 + i, 16);
	memcpy(room + PR_MMAP2_OFF_PID, &m->pid, 4);
	memcpy(room + PR_MMAP2_OFF_TID, &m->tid, 4);
	memcpy(room + PR_MMAP2_OFF_START, &m->start, 8);
	memcpy(room + PR_MMAP2_OFF_LEN, &m->len, 8);
	memcpy(room + PR_MMAP2_OFF_PGOFF, &m->pgoff, 8);
	memcpy(room + PR_MMAP2_OFF_PROT, &m->prot, 4);
	memcpy(room + PR_MMAP2_OFF_FLAGS, &m->flags, 4);
	/* of the trailer, only its first fields differ: {pid, tid} and time (sample_id()) */
	trailer = room + size - r->anon_mmap2_idlen;
	memcpy(trailer, &m->pid, 4);
	memcpy(trailer + 4, &m->tid, 4);
	memcpy(trailer + 8, &m->time, 8);
	perf_writer__commit(r->w, size);
	r->round_written = 1;
	r->anon_last.pid = m->pid;
	r->anon_last.prot = m->prot;
	r->anon_last.flags = m->flags;
	r->anon_last.start = m->start;
	r->anon_last.len = m->len;
	r->anon_last.pgoff = m->pgoff;
	r->anon_last.map_events = r->map_events;
}

/* Whether @m's MMAP2 would be the last one written again (r->anon_last). */
static inline int anon_again(const struct record *r, const struct jmmap_rec_mmap3 *m)
{
	return r->anon_last.pid == m->pid && r->anon_last.map_events == r->map_events &&
	       r->anon_last.start == m->start && r->anon_last.len == m->len &&
	       r->anon_last.pgoff == m->pgoff && r->anon_last.prot == m->prot &&
	       r->anon_last.flags == m->flags;
}

/* emit_anon_mmap2() when the template is not made yet or the writer's buffer is full. */
static int __attribute__((noinline)) emit_anon_mmap2_slow(struct record *r,
							   const struct jmmap_rec_mmap3 *m)
{
	void *room;
	int err;

	err = r->anon_mmap2_size ? 0 : anon_template(r);
	if (!err)
		err = perf_writer__reserve(r->w, sizeof(r->anon_mmap2), &room);
	if (!err)
		fill_anon(r, m, room);
	return err;
}

/*
 * @m's MMAP2 unless it is the last one again (anon_again()), then the watch
 * of its process's perf map left for the end of the read
 * (synth__anon_watch()). 1, or -errno.
 */
static inline __attribute__((always_inline)) int emit_anon_mmap2(struct record *r,
								  const struct jmmap_rec_mmap3 *m)
{
	const struct perf_writer_buf *b = perf_writer__buf(r->w);
	int err = 0;

	/* the common cases inline: the same again, or the template made and room for it */
	if (!anon_again(r, m)) {
		if (r->anon_mmap2_size && b->begun && sizeof(r->anon_mmap2) <= b->cap - b->len)
			fill_anon(r, m, b->buf + b->len);
		else
			err = emit_anon_mmap2_slow(r, m);
	}
	if (!err && r->anon_watch_pid != m->pid) {
		err = synth__anon_watch(r);
		r->anon_watch_pid = m->pid;
	}
	r->anon_watch_time = m->time;
	return err ? err : 1;
}

int synth__anon_watch(struct record *r)
{
	uint32_t pid = r->anon_watch_pid;

	if (!pid)
		return 0;
	r->anon_watch_pid = 0;
	return watch__pid(r, pid, r->anon_watch_time);
}

/* synth__mmap3() for what is not a plain "//anon": a file's, or one named otherwise. */
static int __attribute__((noinline)) synth_mmap3_named(struct record *r,
							const struct jmmap_rec_mmap3 *m,
							const char *name)
{
	struct pr_mmap mm;
	int err;

	memset(&mm, 0, sizeof(mm));
	mm.pid = m->pid;
	mm.tid = m->tid;
	mm.start = m->start;
	mm.len = m->len;
	mm.pgoff = m->pgoff;
	if (m->cookie_kind == JMMAP_COOKIE_ELF_BUILD_ID && m->cookie_len &&
	    m->cookie_len <= sizeof(mm.build_id)) {
		mm.build_id_size = m->cookie_len;
		memcpy(mm.build_id, m->cookie, m->cookie_len);
	} else {
		mm.maj = m->dev_major;
		mm.min = m->dev_minor;
		mm.ino = m->ino;
		mm.ino_generation = m->ino_generation;
	}
	mm.prot = m->prot;
	mm.flags = m->flags;
	mm.filename = name[0] ? name : "//anon";
	err = emit_mmap2(r, &mm, m->time);
	return err ? err : watch__mapping(r, &mm, m->time);
}

/*
 * Whether @name is "//anon": as the module pads it in its record (the
 * scan's @name is then the record's own field, 8 bytes at least:
 * jmmap-reader.h), one compare of 8 bytes; else by its characters.
 */
static inline int anon_name(const struct jmmap_rec_mmap3 *m, const char *name)
{
	static const char padded[8] = "//anon";
	uint64_t v, want;

	if (name == m->filename) {
		memcpy(&v, name, 8);
		memcpy(&want, padded, 8);
		if (v == want)
			return 1;
	}
	return map_name__is_slash_anon(name);
}

/* synth__mmap3(), inline in the recorder's callback too (synth__on_mmap3()) */
static inline __attribute__((always_inline)) int mmap3_mmap2(struct record *r,
							     const struct jmmap_rec_mmap3 *m,
							     const char *name)
{
	/*
	 * Only what perf itself would report (executable mappings); those that
	 * existed before the session came from /proc already (synth__process).
	 */
	if (!(m->prot & PROT_EXEC) || m->cause == JMMAP_CAUSE_SNAPSHOT)
		return 0;
	/*
	 * Exactly what emit_anon_mmap2()'s record holds: "//anon" with no
	 * build-id, device or inode (a JIT's code: watch__mapping() would call
	 * watch__pid() too).
	 */
	if (anon_name(m, name) && m->cookie_kind == JMMAP_COOKIE_NONE && !m->dev_major &&
	    !m->dev_minor && !m->ino && !m->ino_generation)
		return emit_anon_mmap2(r, m);
	return synth_mmap3_named(r, m, name);
}

int synth__mmap3(struct record *r, const struct jmmap_rec_mmap3 *m, const char *name)
{
	return mmap3_mmap2(r, m, name);
}

int synth__on_mmap3(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx)
{
	struct record *r = ctx;
	int err = mmap3_mmap2(r, m, name);

	if (err)
		return err < 0 ? err : 0; /* 1: "//anon", which no watch looks at */
	/* watch__mapping() starts the jitdump and perf-map watches */
	return watch__jmmap(r, m, name);
}

static int synth_comm(struct record *r, uint32_t pid, uint32_t tid)
{
	union {
		struct perf_event_header h;
		uint8_t b[128];
	} u;
	struct buf b = BUF_INIT;
	char path[64], comm[16];
	uint32_t pt[2] = {pid, tid};
	uint8_t *p;
	int err;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/status", pid, tid);
	err = procfs_read_file(path, &b);
	if (!err)
		err = procfs_parse_comm((const char *)b.data, b.len, comm);
	buf__release(&b);
	if (err)
		return err;
	memset(&u, 0, sizeof(u));
	u.h.type = PERF_RECORD_COMM;
	p = u.b + sizeof(u.h);
	memcpy(p, pt, 8);
	memcpy(p + 8, comm, 16);
	p += 24;
	append_id(&p, r, pid, tid);
	return emit(r, &u, p);
}

int synth__process(struct record *r, pid_t pid)
{
	struct synth_ctx c = {r, (uint32_t)pid};
	struct dirent *de;
	char path[64];
	DIR *d;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid > 0)
			synth_comm(r, (uint32_t)pid, (uint32_t)tid); /* threads come and go */
	}
	closedir(d);
	err = procfs_read_maps(pid, synth_map, &c);
	if (err == -ENOENT || err == -ESRCH || err == -EACCES)
		err = 0; /* exited, a kernel thread, or not ours to read */
	return err;
}

int synth__all(struct record *r)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid <= 0)
			continue;
		err = synth__process(r, (pid_t)pid);
		if (err == -ESRCH || err == -ENOENT)
			err = 0;
		if (err)
			break;
	}
	closedir(d);
	return err;
}
