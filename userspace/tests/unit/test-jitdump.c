// SPDX-License-Identifier: GPL-2.0
/*
 * jitdump and perf-map parsing, and the time-aware JIT symbol table built
 * from them: LOAD/MOVE/DEBUG_INFO/CLOSE in both byte orders, a dump cut off
 * mid-record, address reuse decided by load time and by MUNMAP, perf-map
 * lines with and without times, and a line written late dated back to when
 * its range was last mapped, named or changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "jit-symbols.h"
#include "jitdump.h"
#include "perfmap.h"
#include "tap.h"

struct dumpbuf {
	uint8_t b[4096];
	size_t len;
	int swap;
};

static void put(struct dumpbuf *d, const void *p, size_t n)
{
	memcpy(d->b + d->len, p, n);
	d->len += n;
}

static void u32(struct dumpbuf *d, uint32_t v)
{
	if (d->swap)
		v = __builtin_bswap32(v);
	put(d, &v, 4);
}

static void u64(struct dumpbuf *d, uint64_t v)
{
	if (d->swap)
		v = __builtin_bswap64(v);
	put(d, &v, 8);
}

static void header(struct dumpbuf *d, uint32_t pid)
{
	u32(d, JITDUMP_MAGIC);
	u32(d, 1);
	u32(d, 40);
	u32(d, 62);
	u32(d, 0);
	u32(d, pid);
	u64(d, 1);
	u64(d, 0);
}

static void load(struct dumpbuf *d, uint64_t time, uint64_t addr, uint64_t size, const char *name)
{
	size_t n = strlen(name) + 1;

	u32(d, JITDUMP_LOAD);
	u32(d, (uint32_t)(16 + 40 + n + size));
	u64(d, time);
	u32(d, 42);
	u32(d, 42);
	u64(d, addr);
	u64(d, addr);
	u64(d, size);
	u64(d, 0);
	put(d, name, n);
	memset(d->b + d->len, 0xc3, size);
	d->len += size;
}

static void move(struct dumpbuf *d, uint64_t time, uint64_t from, uint64_t to, uint64_t size)
{
	u32(d, JITDUMP_MOVE);
	u32(d, 16 + 48);
	u64(d, time);
	u32(d, 42);
	u32(d, 42);
	u64(d, to);
	u64(d, from);
	u64(d, to);
	u64(d, size);
	u64(d, 0);
}

static void debug(struct dumpbuf *d, uint64_t time, uint64_t addr, uint32_t line, const char *file)
{
	size_t n = strlen(file) + 1;

	u32(d, JITDUMP_DEBUG_INFO);
	u32(d, (uint32_t)(16 + 16 + 16 + n));
	u64(d, time);
	u64(d, addr);
	u64(d, 1);
	u64(d, addr);
	u32(d, line);
	u32(d, 0);
	put(d, file, n);
}

static void close_rec(struct dumpbuf *d, uint64_t time)
{
	u32(d, JITDUMP_CLOSE);
	u32(d, 16);
	u64(d, time);
}

/* UNWINDING_INFO: @len bytes of .eh_frame then .eh_frame_hdr (its last @hdr bytes). */
static void unwinding(struct dumpbuf *d, uint64_t time, const uint8_t *data, uint64_t len,
		      uint64_t hdr, uint64_t claimed)
{
	u32(d, JITDUMP_UNWINDING_INFO);
	u32(d, (uint32_t)(16 + 24 + len));
	u64(d, time);
	u64(d, claimed);
	u64(d, hdr);
	u64(d, len);
	put(d, data, len);
}

static const char *name_of(struct jit_symbols *js, uint32_t pid, uint64_t addr, uint64_t t)
{
	const struct jit_sym *s = jit_symbols__find(js, pid, addr, t);

	return s ? s->name : "(none)";
}

static const char *name_at(struct jit_symbols *js, uint64_t addr, uint64_t t)
{
	return name_of(js, 42, addr, t);
}

