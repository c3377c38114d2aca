// SPDX-License-Identifier: GPL-2.0
/*
 * The MMAP2 records jrec record writes for the module's MMAP3s: anonymous
 * code, which goes through an encoded record with its numbers changed, comes
 * out byte for byte as perf_records__encode_mmap2() makes it, with and
 * without the CPU in sample_id, for mappings that differ in every number;
 * a file mapping with a build-id carries it; what perf would not report
 * (no PROT_EXEC, a snapshot) gives nothing; one that repeats the last
 * with nothing between is not written again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "map-names.h"
#include "perf-reader.h"
#include "record/record.h"
#include "tap.h"

#define NR_MAPS 4

static void checkf(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void checkf(int ok, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	check(ok, what);
}

struct mmap3_rec {
	struct jmmap_rec_mmap3 m;
	char name[24];
};

struct got {
	uint8_t rec[NR_MAPS + 2][256];
	size_t size[NR_MAPS + 2];
	int n;
};

static int collect(const struct pr_event *ev, void *ctx)
{
	struct got *g = ctx;

	if (ev->type != PERF_RECORD_MMAP2 || g->n >= NR_MAPS + 2 || ev->size > sizeof(g->rec[0]))
		return 0;
	memcpy(g->rec[g->n], ev->raw, ev->size);
	g->size[g->n++] = ev->size;
	return 0;
}

static void mmap3(struct mmap3_rec *r, uint32_t i, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->m.hdr.type = JMMAP_REC_MMAP3;
	r->m.hdr.size = (uint32_t)(sizeof(r->m) + ((strlen(name) + 8) & ~(size_t)7));
	r->m.pid = 1000 + i;
	r->m.tid = 2000 + i;
	r->m.time = 1000000007ull * (i + 1);
	r->m.start = 0x7f0000000000ull + 0x10000ull * i;
	r->m.len = 4096ull << i;
	r->m.pgoff = 0;
	r->m.prot = PROT_READ | PROT_EXEC | (i & 1 ? PROT_WRITE : 0);
	r->m.flags = MAP_PRIVATE | MAP_ANONYMOUS;
	r->m.cause = i & 1 ? JMMAP_CAUSE_MMAP : JMMAP_CAUSE_MPROTECT;
	strcpy(r->name, name);
}

/* What perf_records__encode_mmap2() makes of @r's mapping, with its sample_id. */
static int with_id; /* several events: the trailer carries the tracking event's id, 1 */

static size_t expected(const struct jmmap_rec_mmap3 *m, const char *name, int with_cpu,
		       uint8_t *out, size_t cap)
{
	struct pr_mmap mm = {
		.pid = m->pid, .tid = m->tid, .start = m->start, .len = m->len,
		.pgoff = m->pgoff, .prot = m->prot, .flags = m->flags, .filename = name,
	};
	uint8_t id[32] = {0};
	uint64_t one = 1;
	size_t len = 16;
	int n;

	if (m->cookie_kind == JMMAP_COOKIE_ELF_BUILD_ID) {
		mm.build_id_size = m->cookie_len;
		memcpy(mm.build_id, m->cookie, m->cookie_len);
	}
	memcpy(id, &m->pid, 4);
	memcpy(id + 4, &m->tid, 4);
	memcpy(id + 8, &m->time, 8);
	if (with_id) {
		memcpy(id + len, &one, 8); /* ID follows TIME, before CPU */
		len += 8;
	}
	len += with_cpu ? 8 : 0;
	n = perf_records__encode_mmap2(&mm, PERF_RECORD_MISC_USER, id, len, out, cap);
	return n < 0 ? 0 : (size_t)n;
}

/*
 * A recorder in jmmap mode writing to a new temporary file (@path, a
 * mkstemp() template) with one event of @sample_type. 0, or -1 (said).
 */
