// SPDX-License-Identifier: GPL-2.0
/*
 * perf-reader against perf.data images built here field by field, in both
 * byte orders: header, attribute and ids, samples with call chains and the
 * sample_id_all trailer of other records, samples with user registers and
 * stack copies, and the cut-short and corrupt paths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf-reader.h"
#include "tap.h"

struct img {
	uint8_t b[8192];
	size_t len;
	int swap;
};

static void p16(struct img *m, size_t off, uint16_t v)
{
	if (m->swap)
		v = __builtin_bswap16(v);
	memcpy(m->b + off, &v, 2);
}

static void p32(struct img *m, size_t off, uint32_t v)
{
	if (m->swap)
		v = __builtin_bswap32(v);
	memcpy(m->b + off, &v, 4);
}

static void p64(struct img *m, size_t off, uint64_t v)
{
	if (m->swap)
		v = __builtin_bswap64(v);
	memcpy(m->b + off, &v, 8);
}

static uint64_t bitrev64(uint64_t v)
{
	uint64_t o = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (v & (1ULL << i))
			o |= 1ULL << (63 - i);
	return o;
}

#define HDR 104
#define ATTR_SZ 128 /* perf_event_attr (112) + ids section (16) */
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID)

/* trailer for TID|TIME|ID: pid, tid, time, id */
static size_t trailer(struct img *m, size_t off, uint32_t pid, uint64_t time)
{
	p32(m, off, pid);
	p32(m, off + 4, pid);
	p64(m, off + 8, time);
	p64(m, off + 16, 77);
	return off + 24;
}

/* The file header for data at [@data_start, @off), and one feature: HOSTNAME. */
static void finish(struct img *m, size_t data_start, size_t off)
{
	const char *host = "testhost";
	size_t feat_off;

	memcpy(m->b, "PERFILE2", 8);
	if (m->swap) {
		uint64_t mg;

		memcpy(&mg, m->b, 8);
		mg = __builtin_bswap64(mg);
		memcpy(m->b, &mg, 8);
	}
	p64(m, 8, HDR);
	p64(m, 16, ATTR_SZ);
	p64(m, 24, HDR);
	p64(m, 32, ATTR_SZ);
	p64(m, 40, data_start);
	p64(m, 48, off - data_start);
	/* HOSTNAME is bit 3 */
	p64(m, 72, 1ULL << PERF_FEAT_HOSTNAME);
	feat_off = off + 16;
	p64(m, off, feat_off);
	p64(m, off + 8, 4 + 16);
	p32(m, feat_off, 16);
	memcpy(m->b + feat_off + 4, host, strlen(host) + 1);
	m->len = feat_off + 20;
}

