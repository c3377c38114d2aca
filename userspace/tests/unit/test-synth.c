// SPDX-License-Identifier: GPL-2.0
/*
 * The MMAP2 records jrec record writes for the module's MMAP3s: anonymous
 * code, which goes through an encoded record with its numbers changed, comes
 * out byte for byte as perf_records__encode_mmap2() makes it, with and
 * without the CPU in sample_id, for mappings that differ in every number;
 * a file mapping with a build-id carries it; what perf would not report
 * (no PROT_EXEC, a snapshot) gives nothing.
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

static void run(int with_cpu)
{
	char path[] = "/tmp/jrec-test-synth.XXXXXX";
	struct record r;
	struct got g = {.n = 0};
	struct mmap3_rec recs[NR_MAPS], file, data, snap;
	struct perf_reader *rd = NULL;
	char err[256];
	struct record_event ev;
	uint64_t id = 1;
	int fd, i, same = 1, bad = 0;

	fd = mkstemp(path);
	if (fd < 0) {
		checkf(0, "a temporary file: %s", strerror(errno));
		return;
	}
	close(fd);
	memset(&r, 0, sizeof(r));
	r.inotify_fd = -1;
	r.mmap2_from_jmmap = 1;
	r.ev = &ev;
	r.nr_ev = 1;
	memset(&ev, 0, sizeof(ev));
	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      (with_cpu ? PERF_SAMPLE_CPU : 0) | (with_id ? PERF_SAMPLE_ID : 0);
	r.track_id = id;
	ev.attr.sample_id_all = 1;
	if (perf_writer__new(path, &r.w) || perf_writer__add_attr(r.w, &ev.attr, &id, 1) ||
	    perf_writer__begin(r.w)) {
		checkf(0, "a writer on %s", path);
		unlink(path);
		return;
	}
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

int main(void)
{
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