static int open_recorder(struct record *r, struct record_event *ev, char *path,
			 uint64_t sample_type)
{
	uint64_t id = 1;
	int fd;

	fd = mkstemp(path);
	if (fd < 0) {
		checkf(0, "a temporary file: %s", strerror(errno));
		return -1;
	}
	close(fd);
	memset(r, 0, sizeof(*r));
	r->inotify_fd = -1;
	r->mmap2_from_jmmap = 1;
	r->ev = ev;
	r->nr_ev = 1;
	memset(ev, 0, sizeof(*ev));
	ev->attr.sample_type = sample_type;
	r->track_id = id;
	ev->attr.sample_id_all = 1;
	if (perf_writer__new(path, &r->w) || perf_writer__add_attr(r->w, &ev->attr, &id, 1) ||
	    perf_writer__begin(r->w)) {
		checkf(0, "a writer on %s", path);
		unlink(path);
		return -1;
	}
	return 0;
}

static void run(int with_cpu)
{
	char path[] = "/tmp/jrec-test-synth.XXXXXX";
	struct record r;
	struct got g = {.n = 0};
	struct mmap3_rec recs[NR_MAPS], file, data, snap;
	struct perf_reader *rd = NULL;
	char err[256];
	struct record_event ev;
	int i, same = 1, bad = 0;

	if (open_recorder(&r, &ev, path,
			  PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  (with_cpu ? PERF_SAMPLE_CPU : 0) | (with_id ? PERF_SAMPLE_ID : 0)))
		return;
	for (i = 0; i < NR_MAPS; i++) {
		mmap3(&recs[i], (uint32_t)i, "//anon");
		/* 1: a JIT's code, no file for the watches to look at */
		bad |= synth__mmap3(&r, &recs[i].m, recs[i].name) != 1;
	}
	/* a file with its build-id, then two that perf would not report */
	mmap3(&file, 7, "/usr/lib/libjit.so");
	file.m.flags = MAP_PRIVATE;
	file.m.pgoff = 0x3000;
	file.m.cookie_kind = JMMAP_COOKIE_ELF_BUILD_ID;
	file.m.cookie_len = 20;
	memset(file.m.cookie, 0xab, 20);
	bad |= synth__mmap3(&r, &file.m, file.name) != 0;
	mmap3(&data, 8, "//anon");
	data.m.prot = PROT_READ | PROT_WRITE;
	bad |= synth__mmap3(&r, &data.m, data.name) != 0;
	mmap3(&snap, 9, "//anon");
	snap.m.cause = JMMAP_CAUSE_SNAPSHOT;
	bad |= synth__mmap3(&r, &snap.m, snap.name) != 0;
	bad |= perf_writer__finish(r.w) != 0;
	perf_writer__free(r.w);
	watch__free(&r);
	checkf(!bad, "sample_id %s%s: synth__mmap3() and the writer succeed",
	       with_cpu ? "with CPU" : "without CPU", with_id ? ", with ID" : "");

	if (perf_reader__open(path, &rd, err, sizeof(err)) ||
	    perf_reader__for_each_event(rd, collect, &g)) {
		checkf(0, "the recording reads back: %s", err);
		perf_reader__close(rd);
		unlink(path);
		return;
	}
	for (i = 0; i < NR_MAPS && i < g.n; i++) {
		uint8_t want[256];
		size_t n = expected(&recs[i].m, "//anon", with_cpu, want, sizeof(want));

		same &= n && n == g.size[i] && !memcmp(want, g.rec[i], n);
	}
	checkf(g.n == NR_MAPS + 1 && same,
	      "sample_id %s%s: %d MMAP2s for %d anonymous code mappings and a file, the anonymous ones as perf_records__encode_mmap2() encodes them",
	      with_cpu ? "with CPU" : "without CPU", with_id ? ", with ID" : "", g.n, NR_MAPS);
	if (g.n == NR_MAPS + 1) {
		uint8_t want[256];
		size_t n = expected(&file.m, file.name, with_cpu, want, sizeof(want));

		checkf(n && n == g.size[NR_MAPS] && !memcmp(want, g.rec[NR_MAPS], n) &&
			      (((const struct perf_event_header *)g.rec[NR_MAPS])->misc &
			       PERF_RECORD_MISC_MMAP_BUILD_ID),
		      "sample_id %s%s: the file's MMAP2 carries its build-id",
		      with_cpu ? "with CPU" : "without CPU", with_id ? ", with ID" : "");
	}
	perf_reader__close(rd);
	unlink(path);
}

