// SPDX-License-Identifier: GPL-2.0
/*
 * samples, the report's one pass over the samples: over a recording made
 * here (a COMM, an MMAP2 of this test's own executable, samples in three of
 * its functions with and without call chains, one chain with a hypervisor
 * part), each sample comes with its process, thread, time, period, event and
 * command, its own function and its frames, the same whichever of them a
 * view asks for first and in which order (the table asks for the command
 * first, script for its own function, archive for the frames), and the same
 * as resolving each address alone. A second recording, of a sample in
 * anonymous code, is named by the perf-map lines that jrec top hands the
 * session beside the recording (session__add_side_files()), and only then.
 */
#include <link.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "jrec-sections.h"
#include "perf-writer.h"
#include "report/samples.h"
#include "report/session.h"
#include "bytes.h"
#include "tap.h"

#define PID 4242u
#define NR_SAMPLES 3

__attribute__((noinline)) int leaf_fn(int x);
__attribute__((noinline)) int mid_fn(int x);
__attribute__((noinline)) int top_fn(int x);

__attribute__((noinline)) int leaf_fn(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int mid_fn(int x)
{
	return leaf_fn(x) + 2;
}

__attribute__((noinline)) int top_fn(int x)
{
	return mid_fn(x) * 5;
}


static void begin(struct bytes *r, uint32_t type)
{
	struct perf_event_header h = {.type = type};

	memset(r, 0, sizeof(*r));
	bytes__put(r, &h, sizeof(h));
}

/* A name padded to 8 bytes. */
static void put_name(struct bytes *r, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) / 8 * 8;

	bytes__put(r, s, n);
	r->len += pad - n;
}

/* The sample_id trailer (TID, TIME), then the header's size. */
static int end(struct perf_writer *w, struct bytes *r, uint64_t time)
{
	bytes__u32(r, PID);
	bytes__u32(r, PID);
	bytes__u64(r, time);
	((struct perf_event_header *)r->b)->size = (uint16_t)r->len;
	return perf_writer__write(w, r->b, r->len);
}

static int sample(struct perf_writer *w, uint64_t ip, uint64_t time, const uint64_t *chain,
		  size_t nr)
{
	struct bytes r;
	size_t i;

	begin(&r, PERF_RECORD_SAMPLE);
	bytes__u64(&r, ip);
	bytes__u32(&r, PID);
	bytes__u32(&r, PID);
	bytes__u64(&r, time);
	bytes__u64(&r, 1000); /* period */
	bytes__u64(&r, nr);
	for (i = 0; i < nr; i++)
		bytes__u64(&r, chain[i]);
	((struct perf_event_header *)r.b)->size = (uint16_t)r.len;
	((struct perf_event_header *)r.b)->misc = PERF_RECORD_MISC_USER;
	return perf_writer__write(w, r.b, r.len);
}

static int first_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	*(uint64_t *)arg = info->dlpi_addr;
	return 1;
}

static uint64_t ip_of(int (*fn)(int))
{
	return (uint64_t)(uintptr_t)fn + 4; /* inside, not at the symbol's start */
}

/*
 * A recording's start: the attr, a COMM of @comm at 100, an MMAP2 of @name
 * (@len bytes at @start, executable) at 200. 0 or -errno; *@w to free.
 */
static int start_recording(const char *path, struct perf_writer **w, const char *comm,
			   uint64_t start, uint64_t len, const char *name)
{
	struct perf_event_attr attr = {0};
	uint64_t id = 1;
	struct bytes r;
	int err;

	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	attr.exclude_guest = 1; /* as perf record and jrec record set it: the event is "cpu-clock" */
	attr.mmap2 = 1;
	attr.comm = 1;
	*w = NULL;
	err = perf_writer__new(path, w);
	if (!err)
		err = perf_writer__add_attr(*w, &attr, &id, 1);
	if (!err)
		err = perf_writer__begin(*w);
	begin(&r, PERF_RECORD_COMM);
	bytes__u32(&r, PID);
	bytes__u32(&r, PID);
	put_name(&r, comm);
	if (!err)
		err = end(*w, &r, 100);
	begin(&r, PERF_RECORD_MMAP2);
	bytes__u32(&r, PID);
	bytes__u32(&r, PID);
	bytes__u64(&r, start);
	bytes__u64(&r, len);
	bytes__u64(&r, 0);
	bytes__u32(&r, 0);
	bytes__u32(&r, 0);
	bytes__u64(&r, 0);
	bytes__u64(&r, 0);
	bytes__u32(&r, PROT_READ | PROT_EXEC);
	bytes__u32(&r, MAP_PRIVATE);
	put_name(&r, name);
	if (!err)
		err = end(*w, &r, 200);
	return err;
}

