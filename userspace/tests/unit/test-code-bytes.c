// SPDX-License-Identifier: GPL-2.0
/*
 * code-bytes: the CODE / ARCHIVE_CODE entries written and read back, the
 * lookups annotate makes (a process's code by the time it was read, a
 * file's by cookie, the kernel's), and a cut or lying entry refused.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "code-bytes.h"
#include "jmmap.h"
#include "tap.h"

static const uint8_t loop[] = { 0xb9, 0x00, 0x00, 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };
static const uint8_t other[] = { 0xc3 };

static int count(const struct code_rec *c, void *ctx)
{
	(*(int *)ctx)++;
	return 0;
}

int main(void)
{
	struct code_rec p1 = { .kind = JREC_CODE_PROCESS, .addr = 0x7f0000001000, .time = 100,
			       .pid = 42, .machine = EM_X86_64, .bytes = loop, .len = sizeof(loop) };
	struct code_rec p2 = p1, f = { .kind = JREC_CODE_FILE, .addr = 0x1140, .machine = EM_AARCH64,
				       .bytes = other, .len = 1 };
	struct code_rec k = { .kind = JREC_CODE_KERNEL, .addr = 0xffffffff81000000ULL,
			      .machine = EM_X86_64, .bytes = loop, .len = 4 };
	struct code_rec bad = p1;
	struct jrec_cookie other_cookie = { JMMAP_COOKIE_ELF_BUILD_ID, 3, { 1, 2, 4 } };
	struct code_table t = { 0 };
	const struct code_rec *c;
	struct buf b = BUF_INIT;
	int n = 0;

	p2.time = 500;
	p2.bytes = other;
	p2.len = 1;
	f.cookie = (struct jrec_cookie){ JMMAP_COOKIE_ELF_BUILD_ID, 3, { 1, 2, 3 } };
	check(!code_bytes__emit(&b, &p2) && !code_bytes__emit(&b, &f) && !code_bytes__emit(&b, &p1) &&
		      !code_bytes__emit(&b, &k),
	      "four entries written");
	check(b.len == 4 * sizeof(struct jrec_code_entry) + 16 + 8 + 8 + 8,
	      "each entry's bytes padded to 8");
	check(!code_bytes__walk(b.data, b.len, false, count, &n) && n == 4, "read back: 4 entries");
	check(!code_table__add(&t, b.data, b.len, false) && t.nr == 4, "the table holds them");
	c = code_table__process(&t, 42, 0x7f0000001000, 50);
	check(c && c->time == 100 && c->len == sizeof(loop) && !memcmp(c->bytes, loop, c->len) &&
		      c->machine == EM_X86_64,
	      "a process's code: the first read after the symbol appeared");
	c = code_table__process(&t, 42, 0x7f0000001000, 300);
	check(c && c->time == 500 && c->len == 1, "a later read for a later symbol at the same address");
	c = code_table__process(&t, 42, 0x7f0000001000, 900);
	check(c && c->time == 500, "no read after: the last one before");
	check(!code_table__process(&t, 43, 0x7f0000001000, 0), "another process: none");
	c = code_table__file(&t, &f.cookie, 0x1140);
	check(c && c->machine == EM_AARCH64 && c->len == 1, "a file's code by cookie and address");
	check(!code_table__file(&t, &other_cookie, 0x1140), "another build's cookie: none");
	c = code_table__kernel(&t, 0xffffffff81000000ULL);
	check(c && c->len == 4, "the kernel's code by run-time address");
	n = 0;
	check(code_bytes__walk(b.data, b.len - 1, false, count, &n) == -EBADMSG && n == 3,
	      "an entry cut short: -EBADMSG after the good ones");
	bad.len = JREC_CODE_MAX + 1;
	check(code_bytes__emit(&b, &bad) == -EINVAL, "more than JREC_CODE_MAX bytes refused");
	bad.len = 1;
	bad.kind = 9;
	check(code_bytes__emit(&b, &bad) == -EINVAL, "an unknown kind refused");
	code_table__release(&t);
	buf__release(&b);
	return tap_done();
}
