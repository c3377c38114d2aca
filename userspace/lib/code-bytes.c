// SPDX-License-Identifier: GPL-2.0
/* The CODE and ARCHIVE_CODE sections, written and read; see code-bytes.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "byteorder.h"
#include "code-bytes.h"
#include "jmmap.h"
#include "jrec-sections.h"

int code_bytes__emit(struct buf *b, const struct code_rec *c)
{
	struct jrec_code_entry e;

	if (c->len > JREC_CODE_MAX || c->kind < JREC_CODE_PROCESS || c->kind > JREC_CODE_KERNEL ||
	    c->cookie.len > sizeof(e.cookie))
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	e.addr = c->addr;
	e.time = c->time;
	e.pid = c->pid;
	e.len = c->len;
	e.machine = c->machine;
	e.kind = (uint8_t)c->kind;
	e.cookie_kind = c->cookie.kind;
	e.cookie_len = c->cookie.len;
	memcpy(e.cookie, c->cookie.bytes, c->cookie.len);
	return jrec_entry__emit(b, &e, sizeof(e), c->bytes, c->len);
}

int code_bytes__walk(const void *payload, size_t len, bool swapped,
		     int (*fn)(const struct code_rec *c, void *ctx), void *ctx)
{
	const uint8_t *p = payload;
	size_t off = 0;
	int err;

	while (len - off >= sizeof(struct jrec_code_entry)) {
		const uint8_t *e = jrec_entry__take(p, len, &off, sizeof(struct jrec_code_entry));
		struct code_rec c;

		memset(&c, 0, sizeof(c));
		c.addr = bo_u64(e + offsetof(struct jrec_code_entry, addr), swapped);
		c.time = bo_u64(e + offsetof(struct jrec_code_entry, time), swapped);
		c.pid = bo_u32(e + offsetof(struct jrec_code_entry, pid), swapped);
		c.len = bo_u32(e + offsetof(struct jrec_code_entry, len), swapped);
		c.machine = bo_u16(e + offsetof(struct jrec_code_entry, machine), swapped);
		c.kind = e[offsetof(struct jrec_code_entry, kind)];
		c.cookie.kind = e[offsetof(struct jrec_code_entry, cookie_kind)];
		c.cookie.len = e[offsetof(struct jrec_code_entry, cookie_len)];
		if (c.len > JREC_CODE_MAX || c.kind < JREC_CODE_PROCESS || c.kind > JREC_CODE_KERNEL ||
		    c.cookie.len > JMMAP_COOKIE_MAX)
			return -EBADMSG;
		memcpy(c.cookie.bytes, e + offsetof(struct jrec_code_entry, cookie), c.cookie.len);
		c.bytes = jrec_entry__take(p, len, &off, c.len);
		if (!c.bytes)
			return -EBADMSG;
		err = fn(&c, ctx);
		if (err)
			return err;
	}
	return 0;
}

static int add_one(const struct code_rec *c, void *ctx)
{
	struct code_table *t = ctx;
	struct code_rec *n;
	uint8_t *bytes = malloc(c->len ? c->len : 1);

	if (!bytes || array_grow(&t->recs, &t->cap, t->nr + 1)) {
		free(bytes);
		return -ENOMEM;
	}
	memcpy(bytes, c->bytes, c->len);
	n = &t->recs[t->nr++];
	*n = *c;
	n->bytes = bytes;
	t->sorted = false;
	return 0;
}

int code_table__add(struct code_table *t, const void *payload, size_t len, bool swapped)
{
	return code_bytes__walk(payload, len, swapped, add_one, t);
}

static int cookie_cmp(const struct jrec_cookie *a, const struct jrec_cookie *b)
{
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->bytes, b->bytes, a->len);
}

static int rec_cmp(const void *x, const void *y)
{
	const struct code_rec *a = x, *b = y;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == JREC_CODE_PROCESS && a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->kind == JREC_CODE_FILE && (c = cookie_cmp(&a->cookie, &b->cookie)))
		return c;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return 0;
}

static void sort(struct code_table *t)
{
	if (!t->sorted && t->nr)
		qsort(t->recs, t->nr, sizeof(*t->recs), rec_cmp);
	t->sorted = true;
}

/* The first entry not ordered before @key (time 0: the earliest of its address). */
static size_t lower_bound(const struct code_table *t, const struct code_rec *key)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rec_cmp(&t->recs[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether @r is the same code place as @key (kind, pid or cookie, addr). */
static bool same_place(const struct code_rec *r, const struct code_rec *key)
{
	struct code_rec a = *r;

	a.time = key->time;
	return !rec_cmp(&a, key);
}

const struct code_rec *code_table__process(struct code_table *t, uint32_t pid, uint64_t addr,
					   uint64_t after)
{
	struct code_rec key = { .kind = JREC_CODE_PROCESS, .pid = pid, .addr = addr, .time = after };
	size_t i;

	sort(t);
	i = lower_bound(t, &key);
	if (i < t->nr && same_place(&t->recs[i], &key))
		return &t->recs[i];
	if (i > 0 && same_place(&t->recs[i - 1], &key))
		return &t->recs[i - 1];
	return NULL;
}

const struct code_rec *code_table__file(struct code_table *t, const struct jrec_cookie *cookie,
					uint64_t addr)
{
	struct code_rec key = { .kind = JREC_CODE_FILE, .cookie = *cookie, .addr = addr };
	size_t i;

	sort(t);
	i = lower_bound(t, &key);
	return i < t->nr && same_place(&t->recs[i], &key) ? &t->recs[i] : NULL;
}

const struct code_rec *code_table__kernel(struct code_table *t, uint64_t addr)
{
	struct code_rec key = { .kind = JREC_CODE_KERNEL, .addr = addr };
	size_t i;

	sort(t);
	i = lower_bound(t, &key);
	return i < t->nr && same_place(&t->recs[i], &key) ? &t->recs[i] : NULL;
}

void code_table__release(struct code_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++)
		free((void *)t->recs[i].bytes);
	free(t->recs);
	memset(t, 0, sizeof(*t));
}