static int make_recording(const char *path, const char *exe)
{
	struct perf_writer *w;
	uint64_t base = 0;
	uint64_t leaf = ip_of(leaf_fn), mid = ip_of(mid_fn), top = ip_of(top_fn);
	const uint64_t chain0[] = {PERF_CONTEXT_USER, leaf, mid, top};
	const uint64_t chain2[] = {PERF_CONTEXT_HV, 0x1234, PERF_CONTEXT_USER, leaf, mid};
	int err;

	dl_iterate_phdr(first_phdr, &base);
	err = start_recording(path, &w, "unit-comm", base, 64ULL << 20, exe);
	if (!err)
		err = sample(w, leaf, 1000, chain0, 4);
	if (!err)
		err = sample(w, mid, 2000, NULL, 0);
	if (!err)
		err = sample(w, leaf, 3000, chain2, 5);
	if (!err)
		err = perf_writer__finish(w);
	perf_writer__free(w);
	return err;
}

#define ANON_START 0x7f1234560000ull
#define ANON_IP (ANON_START + 0x10)

/* A COMM, an MMAP2 of anonymous code, one sample in it. */
static int make_anon_recording(const char *path)
{
	struct perf_writer *w;
	int err = start_recording(path, &w, "unit-jit", ANON_START, 0x10000, "//anon");

	if (!err)
		err = sample(w, ANON_IP, 1000, NULL, 0);
	if (!err)
		err = perf_writer__finish(w);
	perf_writer__free(w);
	return err;
}

/* The own function of the anonymous recording's one sample, through the pass. */
static int anon_self(struct samples *it, const struct sample *smp, void *ctx)
{
	const char **sym = ctx;

	*sym = samples__self(it)->sym;
	return 0;
}

/* The sample's function in @path, with @side perf-map lines (or none) beside the recording. */
static const char *anon_sym(const char *path, const struct buf *side, char *out, size_t len)
{
	char err[256];
	const char *sym = NULL;
	struct samples it;
	struct session s;

	snprintf(out, len, "(cannot load)");
	if (session__open(&s, path, err, sizeof(err)))
		return out;
	if (side)
		session__add_side_files(&s, NULL, 0, side->data, side->len);
	if (!session__load(&s) && !samples__init(&it, &s)) {
		if (!samples__for_each(&it, anon_self, NULL, &sym))
			snprintf(out, len, "%s", sym ? sym : "(unnamed)");
		samples__release(&it);
	}
	session__close(&s);
	return out;
}

static void side_files(const char *dir)
{
	static const char line[] = "7f1234560000 100 side_fn";
	struct jrec_perfmap_rec l = { 500, PID, line, sizeof(line) - 1 };
	char path[64], map[64], sym[128];
	struct buf side = BUF_INIT;

	snprintf(map, sizeof(map), "/tmp/perf-%u.map", PID);
	if (!access(map, F_OK)) {
		skip("perf-map lines beside a recording name its anonymous code",
		     "this machine has a perf map of the test's pid");
		return;
	}
	snprintf(path, sizeof(path), "%s/anon.data", dir);
	check(!make_anon_recording(path), "a recording of a sample in anonymous code is written");
	anon_sym(path, NULL, sym, sizeof(sym));
	check(!strcmp(sym, "(unnamed)"), "without side files the anonymous code is unnamed");
	if (strcmp(sym, "(unnamed)"))
		printf("# %s\n", sym);
	check(!jrec_perfmaps__emit(&side, &l), "a PERFMAP entry is made");
	anon_sym(path, &side, sym, sizeof(sym));
	check(!strcmp(sym, "side_fn"), "with the perf-map line beside the recording it is side_fn");
	if (strcmp(sym, "side_fn"))
		printf("# %s\n", sym);
	buf__release(&side);
	unlink(path);
}

/* What one view saw of each sample, as text. */
struct seen {
	char s[NR_SAMPLES][512];
	int n, bad;
	int order; /* 0: frames first; 1: command, own function, then frames; 2: own function only */
};

static void add(char *buf, const char *what)
{
	size_t l = strlen(buf);

	snprintf(buf + l, 512 - l, "%s|", what ? what : "?");
}

static int view(struct samples *it, const struct sample *smp, void *ctx)
{
	struct seen *v = ctx;
	const struct sample_frames *fr = NULL;
	const struct resolved *self;
	char *buf, num[64];
	size_t i;

	if (v->n >= NR_SAMPLES) {
		v->bad = 1;
		return 0;
	}
	buf = v->s[v->n++];
	if (v->order == 0 && samples__frames(it, &fr))
		v->bad = 1;
	snprintf(num, sizeof(num), "%u/%u %llu %llu %zu %s", smp->pid, smp->tid,
		 (unsigned long long)smp->time, (unsigned long long)smp->period, smp->event,
		 smp->event_name);
	add(buf, num);
	add(buf, samples__comm(it));
	self = samples__self(it);
	add(buf, self->sym);
	if (v->order == 2)
		return 0;
	if (!fr && samples__frames(it, &fr))
		v->bad = 1;
	if (!fr)
		return 0;
	snprintf(num, sizeof(num), "chain %zu first %d", fr->nr_chain, fr->first_is_ip);
	add(buf, num);
	for (i = 0; i < fr->nr; i++) {
		snprintf(num, sizeof(num), "%llx", (unsigned long long)fr->ips[i]);
		add(buf, num);
		add(buf, fr->res[i].sym);
	}
	return 0;
}