/* Build a small recording; returns the data section's end. */
static size_t build(struct img *m, int swap)
{
	size_t off, rec, data_start;
	/* sample_id_all, freq, use_clockid, and exclude_guest as perf record sets it */
	uint64_t flags = (1ULL << 18) | (1ULL << 10) | (1ULL << 25) | (1ULL << 20);

	memset(m, 0, sizeof(*m));
	m->swap = swap;
	/* attr at HDR, ids right after it */
	p32(m, HDR + 0, PERF_TYPE_SOFTWARE);
	p32(m, HDR + 4, 112);
	p64(m, HDR + 8, PERF_COUNT_SW_CPU_CLOCK);
	p64(m, HDR + 16, 4000);
	p64(m, HDR + 24, ST);
	p64(m, HDR + 40, swap ? bitrev64(flags) : flags);
	p32(m, HDR + 92, 1);
	p64(m, HDR + 112, HDR + ATTR_SZ); /* ids.offset */
	p64(m, HDR + 120, 8);             /* ids.size */
	p64(m, HDR + ATTR_SZ, 77);        /* the one id */
	data_start = HDR + ATTR_SZ + 8;
	off = data_start;

	/* COMM pid 10 "prog" */
	rec = off;
	p32(m, rec, PERF_RECORD_COMM);
	p16(m, rec + 4, PERF_RECORD_MISC_COMM_EXEC);
	p32(m, rec + 8, 10);
	p32(m, rec + 12, 10);
	memcpy(m->b + rec + 16, "prog\0\0\0\0", 8);
	off = trailer(m, rec + 24, 10, 100);
	p16(m, rec + 6, (uint16_t)(off - rec));

	/* MMAP2 with a build-id */
	rec = off;
	p32(m, rec, PERF_RECORD_MMAP2);
	p16(m, rec + 4, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	p32(m, rec + 8, 10);
	p32(m, rec + 12, 10);
	p64(m, rec + 16, 0x400000);
	p64(m, rec + 24, 0x1000);
	p64(m, rec + 32, 0);
	m->b[rec + 40] = 20;
	memset(m->b + rec + 44, 0xab, 20);
	p32(m, rec + 64, 5);
	p32(m, rec + 68, 2);
	memcpy(m->b + rec + 72, "/bin/prog\0\0\0\0\0\0\0", 16);
	off = trailer(m, rec + 88, 10, 200);
	p16(m, rec + 6, (uint16_t)(off - rec));

	/* SAMPLE: ip, pid/tid, time, id, period, callchain of 2 */
	rec = off;
	p32(m, rec, PERF_RECORD_SAMPLE);
	p16(m, rec + 4, PERF_RECORD_MISC_USER);
	p64(m, rec + 8, 0x400123);
	p32(m, rec + 16, 10);
	p32(m, rec + 20, 11);
	p64(m, rec + 24, 300);
	p64(m, rec + 32, 77);
	p64(m, rec + 40, 250000);
	p64(m, rec + 48, 2);
	p64(m, rec + 56, 0x400123);
	p64(m, rec + 64, 0x400456);
	off = rec + 72;
	p16(m, rec + 6, (uint16_t)(off - rec));

	/* FINISHED_ROUND: a perf-tool record, header only */
	p32(m, off, 68);
	p16(m, off + 6, 8);
	off += 8;

	finish(m, data_start, off);
	return off;
}

struct seen {
	int comm, mmap2, sample, other;
	uint64_t ip, time, period, cc1, mtime;
	uint32_t pid, tid;
	char comm_str[16], file[32];
	uint8_t bid0, bid_size;
	uint32_t prot;
	const struct perf_reader *r;
};

static int on_ev(const struct pr_event *ev, void *ctx)
{
	struct seen *s = ctx;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		s->comm++;
		snprintf(s->comm_str, sizeof(s->comm_str), "%s", ev->comm.comm);
		break;
	case PERF_RECORD_MMAP2:
		s->mmap2++;
		snprintf(s->file, sizeof(s->file), "%s", ev->mmap.filename);
		s->bid0 = ev->mmap.build_id[0];
		s->bid_size = ev->mmap.build_id_size;
		s->prot = ev->mmap.prot;
		s->mtime = ev->id.time;
		break;
	case PERF_RECORD_SAMPLE:
		s->sample++;
		s->ip = ev->sample.ip;
		s->pid = ev->id.pid;
		s->tid = ev->id.tid;
		s->time = ev->id.time;
		s->period = ev->sample.period;
		if (ev->sample.nr_callchain == 2)
			s->cc1 = pr_callchain_at(s->r, &ev->sample, 1);
		break;
	default:
		s->other++;
	}
	return 0;
}