static void dump_orders(int swap)
{
	struct dumpbuf *d = calloc(1, sizeof(*d));
	struct jit_symbols js = { 0 };
	bool trunc;
	char what[128], line[64];
	const char *o = swap ? "swapped" : "native";
	const struct jit_sym *s;
	int err;

	d->swap = swap;
	header(d, 42);
	debug(d, 90, 0x1000, 7, "/src/script.js");
	load(d, 100, 0x1000, 0x40, "fn_a");
	load(d, 200, 0x2000, 0x40, "fn_b");
	move(d, 300, 0x2000, 0x3000, 0x40);
	load(d, 400, 0x1000, 0x20, "fn_c"); /* reuses fn_a's address */
	close_rec(d, 500);
	err = jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc);
	snprintf(what, sizeof(what), "%s: dump parsed, not truncated", o);
	check(!err && !trunc, what);
	jit_symbols__finish(&js, NULL);
	snprintf(what, sizeof(what), "%s: nothing before the first load", o);
	check(!strcmp(name_at(&js, 0x1010, 50), "(none)"), what);
	snprintf(what, sizeof(what), "%s: fn_a between its load and the reuse", o);
	check(!strcmp(name_at(&js, 0x1010, 150), "fn_a"), what);
	snprintf(what, sizeof(what), "%s: fn_c after the address was reused", o);
	check(!strcmp(name_at(&js, 0x1010, 450), "fn_c"), what);
	snprintf(what, sizeof(what), "%s: MOVE: old address until the move, new after", o);
	check(!strcmp(name_at(&js, 0x2010, 250), "fn_b") &&
		      !strcmp(name_at(&js, 0x2010, 350), "(none)") &&
		      !strcmp(name_at(&js, 0x3010, 350), "fn_b"),
	      what);
	s = jit_symbols__find(&js, 42, 0x1004, 150);
	snprintf(what, sizeof(what), "%s: DEBUG_INFO before LOAD gives the source line", o);
	check(s && jit_symbols__srcline(&js, s, 0x1004, line, sizeof(line)) &&
		      !strcmp(line, "script.js:7"),
	      what);
	jit_symbols__release(&js);

	/* cut off inside the last LOAD */
	memset(&js, 0, sizeof(js));
	err = jit_symbols__add_jitdump(&js, 0, d->b, d->len - 16 - 30, &trunc);
	jit_symbols__finish(&js, NULL);
	snprintf(what, sizeof(what), "%s: truncated dump: earlier loads kept, cut reported", o);
	check(!err && trunc && !strcmp(name_at(&js, 0x1010, 150), "fn_a") &&
		      strcmp(name_at(&js, 0x1010, 450), "fn_c"),
	      what);
	jit_symbols__release(&js);
	free(d);
}

static void bad_dumps(void)
{
	struct jitdump_info info;
	struct dumpbuf *d = calloc(1, sizeof(*d));
	uint32_t v;

	check(jitdump__parse("nope", 4, NULL, NULL, &info) == -EINVAL, "four bytes: not a jitdump");
	header(d, 1);
	v = 0x12345678;
	memcpy(d->b, &v, 4);
	check(jitdump__parse(d->b, d->len, NULL, NULL, &info) == -EINVAL, "bad magic: -EINVAL");
	d->len = 0;
	header(d, 1);
	v = 1u << 30;
	memcpy(d->b + 8, &v, 4);
	check(jitdump__parse(d->b, d->len, NULL, NULL, &info) == -EINVAL,
	      "header size beyond the file: -EINVAL");
	free(d);
}

static void munmap_ends_symbol(void)
{
	struct dumpbuf *d = calloc(1, sizeof(*d));
	struct jit_symbols js = { 0 };
	bool trunc;

	header(d, 42);
	load(d, 100, 0x1000, 0x40, "old_fn");
	jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc);
	/* the module saw the code unmapped at 200; a perf-map line reuses it at 300 */
	jit_symbols__unmap(&js, 42, 200, 0x1000, 0x1000);
	jit_symbols__add_perfmap(&js, 42, 300, "1000 40 new_fn\n", 15);
	jit_symbols__finish(&js, NULL);
	check(!strcmp(name_at(&js, 0x1010, 150), "old_fn"), "MUNMAP: old function before the unmap");
	check(!strcmp(name_at(&js, 0x1010, 250), "(none)"), "MUNMAP: nothing between unmap and reuse");
	check(!strcmp(name_at(&js, 0x1010, 350), "new_fn"), "MUNMAP: timed perf-map line after");
	jit_symbols__release(&js);
	free(d);
}

