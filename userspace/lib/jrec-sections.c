// SPDX-License-Identifier: GPL-2.0
/* jrec's private feature sections, written and read; see jrec-sections.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "byteorder.h"
#include "jmmap.h"
#include "jrec-sections.h"
#include "perf-file.h"

/* Bytes @n takes in a section, padding included: one rule for every entry. */
static uint64_t padded(uint64_t n)
{
	return (n + JREC_SECTION_ALIGN - 1) & ~(uint64_t)(JREC_SECTION_ALIGN - 1);
}

/*
 * (jrec-sections.h) Read side of padded(): the @n bytes at *@off of a payload of @len bytes,
 * and *@off moved past them and their padding; NULL when they do not fit.
 */
const uint8_t *jrec_entry__take(const uint8_t *p, size_t len, size_t *off, uint64_t n)
{
	const uint8_t *at = p + *off;

	if (padded(n) < n || padded(n) > len - *off)
		return NULL;
	*off += padded(n);
	return at;
}

/* An entry's header and then @n bytes of @p, padded. */
int jrec_entry__emit(struct buf *b, const void *hdr, size_t hdr_len, const void *p, size_t n)
{
	int err = buf__append(b, hdr, hdr_len);

	if (!err)
		err = buf__append(b, p, n);
	if (!err)
		err = buf__pad(b, JREC_SECTION_ALIGN);
	return err;
}

int jrec_section__begin(struct buf *b, unsigned int id)
{
	struct jrec_feat_prefix p = {JREC_FEAT_MAGIC, JREC_FEAT_VERSION, (uint16_t)id};

	return buf__append(b, &p, sizeof(p));
}

int jrec_section__raw(struct buf *b, unsigned int id, const void *data, size_t len)
{
	int err = jrec_section__begin(b, id);

	return err ? err : buf__append(b, data, len);
}

int jrec_section__payload(const void *sec, size_t len, bool swapped, unsigned int id,
			  const void **payload, size_t *payload_len)
{
	const uint8_t *p = sec;

	if (len < sizeof(struct jrec_feat_prefix) || bo_u32(p, swapped) != JREC_FEAT_MAGIC ||
	    bo_u16(p + offsetof(struct jrec_feat_prefix, feature), swapped) != id)
		return -EBADMSG;
	*payload = p + sizeof(struct jrec_feat_prefix);
	*payload_len = len - sizeof(struct jrec_feat_prefix);
	return 0;
}

/* ------------------------------------------------------------ the table of sections */

int jrec_section_table__emit(struct buf *b, const struct jrec_section_ref *refs, uint32_t nr)
{
	struct jrec_section_table t = {JREC_SECTIONS_MAGIC, JREC_SECTIONS_VERSION, nr};
	uint32_t i;
	int err;

	for (i = 0; i < nr; i++)
		if (refs[i].id < JREC_FEAT_FIRST || refs[i].id >= PERF_FILE_FEAT_BITS ||
		    (i && refs[i].id <= refs[i - 1].id))
			return -EINVAL;
	err = buf__append(b, &t, sizeof(t));
	return err ? err : buf__append(b, refs, nr * sizeof(*refs));
}