static void one_order(int swap)
{
	struct img *m = malloc(sizeof(*m));
	struct perf_reader *r;
	struct seen s = { 0 };
	char err[256] = "", host[64], what[400];
	const char *order = swap ? "swapped" : "native";
	int ret;

	build(m, swap);
	ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
	snprintf(what, sizeof(what), "%s: opens (%s)", order, err);
	check(ret == 0, what);
	if (ret) {
		free(m);
		return;
	}
	snprintf(what, sizeof(what), "%s: byte order detected", order);
	check(perf_reader__swapped(r) == swap, what);
	snprintf(what, sizeof(what), "%s: attribute decoded (sample_id_all, clockid 1, cpu-clock)",
		 order);
	check(perf_reader__nr_attrs(r) == 1 && perf_reader__attr(r, 0)->sample_id_all &&
		      perf_reader__attr(r, 0)->use_clockid && perf_reader__attr(r, 0)->clockid == 1 &&
		      !strcmp(perf_reader__attr(r, 0)->name, "cpu-clock"),
	      what);
	s.r = r;
	ret = perf_reader__for_each_event(r, on_ev, &s);
	snprintf(what, sizeof(what), "%s: every record delivered", order);
	check(!ret && s.comm == 1 && s.mmap2 == 1 && s.sample == 1 && s.other == 1, what);
	snprintf(what, sizeof(what), "%s: sample fields", order);
	check(s.ip == 0x400123 && s.pid == 10 && s.tid == 11 && s.time == 300 && s.period == 250000 &&
		      s.cc1 == 0x400456,
	      what);
	snprintf(what, sizeof(what), "%s: MMAP2 build-id, prot, file and trailer time", order);
	check(!strcmp(s.file, "/bin/prog") && s.bid0 == 0xab && s.bid_size == 20 && s.prot == 5 &&
		      s.mtime == 200,
	      what);
	snprintf(what, sizeof(what), "%s: COMM", order);
	check(!strcmp(s.comm_str, "prog"), what);
	snprintf(what, sizeof(what), "%s: HOSTNAME feature", order);
	check(perf_reader__feature_string(r, PERF_FEAT_HOSTNAME, host, sizeof(host)) &&
		      !strcmp(host, "testhost"),
	      what);
	snprintf(what, sizeof(what), "%s: complete file is not cut short", order);
	check(perf_reader__cut_short(r) == PR_CUT_NONE, what);
	perf_reader__close(r);
	free(m);
}

/*
 * --call-graph dwarf samples: the user registers (two of them, by the
 * attribute's mask) and the stack copy, whose dynamic size says how much of
 * it holds data; a copy whose dynamic size is missing is a bad record.
 */
struct user_seen {
	const struct perf_reader *r;
	uint64_t abi, reg0, reg1, stack_size;
	unsigned int nr_regs;
	uint8_t stack0;
	int samples;
};

static int on_user(const struct pr_event *ev, void *ctx)
{
	struct user_seen *u = ctx;

	if (ev->type != PERF_RECORD_SAMPLE)
		return 0;
	u->samples++;
	u->abi = ev->sample.regs_abi;
	u->nr_regs = ev->sample.nr_regs;
	if (ev->sample.nr_regs == 2) {
		u->reg0 = pr_reg_at(u->r, &ev->sample, 0);
		u->reg1 = pr_reg_at(u->r, &ev->sample, 1);
	}
	u->stack_size = ev->sample.stack_size;
	u->stack0 = ev->sample.stack ? *(const uint8_t *)ev->sample.stack : 0;
	return 0;
}

static size_t user_image(struct img *m, int swap, int cut_dyn_size)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_CALLCHAIN |
		      PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	size_t data_start = HDR + ATTR_SZ + 8, rec = data_start, off;

	memset(m, 0, sizeof(*m));
	m->swap = swap;
	p32(m, HDR + 0, PERF_TYPE_SOFTWARE);
	p32(m, HDR + 4, 112);
	p64(m, HDR + 24, st);
	p64(m, HDR + 80, 0x81); /* sample_regs_user: two registers */
	p32(m, HDR + 104, 32);	/* sample_stack_user */
	p64(m, HDR + 112, HDR + ATTR_SZ);
	p64(m, HDR + 120, 8);
	p64(m, HDR + ATTR_SZ, 77);
	p32(m, rec, PERF_RECORD_SAMPLE);
	p16(m, rec + 4, PERF_RECORD_MISC_USER);
	p64(m, rec + 8, 0x400123);
	p32(m, rec + 16, 10);
	p32(m, rec + 20, 10);
	p64(m, rec + 24, 77);
	p64(m, rec + 32, 0);		/* no kernel chain */
	p64(m, rec + 40, 2);		/* PERF_SAMPLE_REGS_ABI_64 */
	p64(m, rec + 48, 0x7ffd1000);	/* bit 0 */
	p64(m, rec + 56, 0x400123);	/* bit 7 */
	p64(m, rec + 64, 32);		/* stack copy size */
	memset(m->b + rec + 72, 0x5a, 32);
	off = rec + 104;
	if (!cut_dyn_size) {
		p64(m, off, 24); /* dynamic size */
		off += 8;
	}
	p16(m, rec + 6, (uint16_t)(off - rec));
	finish(m, data_start, off);
	return off;
}