static void perfmap_lines(void)
{
	uint64_t start, size;
	const char *name;
	size_t nlen, bad;
	struct jit_symbols js = { 0 };
	static const char text[] = "7f0000001000 20 foo\n0x7f0000002000 0x10 bar baz\nnot a line\n"
				   "7f0000003000 0 zero\n\n7f0000004000 8 last";

	check(!perfmap__parse_line("1000 20 foo", 11, &start, &size, &name, &nlen) &&
		      start == 0x1000 && size == 0x20 && nlen == 3 && !memcmp(name, "foo", 3),
	      "perf-map line: hex start, size, name");
	check(perfmap__parse_line("1000 20", 7, &start, &size, &name, &nlen) == -EINVAL,
	      "perf-map line without a name: -EINVAL");
	check(perfmap__parse_line("11112222333344445 1 x", 21, &start, &size, &name, &nlen) ==
		      -EINVAL,
	      "perf-map line with a 17-digit address: -EINVAL");
	jit_symbols__add_perfmap(&js, 42, 0, text, strlen(text));
	jit_symbols__finish(&js, NULL);
	check(!strcmp(name_at(&js, 0x7f0000002008, 5), "bar baz") &&
		      !strcmp(name_at(&js, 0x7f0000004004, 1), "last") &&
		      !strcmp(name_at(&js, 0x7f0000003000, 1), "(none)"),
	      "perf map: names with spaces, last line without newline, zero sizes dropped");
	(void)bad;
	jit_symbols__release(&js);
}

static int count_cb(uint64_t s, uint64_t z, const char *n, size_t l, void *ctx)
{
	return 0;
}

/* A dump stamped with the CPU's counter: its loads hold from the start. */
static void arch_timestamp_dump(void)
{
	struct dumpbuf *d = calloc(1, sizeof(*d));
	struct jit_symbols js = { 0 };
	bool trunc;

	header(d, 42);
	memset(d->b + 32, 0, 8);
	d->b[32] = 1; /* JITDUMP_FLAGS_ARCH_TIMESTAMP */
	load(d, 900000000000ULL, 0x1000, 0x40, "tsc_fn");
	jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc);
	jit_symbols__finish(&js, NULL);
	check(!strcmp(name_at(&js, 0x1010, 150), "tsc_fn"),
	      "ARCH_TIMESTAMP dump: counter-stamped loads are not compared with sample times");
	jit_symbols__release(&js);
	free(d);
}

static void exec_ends_timed_symbols(void)
{
	struct jit_symbols js = { 0 };
	const struct jit_sym *s;

	jit_symbols__add(&js, 42, 100, 0x1000, 0x40, "before_exec", 11, JIT_SRC_JITDUMP);
	jit_symbols__add(&js, 42, 0, 0x2000, 0x40, "untimed", 7, JIT_SRC_PERFMAP);
	jit_symbols__add(&js, 42, 300, 0x1000, 0x40, "after_exec", 10, JIT_SRC_JITDUMP);
	jit_symbols__exec(&js, 42, 200);
	jit_symbols__unmap(&js, 43, 250, 0x1000, 0x1000);
	jit_symbols__finish(&js, NULL);
	check(!strcmp(name_at(&js, 0x1010, 150), "before_exec") &&
		      !strcmp(name_at(&js, 0x1010, 250), "(none)") &&
		      !strcmp(name_at(&js, 0x1010, 350), "after_exec"),
	      "exec ends the symbols loaded before it; later loads count");
	check(!strcmp(name_at(&js, 0x2010, 250), "untimed"),
	      "an untimed perf-map line is not cut by an exec (it may be the new image's)");
	s = jit_symbols__find(&js, 42, 0x1010, 150);
	check(s && s->owner == 42, "a symbol knows the process whose records loaded it");
	check(jit_symbols__unmapped(&js, 43, 0x1010, 200, 300) &&
		      !jit_symbols__unmapped(&js, 43, 0x1010, 260, 300) &&
		      !jit_symbols__unmapped(&js, 43, 0x2010, 200, 300) &&
		      !jit_symbols__unmapped(&js, 42, 0x1010, 200, 300),
	      "unmapped(): only that process, that address, that time span");
	jit_symbols__release(&js);
}