static int pass(struct session *s, struct seen *v, int order)
{
	struct samples it;
	int err;

	memset(v, 0, sizeof(*v));
	v->order = order;
	err = samples__init(&it, s);
	if (!err)
		err = samples__for_each(&it, view, NULL, v);
	samples__release(&it);
	return err || v->bad;
}

/* The same sample's line made by resolving each address alone. */
static void expect(struct session *s, char *buf, uint64_t time, uint64_t ip, size_t nr_chain,
		   int first, const uint64_t *ips, size_t nr)
{
	struct resolved res;
	char num[64];
	size_t i;

	buf[0] = 0;
	snprintf(num, sizeof(num), "%u/%u %llu 1000 0 cpu-clock", PID, PID,
		 (unsigned long long)time);
	add(buf, num);
	add(buf, "unit-comm");
	session__resolve(s, PID, ip, time, PERF_RECORD_MISC_USER, &res);
	add(buf, res.sym);
	snprintf(num, sizeof(num), "chain %zu first %d", nr_chain, first);
	add(buf, num);
	for (i = 0; i < nr; i++) {
		session__resolve(s, PID, ips[i], time, PERF_RECORD_MISC_USER, &res);
		snprintf(num, sizeof(num), "%llx", (unsigned long long)ips[i]);
		add(buf, num);
		add(buf, res.sym);
	}
}

int main(void)
{
	char dir[] = "/tmp/test-samples.XXXXXX", path[64], exe[4096], err[256] = "", what[160];
	static char want[NR_SAMPLES][512];
	static struct seen a, b, c;
	uint64_t leaf = ip_of(leaf_fn), mid = ip_of(mid_fn), top = ip_of(top_fn);
	const uint64_t f0[] = {leaf, mid, top}, f1[] = {mid}, f2[] = {leaf, mid};
	struct session s;
	ssize_t n;
	int i, ok;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !mkdtemp(dir)) {
		skip("the samples of a recording of this program", "no /proc/self/exe or /tmp");
		return tap_done();
	}
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/unit.data", dir);
	check(!make_recording(path, exe), "a recording of three samples is written");
	ok = !session__open(&s, path, err, sizeof(err));
	check(ok && !session__load(&s), "the recording opens and loads");
	if (!ok)
		return tap_done();
	check(!pass(&s, &a, 0), "frames first: every sample, once");
	check(!pass(&s, &b, 1), "command and own function first: every sample, once");
	check(!pass(&s, &c, 2), "own function only: every sample, once");
	check(a.n == NR_SAMPLES && b.n == NR_SAMPLES, "three samples seen");
	expect(&s, want[0], 1000, leaf, 3, 1, f0, 3);
	expect(&s, want[1], 2000, mid, 0, 0, f1, 1);
	expect(&s, want[2], 3000, leaf, 2, 0, f2, 2);
	check(strstr(want[0], "|leaf_fn|") && strstr(want[0], "|mid_fn|") &&
		      strstr(want[0], "|top_fn|"),
	      "the test's own functions resolve by their ELF symbols");
	for (i = 0; i < NR_SAMPLES; i++) {
		snprintf(what, sizeof(what), "sample %d: the same frames whichever is asked first", i);
		check(!strcmp(a.s[i], b.s[i]), what);
		if (strcmp(a.s[i], b.s[i]))
			printf("# %s\n# %s\n", a.s[i], b.s[i]);
		snprintf(what, sizeof(what), "sample %d: frames as each address resolved alone", i);
		check(!strcmp(a.s[i], want[i]), what);
		if (strcmp(a.s[i], want[i]))
			printf("# %s\n# %s\n", a.s[i], want[i]);
		snprintf(what, sizeof(what), "sample %d: its own function as with its frames", i);
		check(!strncmp(a.s[i], c.s[i], strlen(c.s[i])), what);
	}
	check(strstr(a.s[1], "chain 0 first 0") != NULL,
	      "a sample without a chain has its own frame only");
	check(strstr(a.s[2], "|1234|") == NULL, "a chain's hypervisor addresses are left out");
	session__close(&s);
	unlink(path);
	side_files(dir);
	rmdir(dir);
	return tap_done();
}