static void user_stacks(int swap)
{
	struct img *m = malloc(sizeof(*m));
	struct user_seen u = { 0 };
	struct perf_reader *r;
	char err[256] = "", what[200];
	const char *order = swap ? "swapped" : "native";

	user_image(m, swap, 0);
	if (perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err))) {
		check(0, err);
		free(m);
		return;
	}
	u.r = r;
	perf_reader__for_each_event(r, on_user, &u);
	snprintf(what, sizeof(what), "%s: user registers and stack copy of a dwarf sample", order);
	check(u.samples == 1 && u.abi == 2 && u.nr_regs == 2 && u.reg0 == 0x7ffd1000 &&
		      u.reg1 == 0x400123 && u.stack_size == 24 && u.stack0 == 0x5a,
	      what);
	perf_reader__close(r);
	user_image(m, swap, 1);
	memset(&u, 0, sizeof(u));
	if (!perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err))) {
		u.r = r;
		perf_reader__for_each_event(r, on_user, &u);
		snprintf(what, sizeof(what), "%s: a stack copy without its dynamic size is a bad record",
			 order);
		check(u.samples == 0 && perf_reader__nr_bad(r) == 1, what);
		perf_reader__close(r);
	}
	free(m);
}

static void cut_short(void)
{
	struct img *m = malloc(sizeof(*m));
	struct perf_reader *r;
	struct seen s = { 0 };
	char err[256];
	size_t end = build(m, 0);
	uint64_t zero = 0;
	int ret;

	/* a writer killed before it finalised: data.size 0, no features, file ends mid-record */
	memcpy(m->b + 48, &zero, 8);
	memset(m->b + 72, 0, 32);
	ret = perf_reader__open_mem(m->b, end - 20, &r, err, sizeof(err));
	check(ret == 0, "cut short: opens");
	if (ret) {
		free(m);
		return;
	}
	s.r = r;
	ret = perf_reader__for_each_event(r, on_ev, &s);
	check(!ret && s.comm == 1 && s.mmap2 == 1 && s.sample == 0,
	      "cut short: the records before the cut are delivered, the partial one is not");
	check(perf_reader__cut_short(r) != PR_CUT_NONE, "cut short: reported as cut short");
	perf_reader__close(r);
	free(m);
}

static void no_features(void)
{
	struct img *m = malloc(sizeof(*m));
	struct perf_reader *r;
	struct seen s = { 0 };
	char err[256];
	int ret;

	/* killed outright after a batch: data.size current, feature bitmap empty */
	build(m, 0);
	memset(m->b + 72, 0, 32);
	ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
	check(ret == 0, "no feature sections: opens");
	if (ret) {
		free(m);
		return;
	}
	s.r = r;
	ret = perf_reader__for_each_event(r, on_ev, &s);
	check(!ret && s.sample == 1 && perf_reader__cut_short(r) == PR_CUT_NO_FEATURES,
	      "no feature sections: every record read, reported as cut short");
	perf_reader__close(r);
	free(m);
}

