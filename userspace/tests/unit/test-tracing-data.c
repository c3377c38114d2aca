// SPDX-License-Identifier: GPL-2.0
/*
 * perf's TRACING_DATA section as tracing-data.c lays it out, read back
 * field by field in the order perf 6.1's reader takes them (checked against
 * a section perf record wrote for -e sched:sched_switch: magic, "0.6", the
 * byte order and long size, the page size, header_page and header_event
 * with u64 sizes, no ftrace events, the systems with their events' formats,
 * a zero kallsyms size, printk_formats with a u32 size, saved_cmdlines with
 * a u64 one); a system's events given apart are refused.
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "tracing-data.h"

struct cur {
	const uint8_t *p, *end;
	int bad;
};

static const uint8_t *take(struct cur *c, size_t n)
{
	const uint8_t *p = c->p;

	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint64_t num(struct cur *c, size_t n)
{
	const uint8_t *p = take(c, n);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, n); /* little-endian host: the low bytes */
	return v;
}

static int str_is(struct cur *c, const char *s)
{
	const uint8_t *p = take(c, strlen(s) + 1);

	return p && !memcmp(p, s, strlen(s) + 1);
}

/* A u@n-sized size, then that many bytes equal to @want. */
static int sized_is(struct cur *c, size_t n, const char *want)
{
	uint64_t len = num(c, n);
	const uint8_t *p = take(c, (size_t)len);

	return p && len == strlen(want) && !memcmp(p, want, len);
}

static struct buf text(const char *s)
{
	struct buf b = BUF_INIT;

	buf__append(&b, s, strlen(s));
	return b;
}

int main(void)
{
	struct buf hp = text("page"), he = text("event"), f1 = text("name: a"),
		   f2 = text("name: b"), f3 = text("name: c"), pk = text("printk"), out = BUF_INIT;
	struct tracing_data_event ev[3] = {{"sched", &f1}, {"sched", &f2}, {"irq", &f3}};
	struct tracing_data_in in = {4096, &hp, &he, &pk, NULL, ev, 3};
	struct cur c;
	int ok;

	check(!tracing_data__emit(&out, &in), "emit: 0");
	c = (struct cur){out.data, out.data + out.len, 0};
	ok = !memcmp(take(&c, 10), "\x17\x08\x44tracing", 10) && str_is(&c, "0.6");
	check(ok, "the magic and version 0.6");
	ok = num(&c, 1) == 0 && num(&c, 1) == sizeof(long) && num(&c, 4) == 4096;
	check(ok, "little-endian, sizeof(long), the page size");
	ok = str_is(&c, "header_page") && sized_is(&c, 8, "page") && str_is(&c, "header_event") &&
	     sized_is(&c, 8, "event");
	check(ok, "header_page and header_event, named, u64 sizes");
	check(num(&c, 4) == 0, "no ftrace event formats");
	ok = num(&c, 4) == 2 && str_is(&c, "sched") && num(&c, 4) == 2 &&
	     sized_is(&c, 8, "name: a") && sized_is(&c, 8, "name: b") && str_is(&c, "irq") &&
	     num(&c, 4) == 1 && sized_is(&c, 8, "name: c");
	check(ok, "two systems, each with its events' formats in order");
	ok = num(&c, 4) == 0 && sized_is(&c, 4, "printk") && num(&c, 8) == 0;
	check(ok && !c.bad && c.p == c.end,
	      "no kallsyms, printk_formats (u32 size), no saved_cmdlines (u64 0), nothing after");
	ev[1].system = "irq";
	ev[2].system = "sched";
	buf__release(&out);
	check(tracing_data__emit(&out, &in) == -EINVAL, "a system's events apart: -EINVAL");
	buf__release(&out);
	buf__release(&hp);
	buf__release(&he);
	buf__release(&f1);
	buf__release(&f2);
	buf__release(&f3);
	buf__release(&pk);
	return tap_done();
}
