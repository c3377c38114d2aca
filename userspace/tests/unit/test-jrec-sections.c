// SPDX-License-Identifier: GPL-2.0
/*
 * jrec's private sections written and read back by their one home,
 * jrec-sections.c: FILES, JITDUMP, PERFMAP and INFO entries survive the trip,
 * a section cut inside an entry is -EBADMSG after the entries before it, and
 * a prefix of another section is refused.
 */
#include <errno.h>
#include <string.h>

#include "jmmap.h"
#include "jrec-sections.h"
#include "perf-file.h"
#include "tap.h"

struct seen {
	unsigned int n;
	char last[64];
	uint64_t time, len;
	uint32_t pid;
	struct jrec_cookie cookie;
};

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	s->pid = f->pid;
	s->cookie = f->cookie;
	snprintf(s->last, sizeof(s->last), "%s", f->path);
	return 0;
}

static int on_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	s->pid = j->pid;
	s->time = j->time;
	s->len = j->len;
	snprintf(s->last, sizeof(s->last), "%s:%.*s", j->path ? j->path : "?", (int)j->len,
		 (const char *)j->data);
	return 0;
}

static int on_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	s->pid = l->pid;
	s->time = l->time;
	snprintf(s->last, sizeof(s->last), "%.*s", (int)l->len, l->line);
	return 0;
}

static void test_files(void)
{
	struct jrec_file_rec a = {
	    7, JREC_FILE_SAVED, {JMMAP_COOKIE_ELF_BUILD_ID, 3, {1, 2, 3}}, "/usr/lib/libc.so.6"};
	struct jrec_file_rec b = {9, JREC_FILE_CACHED, {JMMAP_COOKIE_CONTENT, 20, {9}}, "/x"};
	struct buf out = BUF_INIT;
	struct seen s = {0};
	int err;

	check(!jrec_files__emit(&out, &a) && !jrec_files__emit(&out, &b) && out.len % 8 == 0,
	      "FILES: two entries written, padded to 8");
	err = jrec_files__walk(out.data, out.len, false, on_file, &s);
	check(!err && s.n == 2 && s.pid == 9 && !strcmp(s.last, "/x") && s.cookie.len == 20 &&
		  s.cookie.bytes[0] == 9,
	      "FILES: read back, path and cookie as written");
	memset(&s, 0, sizeof(s));
	err = jrec_files__walk(out.data, out.len - 8, false, on_file, &s);
	check(err == -EBADMSG && s.n == 1 && !strcmp(s.last, "/usr/lib/libc.so.6"),
	      "FILES: cut inside the second entry: the first, then -EBADMSG");
	buf__release(&out);
}

static void test_jitdump(void)
{
	struct jrec_jitdump_rec j = {42, 1000, "/tmp/jit-42.dump", (const uint8_t *)"DUMPBYTES", 9};
	struct buf out = BUF_INIT;
	struct seen s = {0};

	check(!jrec_jitdumps__emit(&out, &j) && out.len == 24 + 24 + 16,
	      "JITDUMP: header, name and copy each padded to 8");
	check(!jrec_jitdumps__walk(out.data, out.len, false, on_jitdump, &s) && s.n == 1 &&
		  s.pid == 42 && s.time == 1000 && s.len == 9 &&
		  !strcmp(s.last, "/tmp/jit-42.dump:DUMPBYTES"),
	      "JITDUMP: read back, pid, time, path and bytes");
	memset(&s, 0, sizeof(s));
	check(jrec_jitdumps__walk(out.data, out.len - 1, false, on_jitdump, &s) == -EBADMSG && !s.n,
	      "JITDUMP: one byte short is -EBADMSG");
	buf__release(&out);
}

static void test_perfmap(void)
{
	struct jrec_perfmap_rec l = {5, 77, "1000 20 foo", 11};
	struct buf out = BUF_INIT;
	struct seen s = {0};

	check(!jrec_perfmaps__emit(&out, &l) && out.len == 16 + 16, "PERFMAP: one line, padded");
	check(!jrec_perfmaps__walk(out.data, out.len, false, on_line, &s) && s.n == 1 &&
		  s.pid == 77 && s.time == 5 && !strcmp(s.last, "1000 20 foo"),
	      "PERFMAP: read back");
	buf__release(&out);
}

static void test_info_and_prefix(void)
{
	struct buf out = BUF_INIT;
	struct jrec_info info;
	const void *p;
	size_t len;

	check(!jrec_section__begin(&out, JREC_FEAT_INFO) &&
		  !jrec_info__add(&out, "mode", "%s", "jmmap") &&
		  !jrec_info__add(&out, "kernel_text", "0x%x", 0x1000) &&
		  !jrec_info__add(&out, "kernel_build_id", "%s", "0aff") &&
		  !jrec_info__add(&out, "kernel_release", "a\nb"),
	      "INFO: keys written");
	check(!jrec_section__payload(out.data, out.len, false, JREC_FEAT_INFO, &p, &len) &&
		  len == out.len - sizeof(struct jrec_feat_prefix),
	      "INFO: the prefix is checked and skipped");
	check(jrec_section__payload(out.data, out.len, false, JREC_FEAT_FILES, &p, &len) ==
		  -EBADMSG,
	      "the prefix of another section is -EBADMSG");
	jrec_info__parse(p, len, &info);
	check(!strcmp(info.mode, "jmmap") && info.kernel_text == 0x1000 && info.has_kernel_bid &&
		  info.kernel_bid.len == 2 && info.kernel_bid.bytes[1] == 0xff &&
		  !strcmp(info.kernel_release, "a b") && !info.has_perfmap_poll,
	      "INFO: read back; a newline in a value became a space");
	buf__release(&out);
}