/*
 * UNWINDING_INFO belongs to the LOAD after it, once: its bytes are kept
 * with that symbol and no other; sizes beyond the record end the walk.
 */
static void unwinding_info(void)
{
	static const uint8_t eh[24] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
					13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24 };
	struct dumpbuf d0 = { .swap = 0 }, *d = &d0;
	struct jit_symbols js = { 0 };
	const struct jit_sym *a, *b;
	bool trunc;
	int err;

	header(d, 42);
	load(d, 100, 0x1000, 0x100, "no_cfi");
	unwinding(d, 150, eh, sizeof(eh), 8, sizeof(eh));
	load(d, 200, 0x2000, 0x100, "with_cfi");
	load(d, 300, 0x3000, 0x100, "after");
	err = jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc);
	check(!err && !trunc && !jit_symbols__finish(&js, NULL), "UNWINDING_INFO: the dump is read whole");
	a = jit_symbols__find(&js, 42, 0x2010, 250);
	check(a && a->eh && a->eh_len == sizeof(eh) && a->eh_hdr_len == 8 &&
		      !memcmp(a->eh, eh, sizeof(eh)),
	      "UNWINDING_INFO: .eh_frame and .eh_frame_hdr kept with the LOAD that follows");
	a = jit_symbols__find(&js, 42, 0x1010, 250);
	b = jit_symbols__find(&js, 42, 0x3010, 350);
	check(a && !a->eh && b && !b->eh, "UNWINDING_INFO: not with the LOAD before it or the next one");
	jit_symbols__release(&js);

	d->len = 0;
	header(d, 42);
	unwinding(d, 150, eh, sizeof(eh), 8, sizeof(eh) + 1);
	load(d, 200, 0x2000, 0x100, "with_cfi");
	memset(&js, 0, sizeof(js));
	err = jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc);
	check(!err && trunc, "UNWINDING_INFO: a size beyond its record ends the walk");
	jit_symbols__release(&js);
}

static void anon_map(struct addrspace *as, uint32_t pid, uint64_t t, uint64_t start,
		     uint64_t end, bool jm)
{
	struct as_map m = { .start = start, .end = end, .prot = 7 };

	addrspace__add_map(as, pid, t, &m, jm, false);
}

static void perfmap_line(struct jit_symbols *js, uint32_t pid, uint64_t t, const char *line)
{
	jit_symbols__add_perfmap(js, pid, t, line, strlen(line));
}

/*
 * A map dumped late (at 1000, as a runtime does at exit or on request)
 * names its code from the mapping's start, unless the range was named or
 * changed in between; a later line for the same address wins from when it
 * appeared.
 */