static void corrupt(void)
{
	struct img *m = malloc(sizeof(*m));
	struct perf_reader *r;
	char err[256] = "";
	uint64_t v;
	int ret;

	build(m, 0);
	memcpy(m->b, "NOTPERF!", 8);
	ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
	check(ret == -EINVAL && !r && strstr(err, "not a perf.data"),
	      "bad magic: -EINVAL and a one-line reason");

	build(m, 0);
	v = 1ULL << 40;
	memcpy(m->b + 24, &v, 8); /* attrs.offset beyond the file */
	err[0] = 0;
	ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
	check(ret == -EBADMSG && err[0], "attribute section outside the file: -EBADMSG");

	build(m, 0);
	v = 3;
	memcpy(m->b + 16, &v, 8); /* attr_size */
	ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
	check(ret == -EBADMSG, "impossible attribute size: -EBADMSG");

	ret = perf_reader__open_mem(m->b, 10, &r, err, sizeof(err));
	check(ret == -EINVAL, "ten bytes: not a recording");

	build(m, 0);
	{
		/* a sample whose call chain claims more entries than the record holds */
		size_t data = 104 + 128 + 8;
		struct seen s = { 0 };
		size_t off = data;
		uint16_t sz;

		memcpy(&sz, m->b + off + 6, 2);
		off += sz;
		memcpy(&sz, m->b + off + 6, 2);
		off += sz; /* now at the sample */
		v = 1000;
		memcpy(m->b + off + 48, &v, 8);
		ret = perf_reader__open_mem(m->b, m->len, &r, err, sizeof(err));
		if (!ret) {
			s.r = r;
			ret = perf_reader__for_each_event(r, on_ev, &s);
			check(!ret && s.sample == 0 && perf_reader__nr_bad(r) == 1 && s.other == 1,
			      "call chain longer than its record: skipped and counted, walk goes on");
			perf_reader__close(r);
		} else {
			check(0, "call chain longer than its record: opens");
		}
	}
	free(m);
}

/* perf_records__encode_mmap2() and the decoder agree, in both MMAP2 forms. */
static void mmap2_round_trip(void)
{
	static const uint8_t trailer[32] = {1, 2, 3, 4, 5, 6, 7, 8};
	uint8_t rec[256], small[100];
	struct pr_mmap in, out;
	int n;

	memset(&in, 0, sizeof(in));
	in.pid = 7;
	in.tid = 8;
	in.start = 0x7f0000001000ull;
	in.len = 0x1000;
	in.pgoff = 0x2000;
	in.maj = 8;
	in.min = 1;
	in.ino = 1234;
	in.ino_generation = 99;
	in.prot = 5;
	in.flags = 2;
	in.filename = "/usr/lib/libx.so";
	n = perf_records__encode_mmap2(&in, PERF_RECORD_MISC_USER, trailer, sizeof(trailer), rec,
				       sizeof(rec));
	check(n == 8 + 64 + 24 + 32 && !perf_records__decode_mmap(rec, (size_t)n, 32, &out) &&
		      out.is_mmap2 && out.pid == 7 && out.tid == 8 && out.start == in.start &&
		      out.len == 0x1000 && out.pgoff == 0x2000 && out.maj == 8 && out.min == 1 &&
		      out.ino == 1234 && out.ino_generation == 99 && out.prot == 5 && out.flags == 2 &&
		      !out.build_id_size && !strcmp(out.filename, in.filename) &&
		      !memcmp(rec + n - 32, trailer, 32),
	      "MMAP2 encoded with device and inode decodes to the same fields and trailer");
	in.build_id_size = 20;
	memset(in.build_id, 0xab, 20);
	in.filename = "//anon";
	n = perf_records__encode_mmap2(&in, PERF_RECORD_MISC_USER, trailer, sizeof(trailer), rec,
				       sizeof(rec));
	check(n == 8 + 64 + 8 + 32 && !perf_records__decode_mmap(rec, (size_t)n, 32, &out) &&
		      (((const struct perf_event_header *)rec)->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		      out.build_id_size == 20 && out.build_id[19] == 0xab && out.prot == 5 &&
		      !strcmp(out.filename, "//anon"),
	      "MMAP2 encoded with a build-id sets MISC_MMAP_BUILD_ID and decodes to the same id");
	check(perf_records__encode_mmap2(&in, 0, trailer, sizeof(trailer), small, sizeof(small)) ==
		      -E2BIG,
	      "MMAP2 larger than the buffer: -E2BIG");
	in.build_id_size = 21;
	check(perf_records__encode_mmap2(&in, 0, trailer, sizeof(trailer), rec, sizeof(rec)) ==
		      -EINVAL,
	      "a build-id longer than 20 bytes: -EINVAL");
}

int main(void)
{
	printf("TAP version 13\n");
	mmap2_round_trip();
	one_order(0);
	one_order(1);
	user_stacks(0);
	user_stacks(1);
	cut_short();
	no_features();
	corrupt();
	return tap_done();
}