static void test_zstd(void)
{
	struct buf sec = BUF_INIT, plain = BUF_INIT, out = BUF_INIT;
	struct seen s = {0};
	const void *p;
	size_t len, i;
	int err = jrec_section__begin(&sec, JREC_FEAT_PERFMAP);

	for (i = 0; i < 200 && !err; i++) {
		struct jrec_perfmap_rec l = {i, 77, "7f0000001000 20 some_jitted_function", 36};

		err = jrec_perfmaps__emit(&sec, &l);
	}
	err = err ? err : buf__append(&plain, sec.data, sec.len);
	check(!err && !jrec_section__compress(&sec, 3) && sec.len < plain.len / 4,
	      "zstd: a section of 200 alike lines shrinks to under a quarter");
	check(jrec_section__payload(sec.data, sec.len, false, JREC_FEAT_PERFMAP, &p, &len) ==
		  -EBADMSG,
	      "zstd: a compressed section does not pass for a plain one");
	check(jrec_section__decompress(sec.data, sec.len, false, JREC_FEAT_PERFMAP, &out) == 1 &&
		  out.len == plain.len && !memcmp(out.data, plain.data, plain.len),
	      "zstd: decompressed, it is the plain section, prefix and all");
	check(!jrec_section__payload(out.data, out.len, false, JREC_FEAT_PERFMAP, &p, &len) &&
		  !jrec_perfmaps__walk(p, len, false, on_line, &s) && s.n == 200 && s.time == 199,
	      "zstd: its lines read back");
	check(jrec_section__decompress(plain.data, plain.len, false, JREC_FEAT_PERFMAP, &out) == 0,
	      "zstd: a plain section is left alone (0)");
	check(jrec_section__decompress(sec.data, sec.len - 3, false, JREC_FEAT_PERFMAP, &out) ==
		  -EBADMSG,
	      "zstd: a frame cut short is -EBADMSG");
	sec.data[sizeof(struct jrec_feat_prefix)]++; /* raw_len one more than the frame holds */
	check(jrec_section__decompress(sec.data, sec.len, false, JREC_FEAT_PERFMAP, &out) ==
		  -EBADMSG,
	      "zstd: a frame shorter than raw_len says is -EBADMSG");
	sec.data[sizeof(struct jrec_feat_prefix)] -= 2;
	check(jrec_section__decompress(sec.data, sec.len, false, JREC_FEAT_PERFMAP, &out) ==
		  -EBADMSG,
	      "zstd: a frame longer than raw_len says is -EBADMSG");
	buf__release(&sec);
	buf__release(&plain);
	buf__release(&out);
}

struct seen_refs {
	unsigned int n, ids[4];
	uint64_t off[4], size[4];
};

static int see_ref(unsigned int id, uint64_t offset, uint64_t size, void *ctx)
{
	struct seen_refs *s = ctx;

	if (s->n < 4)
		s->ids[s->n] = id, s->off[s->n] = offset, s->size[s->n] = size;
	s->n++;
	return 0;
}

static void test_section_table(void)
{
	const struct jrec_section_ref refs[] = {
		{JREC_FEAT_INFO, 0, {1000, 10}}, {JREC_FEAT_FILES, 0, {1016, 0}}, {255, 0, {2000, 3}}};
	struct jrec_section_ref bad[] = {{JREC_FEAT_FILES, 0, {0, 0}}, {JREC_FEAT_INFO, 0, {0, 0}}};
	struct buf b = BUF_INIT;
	struct seen_refs s = {0};
	uint8_t *p;

	check(!jrec_section_table__emit(&b, refs, 3) &&
		      b.len == sizeof(struct jrec_section_table) + 3 * sizeof(refs[0]),
	      "table: a header and three entries");
	check(!jrec_section_table__walk(b.data, b.len, false, see_ref, &s) && s.n == 3 &&
		      s.ids[0] == JREC_FEAT_INFO && s.off[0] == 1000 && s.size[0] == 10 &&
		      s.ids[1] == JREC_FEAT_FILES && s.size[1] == 0 && s.ids[2] == 255 &&
		      s.off[2] == 2000,
	      "table: each entry read back");
	s.n = 0;
	check(jrec_section_table__walk(b.data, b.len - 1, false, see_ref, &s) == -EBADMSG && s.n == 2,
	      "table: an entry cut short is EBADMSG, those before it passed on");
	p = (uint8_t *)b.data;
	p[0] ^= 1;
	s.n = 0;
	check(!jrec_section_table__walk(b.data, b.len, false, see_ref, &s) && s.n == 0,
	      "table: another magic is no table");
	p[0] ^= 1;
	memcpy(p + sizeof(struct jrec_section_table) + sizeof(refs[0]), &(uint32_t){199}, 4);
	s.n = 0;
	check(jrec_section_table__walk(b.data, b.len, false, see_ref, &s) == -EBADMSG && s.n == 1,
	      "table: an id below JREC_FEAT_FIRST (or not rising) ends it");
	buf__release(&b);
	check(jrec_section_table__emit(&b, bad, 2) == -EINVAL, "table: ids must rise");
	bad[0].id = 256;
	check(jrec_section_table__emit(&b, bad, 1) == -EINVAL, "table: an id past 255 is refused");
	buf__release(&b);
}

int main(void)
{
	test_section_table();
	test_files();
	test_jitdump();
	test_perfmap();
	test_info_and_prefix();
	test_zstd();
	return tap_done();
}