/* The times of the MMAP2s in a recording, in order. */
struct times {
	uint64_t t[16];
	int n;
};

static int collect_time(const struct pr_event *ev, void *ctx)
{
	struct times *g = ctx;
	uint64_t t;

	/* without CPU or ID, the trailer ends with the time */
	if (ev->type != PERF_RECORD_MMAP2 || g->n >= 16 || ev->size < 8)
		return 0;
	memcpy(&t, (const uint8_t *)ev->raw + ev->size - 8, 8);
	g->t[g->n++] = t;
	return 0;
}

/*
 * An "//anon" MMAP2 that would be the last one again (the same process and
 * numbers, a W^X JIT making its page executable again) is not written
 * while nothing that could change perf's maps came between: not after
 * another process's, nor another range's, nor once map_events moved (a
 * record of the rings, another MMAP2 written).
 */
static void repeats(void)
{
	char path[] = "/tmp/jrec-test-synth.XXXXXX";
	struct record r;
	struct record_event ev;
	struct mmap3_rec a, file;
	struct perf_reader *rd = NULL;
	struct times g = {.n = 0};
	char err[256];
	uint64_t want[] = {1, 3, 4, 5, 6, 8, 9};
	int i, bad = 0, same;

	if (open_recorder(&r, &ev, path, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME))
		return;
	mmap3(&a, 0, "//anon");
	mmap3(&file, 7, "/usr/lib/libjit.so");
	file.m.flags = MAP_PRIVATE;
	for (i = 1; i <= 9; i++) {
		a.m.time = (uint64_t)i;
		a.m.tid = 2000 + (uint32_t)i; /* another thread of the process: the same maps */
		if (i == 3)
			r.map_events++; /* a record of the rings between */
		if (i == 4)
			a.m.len *= 2; /* another range */
		if (i == 5)
			a.m.pid = 1001; /* another process */
		if (i == 6)
			a.m.pid = 1000; /* back: the last one written was the other's */
		if (i == 8) {
			file.m.time = 8;
			bad |= synth__mmap3(&r, &file.m, file.name) != 0;
			continue;
		}
		bad |= synth__mmap3(&r, &a.m, a.name) != 1;
	}
	bad |= perf_writer__finish(r.w) != 0;
	perf_writer__free(r.w);
	watch__free(&r);
	if (bad || perf_reader__open(path, &rd, err, sizeof(err)) ||
	    perf_reader__for_each_event(rd, collect_time, &g)) {
		checkf(0, "the repeats' recording is written and reads back (%s)", bad ? "" : err);
		perf_reader__close(rd);
		unlink(path);
		return;
	}
	same = g.n == (int)(sizeof(want) / sizeof(want[0]));
	for (i = 0; same && i < g.n; i++)
		same = g.t[i] == want[i];
	checkf(same,
	       "nine anonymous MMAP3s and a file's: MMAP2s at times 1 3 4 5 6 8 9, the ones that "
	       "repeat the last with nothing between (2, 7) left out (%d MMAP2s)", g.n);
	perf_reader__close(rd);
	unlink(path);
}

int main(void)
{
	repeats();
	run(0);
	run(1);
	with_id = 1; /* as with -e a,b */
	run(0);
	run(1);
	/* the anonymous MMAP2's encoded copy is for exactly "//anon" */
	check(map_name__is_slash_anon("//anon"), "\"//anon\" is anonymous memory's name");
	check(!map_name__is_slash_anon("//anon2") && !map_name__is_slash_anon("//ano") &&
		      !map_name__is_slash_anon("/anon") && !map_name__is_slash_anon("//anon:x") &&
		      !map_name__is_slash_anon(""),
	      "\"//anon2\", \"//ano\", \"/anon\", \"//anon:x\" and \"\" are not");
	return tap_done();
}