int jrec_section_table__walk(const void *p, size_t len, bool swapped,
			     int (*fn)(unsigned int id, uint64_t offset, uint64_t size, void *ctx),
			     void *ctx)
{
	const size_t hdr = sizeof(struct jrec_section_table), ent = sizeof(struct jrec_section_ref);
	const uint8_t *q = p;
	unsigned int prev = 0;
	uint32_t nr, i;
	int err;

	if (len < hdr || bo_u64(q, swapped) != JREC_SECTIONS_MAGIC)
		return 0;
	nr = bo_u32(q + offsetof(struct jrec_section_table, nr), swapped);
	for (i = 0; i < nr; i++) {
		const uint8_t *e = q + hdr + (size_t)i * ent;
		unsigned int id;

		if (ent > len - hdr - (size_t)i * ent)
			return -EBADMSG;
		id = bo_u32(e, swapped);
		if (id < JREC_FEAT_FIRST || id >= PERF_FILE_FEAT_BITS || id <= prev)
			return -EBADMSG;
		prev = id;
		err = fn(id, bo_u64(e + offsetof(struct jrec_section_ref, sec.offset), swapped),
			 bo_u64(e + offsetof(struct jrec_section_ref, sec.size), swapped), ctx);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------ compression */

int jrec_section__compress(struct buf *b, int level)
{
	const size_t pre = sizeof(struct jrec_feat_prefix), zh = sizeof(struct jrec_feat_zstd);
	struct jrec_feat_prefix p;
	struct jrec_feat_zstd z;
	struct buf out = BUF_INIT;
	size_t bound, n;
	int err;

	if (b->len < pre)
		return -EINVAL;
	memcpy(&p, b->data, pre);
	if (p.magic != JREC_FEAT_MAGIC || (p.feature & JREC_FEAT_ZSTD))
		return -EINVAL;
	z.raw_len = b->len - pre;
	bound = ZSTD_compressBound(b->len - pre);
	err = buf__reserve(&out, pre + zh + bound);
	if (err)
		return err;
	n = ZSTD_compress(out.data + pre + zh, bound, b->data + pre, b->len - pre, level);
	if (ZSTD_isError(n) || pre + zh + n >= b->len) {
		buf__release(&out); /* would not shrink: keep it plain */
		return 0;
	}
	p.feature |= JREC_FEAT_ZSTD;
	memcpy(out.data, &p, pre);
	memcpy(out.data + pre, &z, zh);
	out.len = pre + zh + n;
	buf__release(b);
	*b = out;
	return 0;
}

int jrec_section__decompress(const void *sec, size_t len, bool swapped, unsigned int id,
			     struct buf *out)
{
	const size_t pre = sizeof(struct jrec_feat_prefix), zh = sizeof(struct jrec_feat_zstd);
	const uint8_t *p = sec;
	struct jrec_feat_prefix plain;
	ZSTD_inBuffer in;
	ZSTD_DCtx *dctx;
	uint64_t raw_len;
	size_t ret = 1;
	int err = 0;

	if (len < pre || bo_u32(p, swapped) != JREC_FEAT_MAGIC ||
	    bo_u16(p + offsetof(struct jrec_feat_prefix, feature), swapped) !=
		(JREC_FEAT_ZSTD | id))
		return 0;
	if (len - pre < zh)
		return -EBADMSG;
	raw_len = bo_u64(p + pre + offsetof(struct jrec_feat_zstd, raw_len), swapped);
	if (raw_len > JREC_SECTION_MAX_RAW || raw_len > SIZE_MAX - pre)
		return -EBADMSG;
	dctx = ZSTD_createDCtx();
	if (!dctx)
		return -ENOMEM;
	memcpy(&plain, p, pre);
	plain.feature = (uint16_t)id; /* in the file's byte order, as the rest of the prefix */
	if (swapped)
		plain.feature = (uint16_t)(plain.feature >> 8 | plain.feature << 8);
	out->len = 0;
	err = buf__append(out, &plain, pre);
	in.src = p + pre + zh;
	in.size = len - pre - zh;
	in.pos = 0;
	/* the output grows with what the frame really holds, never past raw_len */
	while (!err && ret) {
		size_t room = (size_t)raw_len - (out->len - pre), before = in.pos;
		ZSTD_outBuffer o;

		if (room > (1u << 20))
			room = 1u << 20;
		err = buf__reserve(out, room);
		if (err)
			break;
		o.dst = out->data + out->len;
		o.size = room;
		o.pos = 0;
		ret = ZSTD_decompressStream(dctx, &o, &in);
		if (ZSTD_isError(ret)) {
			err = -EBADMSG;
			break;
		}
		out->len += o.pos;
		/* no progress: the section ends inside the frame, or it holds more than it said */
		if (ret && !o.pos && in.pos == before)
			err = -EBADMSG;
	}
	ZSTD_freeDCtx(dctx);
	if (!err && (in.pos != in.size || out->len - pre != raw_len))
		err = -EBADMSG;
	if (err) {
		buf__release(out);
		return err;
	}
	return 1;
}

/* ------------------------------------------------------------ INFO */

int jrec_info__add(struct buf *b, const char *key, const char *fmt, ...)
{
	char val[2048];
	va_list ap;
	int n, i, err;

	va_start(ap, fmt);
	n = vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(val))
		n = sizeof(val) - 1;
	for (i = 0; i < n; i++)
		if (val[i] == '\n' || val[i] == '\r')
			val[i] = ' ';
	err = buf__append(b, key, strlen(key));
	if (!err)
		err = buf__append(b, "=", 1);
	if (!err)
		err = buf__append(b, val, (size_t)n);
	if (!err)
		err = buf__append(b, "\n", 1);
	return err;
}

static void info_line(const char *buf, struct jrec_info *o)
{
	if (!strncmp(buf, "mode=", 5)) {
		snprintf(o->mode, sizeof(o->mode), "%.*s", (int)sizeof(o->mode) - 1, buf + 5);
	} else if (!strcmp(buf, "mmap_records=jmmap")) {
		o->mmap_records_jmmap = true;
	} else if (!strncmp(buf, "perfmap_poll_ns=", 16)) {
		o->has_perfmap_poll = true;
		o->perfmap_poll_ns = strtoull(buf + 16, NULL, 10);
	} else if (!strncmp(buf, "kernel_text=", 12)) {
		o->kernel_text = strtoull(buf + 12, NULL, 16);
	} else if (!strncmp(buf, "kernel_release=", 15)) {
		snprintf(o->kernel_release, sizeof(o->kernel_release), "%.*s",
			 (int)sizeof(o->kernel_release) - 1, buf + 15);
	} else if (!strncmp(buf, "kernel_build_id=", 16)) {
		size_t i, hl = strlen(buf + 16) / 2;

		o->has_kernel_bid = true;
		memset(&o->kernel_bid, 0, sizeof(o->kernel_bid));
		o->kernel_bid.kind = JMMAP_COOKIE_ELF_BUILD_ID;
		o->kernel_bid.len = (uint8_t)(hl > 20 ? 20 : hl);
		for (i = 0; i < o->kernel_bid.len; i++) {
			unsigned int v;

			if (sscanf(buf + 16 + 2 * i, "%2x", &v) == 1)
				o->kernel_bid.bytes[i] = (uint8_t)v;
		}
	}
}

void jrec_info__parse(const char *text, size_t len, struct jrec_info *out)
{
	const char *line, *end = text + len;

	memset(out, 0, sizeof(*out));
	for (line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = (size_t)((nl ? nl : end) - line);
		char buf[256];

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = 0;
		info_line(buf, out);
		line = nl ? nl + 1 : end;
	}
}

/* ------------------------------------------------------------ FILES */

int jrec_files__emit(struct buf *b, const struct jrec_file_rec *f)
{
	struct jrec_file_entry e;

	memset(&e, 0, sizeof(e));
	e.pid = f->pid;
	e.status = f->status;
	e.cookie_kind = f->cookie.kind;
	e.cookie_len = f->cookie.len;
	memcpy(e.cookie, f->cookie.bytes, sizeof(e.cookie));
	e.path_len = (uint32_t)strlen(f->path) + 1;
	return jrec_entry__emit(b, &e, sizeof(e), f->path, e.path_len);
}

int jrec_files__walk(const void *payload, size_t len, bool swapped,
		     int (*fn)(const struct jrec_file_rec *f, void *ctx), void *ctx)
{
	const uint8_t *p = payload;
	size_t off = 0;
	int err;

	while (len - off >= sizeof(struct jrec_file_entry)) {
		const uint8_t *fe = jrec_entry__take(p, len, &off, sizeof(struct jrec_file_entry));
		uint64_t plen = bo_u32(fe + offsetof(struct jrec_file_entry, path_len), swapped);
		const uint8_t *path = jrec_entry__take(p, len, &off, plen);
		struct jrec_file_rec f;

		if (!plen || !path || path[plen - 1])
			return -EBADMSG;
		memset(&f, 0, sizeof(f));
		f.pid = bo_u32(fe + offsetof(struct jrec_file_entry, pid), swapped);
		f.status = bo_u16(fe + offsetof(struct jrec_file_entry, status), swapped);
		f.cookie.kind = fe[offsetof(struct jrec_file_entry, cookie_kind)];
		f.cookie.len = fe[offsetof(struct jrec_file_entry, cookie_len)];
		if (f.cookie.len > JMMAP_COOKIE_MAX) /* impossible: no cookie */
			f.cookie.kind = JMMAP_COOKIE_NONE, f.cookie.len = 0;
		memcpy(f.cookie.bytes, fe + offsetof(struct jrec_file_entry, cookie), f.cookie.len);
		f.path = (const char *)path;
		err = fn(&f, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------ JITDUMP */

int jrec_jitdumps__emit(struct buf *b, const struct jrec_jitdump_rec *j)
{
	struct jrec_jitdump_entry e;
	int err;

	memset(&e, 0, sizeof(e));
	e.pid = j->pid;
	e.name_len = (uint32_t)strlen(j->path) + 1;
	e.data_len = j->len;
	e.time = j->time;
	err = jrec_entry__emit(b, &e, sizeof(e), j->path, e.name_len);
	if (!err)
		err = buf__append(b, j->data, j->len);
	if (!err)
		err = buf__pad(b, JREC_SECTION_ALIGN);
	return err;
}

int jrec_jitdumps__walk(const void *payload, size_t len, bool swapped,
			int (*fn)(const struct jrec_jitdump_rec *j, void *ctx), void *ctx)
{
	const uint8_t *p = payload;
	size_t off = 0;
	int err;

	while (len - off >= sizeof(struct jrec_jitdump_entry)) {
		const uint8_t *e = jrec_entry__take(p, len, &off, sizeof(struct jrec_jitdump_entry));
		uint64_t name_len =
		    bo_u32(e + offsetof(struct jrec_jitdump_entry, name_len), swapped);
		const uint8_t *name = jrec_entry__take(p, len, &off, name_len);
		struct jrec_jitdump_rec j;

		j.len = bo_u64(e + offsetof(struct jrec_jitdump_entry, data_len), swapped);
		j.data = name ? jrec_entry__take(p, len, &off, j.len) : NULL;
		if (!j.data)
			return -EBADMSG;
		j.pid = bo_u32(e + offsetof(struct jrec_jitdump_entry, pid), swapped);
		j.time = bo_u64(e + offsetof(struct jrec_jitdump_entry, time), swapped);
		j.path = name_len && !name[name_len - 1] ? (const char *)name : NULL;
		err = fn(&j, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------ PERFMAP */

int jrec_perfmaps__emit(struct buf *b, const struct jrec_perfmap_rec *l)
{
	struct jrec_perfmap_entry e;

	if (l->len > UINT32_MAX)
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	e.time = l->time;
	e.pid = l->pid;
	e.len = (uint32_t)l->len;
	return jrec_entry__emit(b, &e, sizeof(e), l->line, l->len);
}

int jrec_perfmaps__walk(const void *payload, size_t len, bool swapped,
			int (*fn)(const struct jrec_perfmap_rec *l, void *ctx), void *ctx)
{
	const uint8_t *p = payload;
	size_t off = 0;
	int err;

	while (len - off >= sizeof(struct jrec_perfmap_entry)) {
		const uint8_t *e = jrec_entry__take(p, len, &off, sizeof(struct jrec_perfmap_entry));
		struct jrec_perfmap_rec l;

		l.time = bo_u64(e + offsetof(struct jrec_perfmap_entry, time), swapped);
		l.pid = bo_u32(e + offsetof(struct jrec_perfmap_entry, pid), swapped);
		l.len = bo_u32(e + offsetof(struct jrec_perfmap_entry, len), swapped);
		l.line = (const char *)jrec_entry__take(p, len, &off, l.len);
		if (!l.line)
			return -EBADMSG;
		err = fn(&l, ctx);
		if (err)
			return err;
	}
	return 0;
}
