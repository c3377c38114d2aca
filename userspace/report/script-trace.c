// SPDX-License-Identifier: GPL-2.0
/* perf script's trace field (script-trace.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "perf-file.h"
#include "perf-reader.h"
#include "script-trace.h"

struct script_trace {
	struct tep_handle *tep;
};

/* A cursor over the section; numbers in the recording machine's order. */
struct tcur {
	const uint8_t *p, *end;
	bool swap;
	bool bad;
};

static const uint8_t *take(struct tcur *c, uint64_t n)
{
	const uint8_t *p = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

static uint64_t take_num(struct tcur *c, unsigned int size)
{
	const uint8_t *p = take(c, size);
	uint64_t v = 0;
	unsigned int i;

	if (!p)
		return 0;
	for (i = 0; i < size; i++) /* little-endian unless swapped */
		v |= (uint64_t)p[c->swap ? size - 1 - i : i] << (8 * i);
	return v;
}

static const char *take_str(struct tcur *c)
{
	const uint8_t *nul = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* "NAME\0" u64 size, then that many bytes: the bytes, or NULL */
static const uint8_t *take_named(struct tcur *c, const char *name, uint64_t *size)
{
	const char *s = take_str(c);

	if (!s || strcmp(s, name)) {
		c->bad = true;
		return NULL;
	}
	*size = take_num(c, 8);
	return take(c, *size);
}

static int parse(struct tep_handle *tep, const uint8_t *d, size_t len, char *err, size_t errlen)
{
	struct tcur c = { d, d + len, false, false };
	const uint8_t *magic = take(&c, 10), *p;
	const char *version, *sys;
	uint64_t n, i, size, nsys, s;
	bool big;
	int long_size;

	if (!magic || memcmp(magic, "\x17\x08\x44tracing", 10))
		goto bad;
	version = take_str(&c);
	p = take(&c, 2);
	if (!version || !p)
		goto bad;
	big = p[0];
	c.swap = big; /* this reader is little-endian (x86-64) */
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	long_size = p[1];
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)take_num(&c, 4));
	p = take_named(&c, "header_page", &size);
	if (p)
		tep_parse_header_page(tep, (char *)p, size, long_size);
	take_named(&c, "header_event", &size);
	/* the ftrace events' formats, then each system's events */
	n = take_num(&c, 4);
	for (i = 0; i < n && !c.bad; i++) {
		size = take_num(&c, 8);
		p = take(&c, size);
		if (p)
			tep_parse_event(tep, (const char *)p, size, "ftrace");
	}
	nsys = take_num(&c, 4);
	for (s = 0; s < nsys && !c.bad; s++) {
		sys = take_str(&c);
		n = take_num(&c, 4);
		for (i = 0; i < n && !c.bad; i++) {
			size = take_num(&c, 8);
			p = take(&c, size);
			if (p && sys)
				tep_parse_event(tep, (const char *)p, size, sys);
		}
	}
	if (c.bad)
		goto bad;
	/* kallsyms (none from perf), then the printk formats a trace_printk needs */
	size = take_num(&c, 4);
	take(&c, size);
	size = take_num(&c, 4);
	p = take(&c, size);
	if (p && size) {
		char *fmts = strndup((const char *)p, size);

		if (!fmts)
			return -ENOMEM;
		tep_parse_printk_formats(tep, fmts);
		free(fmts);
	}
	return 0;
bad:
	snprintf(err, errlen, "the TRACING_DATA section (tracepoint formats) cannot be read");
	return -EBADMSG;
}

int script_trace__open(struct script_trace **out, const struct perf_reader *r, char *err,
		       size_t errlen)
{
	struct script_trace *t;
	const void *data;
	size_t len;
	int ret;

	*out = NULL;
	if (perf_reader__feature(r, PERF_FEAT_TRACING_DATA, &data, &len))
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->tep = tep_alloc();
	if (!t->tep) {
		free(t);
		return -ENOMEM;
	}
	ret = parse(t->tep, data, len, err, errlen);
	if (ret) {
		script_trace__close(t);
		return ret;
	}
	*out = t;
	return 0;
}

void script_trace__print(struct script_trace *t, const void *raw, uint32_t size, int cpu,
			 FILE *out)
{
	struct tep_record rec = { 0 };
	struct tep_event *ev;
	struct trace_seq seq;
	int type;

	if (!t || size < 2)
		return;
	rec.data = (void *)raw;
	rec.size = (int)size;
	rec.cpu = cpu;
	type = tep_data_type(t->tep, &rec);
	ev = tep_find_event(t->tep, type);
	if (!ev)
		return;
	trace_seq_init(&seq);
	tep_print_event(t->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	fwrite(seq.buffer, 1, seq.len, out);
	trace_seq_destroy(&seq);
}

void script_trace__close(struct script_trace *t)
{
	if (!t)
		return;
	tep_free(t->tep);
	free(t);
}