static void late_perfmap(void)
{
	struct addrspace as = { 0 };
	struct jit_symbols js = { 0 };

	/* pid 42, traced by jmmap: exact ranges, MUNMAPs */
	anon_map(&as, 42, 100, 0x10000, 0x20000, true);
	jit_symbols__add(&js, 42, 200, 0x10100, 0x40, "jd_old", 6, JIT_SRC_JITDUMP);
	perfmap_line(&js, 42, 500, "10200 40 first\n");
	perfmap_line(&js, 42, 800, "10200 40 second\n");
	jit_symbols__unmap(&js, 42, 400, 0x10300, 0x100);
	addrspace__add_unmap(&as, 42, 400, 0x10300, 0x100);
	anon_map(&as, 42, 450, 0x10300, 0x10400, true);
	anon_map(&as, 42, 600, 0x18000, 0x19000, true); /* a new mapping over the range */
	perfmap_line(&js, 42, 1000,
		     "10000 40 hot\n10100 40 reused\n10300 40 after_unmap\n18000 40 remapped\n"
		     "1c000 40 kept_beside\n");
	addrspace__finish(&as);
	jit_symbols__finish(&js, &as);

	check(!strcmp(name_at(&js, 0x10010, 150), "hot") &&
		      !strcmp(name_at(&js, 0x10010, 1100), "hot") &&
		      !strcmp(name_at(&js, 0x10010, 50), "(none)"),
	      "late line: named from its mapping's start, not before it");
	check(!strcmp(name_at(&js, 0x10110, 150), "(none)") &&
		      !strcmp(name_at(&js, 0x10110, 300), "jd_old") &&
		      !strcmp(name_at(&js, 0x10110, 1100), "reused"),
	      "late line: an earlier jitdump load bounds it, and wins until the line appears");
	check(!strcmp(name_at(&js, 0x10210, 150), "first") &&
		      !strcmp(name_at(&js, 0x10210, 600), "first") &&
		      !strcmp(name_at(&js, 0x10210, 900), "second"),
	      "late lines for one address: the later one wins from when it appeared");
	check(!strcmp(name_at(&js, 0x10310, 300), "(none)") &&
		      !strcmp(name_at(&js, 0x10310, 500), "after_unmap"),
	      "late line: named only since the MUNMAP and the new mapping there");
	check(!strcmp(name_at(&js, 0x18010, 500), "(none)") &&
		      !strcmp(name_at(&js, 0x18010, 700), "remapped") &&
		      !strcmp(name_at(&js, 0x1c010, 150), "kept_beside"),
	      "late line: a new mapping over the range bounds it; the old one's rest carries on");
	jit_symbols__release(&js);
	addrspace__release(&as);

	/* kernel records: a grown vma carries on; the same range mapped again does not */
	memset(&as, 0, sizeof(as));
	memset(&js, 0, sizeof(js));
	anon_map(&as, 43, 100, 0x10000, 0x11000, false);
	anon_map(&as, 43, 200, 0x10000, 0x12000, false);
	anon_map(&as, 43, 300, 0x30000, 0x31000, false);
	anon_map(&as, 43, 400, 0x30000, 0x32000, false);
	anon_map(&as, 43, 500, 0x30000, 0x31000, false);
	anon_map(&as, 43, 100, 0x50000, 0x51000, false);
	anon_map(&as, 43, 200, 0x50000, 0x51000, false); /* a W^X flip back to executable */
	perfmap_line(&js, 43, 1000, "10000 40 grown\n30000 40 shrunk\n50000 40 flipped\n");
	addrspace__finish(&as);
	jit_symbols__finish(&js, &as);
	check(!strcmp(name_of(&js, 43, 0x10010, 150), "grown") &&
		      !strcmp(name_of(&js, 43, 0x30010, 450), "(none)") &&
		      !strcmp(name_of(&js, 43, 0x30010, 550), "shrunk"),
	      "kernel records: a merged vma that grew carries on, one that shrank is new");
	check(!strcmp(name_of(&js, 43, 0x50010, 150), "(none)") &&
		      !strcmp(name_of(&js, 43, 0x50010, 250), "flipped"),
	      "kernel records: the same range reported again is a change");
	jit_symbols__release(&js);
	addrspace__release(&as);
}

int main(void)
{
	size_t bad;

	printf("TAP version 13\n");
	dump_orders(0);
	dump_orders(1);
	bad_dumps();
	munmap_ends_symbol();
	exec_ends_timed_symbols();
	arch_timestamp_dump();
	unwinding_info();
	perfmap_lines();
	late_perfmap();
	perfmap__parse("zz yy x\n1 1 x\n", 14, count_cb, NULL, &bad);
	check(bad == 1, "perf map: bad lines counted");
	return tap_done();
}
