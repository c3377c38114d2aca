// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "perfmap.h"

static int hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (s < end) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (++n > 16)
			return -EINVAL;
		x = x << 4 | (uint64_t)d;
		s++;
	}
	if (!n)
		return -EINVAL;
	*v = x;
	*p = s;
	return 0;
}

int perfmap__parse_line(const char *line, size_t len, uint64_t *start, uint64_t *size,
			const char **name, size_t *name_len)
{
	const char *p = line, *end = line + len;

	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (hex(&p, end, start) || p >= end || *p != ' ')
		return -EINVAL;
	p++;
	if (hex(&p, end, size) || p >= end || *p != ' ')
		return -EINVAL;
	p++;
	if (p >= end || !*size || *start + *size < *start)
		return -EINVAL;
	*name = p;
	*name_len = (size_t)(end - p);
	return 0;
}

int perfmap__parse(const char *buf, size_t len, perfmap_fn fn, void *ctx, size_t *bad)
{
	const char *p = buf, *end = buf + len;

	*bad = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *lend = nl ? nl : end;
		uint64_t start, size;
		const char *name;
		size_t nlen;

		if (lend > p) {
			if (perfmap__parse_line(p, (size_t)(lend - p), &start, &size, &name,
						&nlen)) {
				(*bad)++;
			} else {
				int err = fn(start, size, name, nlen, ctx);

				if (err)
					return err;
			}
		}
		p = lend + 1;
	}
	return 0;
}

static int emit(struct perfmap_split *s, const char *line, size_t len, perfmap_line_fn fn,
		void *ctx)
{
	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return 0;
	return fn(line, len, ctx);
}

int perfmap_split__feed(struct perfmap_split *s, const char *bytes, size_t n, perfmap_line_fn fn,
			void *ctx)
{
	const char *p = bytes, *end = bytes + n;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t chunk = (size_t)((nl ? nl : end) - p);

		if (s->skipping) {
			/* the rest of an over-long line */
		} else if (s->partial.len + chunk > PERFMAP_LINE_MAX) {
			s->skipping = 1;
			s->dropped++;
			s->partial.len = 0;
		} else if (!nl) {
			err = buf__append(&s->partial, p, chunk);
			if (err)
				return err;
		} else if (s->partial.len) {
			err = buf__append(&s->partial, p, chunk);
			if (err)
				return err;
			err = emit(s, (const char *)s->partial.data, s->partial.len, fn, ctx);
			s->partial.len = 0;
			if (err)
				return err;
		} else {
			err = emit(s, p, chunk, fn, ctx);
			if (err)
				return err;
		}
		if (nl)
			s->skipping = 0;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

void perfmap_split__release(struct perfmap_split *s)
{
	if (s)
		buf__release(&s->partial);
}
