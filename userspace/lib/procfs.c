// SPDX-License-Identifier: GPL-2.0
/* Length-checked parsers of /proc and /sys text; see procfs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "byteorder.h"
#include "procfs.h"

struct cursor {
	const char *p, *end;
};

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* 1..16 hex digits; more is an overflow. */
static int cur_hex(struct cursor *c, uint64_t *v)
{
	int n = 0, d;

	*v = 0;
	while (c->p < c->end && (d = hex_digit(*c->p)) >= 0) {
		if (++n > 16)
			return -EINVAL;
		*v = (*v << 4) | (uint64_t)d;
		c->p++;
	}
	return n ? 0 : -EINVAL;
}

static int cur_dec(struct cursor *c, uint64_t *v)
{
	int n = 0;

	*v = 0;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		uint64_t d = (uint64_t)(*c->p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		*v = *v * 10 + d;
		c->p++;
		n++;
	}
	return n ? 0 : -EINVAL;
}

static int cur_char(struct cursor *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		return -EINVAL;
	c->p++;
	return 0;
}

static int cur_spaces(struct cursor *c)
{
	const char *s = c->p;

	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
	return c->p > s ? 0 : -EINVAL;
}

int procfs_parse_maps_line(const char *line, size_t len, struct procfs_map *m)
{
	static const char deleted[] = " (deleted)";
	struct cursor c = {line, line + len};
	uint64_t v;
	size_t n;

	memset(m, 0, sizeof(*m));
	if (cur_hex(&c, &m->start) || cur_char(&c, '-') || cur_hex(&c, &m->end) ||
	    m->end < m->start || cur_spaces(&c))
		return -EINVAL;
	if (c.end - c.p < 4)
		return -EINVAL;
	if (c.p[0] == 'r')
		m->prot |= PROT_READ;
	else if (c.p[0] != '-')
		return -EINVAL;
	if (c.p[1] == 'w')
		m->prot |= PROT_WRITE;
	else if (c.p[1] != '-')
		return -EINVAL;
	if (c.p[2] == 'x')
		m->prot |= PROT_EXEC;
	else if (c.p[2] != '-')
		return -EINVAL;
	if (c.p[3] == 's')
		m->flags = MAP_SHARED;
	else if (c.p[3] == 'p')
		m->flags = MAP_PRIVATE;
	else
		return -EINVAL;
	c.p += 4;
	if (cur_spaces(&c) || cur_hex(&c, &m->pgoff) || cur_spaces(&c))
		return -EINVAL;
	if (cur_hex(&c, &v) || v > UINT32_MAX || cur_char(&c, ':'))
		return -EINVAL;
	m->dev_major = (uint32_t)v;
	if (cur_hex(&c, &v) || v > UINT32_MAX)
		return -EINVAL;
	m->dev_minor = (uint32_t)v;
	if (cur_spaces(&c) || cur_dec(&c, &m->ino))
		return -EINVAL;
	if (c.p == c.end)
		return 0; /* anonymous */
	if (cur_spaces(&c))
		return -EINVAL;
	n = (size_t)(c.end - c.p);
	if (n >= sizeof(deleted) - 1 &&
	    !memcmp(c.end - (sizeof(deleted) - 1), deleted, sizeof(deleted) - 1)) {
		m->deleted = 1;
		n -= sizeof(deleted) - 1;
	}
	if (n >= sizeof(m->path) || memchr(c.p, '\0', n))
		return -EINVAL;
	memcpy(m->path, c.p, n);
	m->path[n] = '\0';
	return 0;
}

int procfs_parse_maps(const char *text, size_t len,
		      int (*fn)(const struct procfs_map *m, void *ctx), void *ctx)
{
	struct procfs_map m;
	const char *p = text, *end = text + len;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le > p) {
			err = procfs_parse_maps_line(p, (size_t)(le - p), &m);
			if (err)
				return err;
			err = fn(&m, ctx);
			if (err)
				return err;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int procfs_read_file(const char *path, struct buf *b)
{
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		err = buf__reserve(b, 4096);
		if (err)
			break;
		n = read(fd, b->data + b->len, b->cap - b->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	close(fd);
	return err;
}

int procfs_read_maps(pid_t pid, int (*fn)(const struct procfs_map *m, void *ctx), void *ctx)
{
	struct buf b = BUF_INIT;
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	err = procfs_read_file(path, &b);
	if (!err)
		err = procfs_parse_maps((const char *)b.data, b.len, fn, ctx);
	buf__release(&b);
	return err;
}

/* The [vdso] mapping that starts at *ctx's address: its end stored in its place. */
static int find_vdso(const struct procfs_map *m, void *ctx)
{
	uint64_t *want = ctx;

	if (strcmp(m->path, "[vdso]") || m->start != want[0] || m->end <= m->start ||
	    m->end - m->start > (1u << 20))
		return 0;
	want[1] = m->end;
	return 1;
}

int procfs_read_own_vdso(void **out, size_t *len)
{
	uint64_t range[2] = { getauxval(AT_SYSINFO_EHDR), 0 };
	int err;

	*out = NULL;
	*len = 0;
	if (!range[0])
		return -ENOENT;
	err = procfs_read_maps(getpid(), find_vdso, range);
	if (err < 0)
		return err;
	if (!range[1])
		return -ENOENT;
	*len = range[1] - range[0];
	*out = malloc(*len);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, (const void *)(uintptr_t)range[0], *len);
	return 0;
}

/* The value after "key:" on its own line of a status text; NULL if absent. */
static const char *status_value(const char *text, size_t len, const char *key, const char **vend)
{
	size_t klen = strlen(key);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > klen && !memcmp(p, key, klen) && p[klen] == ':') {
			*vend = le;
			return p + klen + 1;
		}
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

int procfs_parse_nspid(const char *text, size_t len, uint32_t *nspid)
{
	struct cursor c;
	uint64_t v = 0;
	int n = 0;

	c.p = status_value(text, len, "NSpid", &c.end);
	if (!c.p)
		return -ENOENT;
	/* tab-separated pids, outermost first; the last is the innermost */
	while (c.p < c.end) {
		if (cur_spaces(&c))
			return -EINVAL;
		if (c.p == c.end)
			break;
		if (cur_dec(&c, &v) || v == 0 || v > INT32_MAX)
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	*nspid = (uint32_t)v;
	return 0;
}

int procfs_read_nspid(pid_t pid, uint32_t *nspid)
{
	struct buf b = BUF_INIT;
	char path[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	err = procfs_read_file(path, &b);
	if (!err)
		err = procfs_parse_nspid((const char *)b.data, b.len, nspid);
	buf__release(&b);
	return err;
}

int procfs_parse_comm(const char *text, size_t len, char comm[16])
{
	const char *v, *vend;
	size_t n;

	v = status_value(text, len, "Name", &vend);
	if (!v)
		return -ENOENT;
	while (v < vend && (*v == ' ' || *v == '\t'))
		v++;
	n = (size_t)(vend - v);
	if (n > 15)
		n = 15;
	memcpy(comm, v, n);
	memset(comm + n, 0, 16 - n);
	return 0;
}

int procfs_parse_build_id_note(const uint8_t *notes, size_t len, uint8_t id[20], uint8_t *id_len)
{
	size_t off = 0;

	while (len - off >= 12) {
		/* the running kernel's notes: host byte order */
		uint32_t namesz = bo_u32(notes + off, false),
			 descsz = bo_u32(notes + off + 4, false);
		uint32_t type = bo_u32(notes + off + 8, false);
		size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
		size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
		const uint8_t *name = notes + off + 12;

		if (name_pad > len - off - 12 || desc_pad > len - off - 12 - name_pad)
			return -EINVAL;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && !memcmp(name, "GNU", 4)) {
			if (descsz == 0 || descsz > 20)
				return -EINVAL;
			memcpy(id, name + name_pad, descsz);
			*id_len = (uint8_t)descsz;
			return 0;
		}
		off += 12 + name_pad + desc_pad;
	}
	return off == len ? -ENOENT : -EINVAL; /* a note header cut short */
}

int procfs_read_kernel_build_id(uint8_t id[20], uint8_t *id_len)
{
	struct buf b = BUF_INIT;
	int err;

	err = procfs_read_file("/sys/kernel/notes", &b);
	if (!err)
		err = procfs_parse_build_id_note(b.data, b.len, id, id_len);
	buf__release(&b);
	return err;
}

int procfs_parse_kallsyms_sym(const char *text, size_t len, const char *name, uint64_t *addr)
{
	size_t nlen = strlen(name);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct cursor c = {p, le};
		uint64_t v;

		/* "ADDR T name" */
		if (!cur_hex(&c, &v) && !cur_spaces(&c) && c.p < c.end) {
			c.p++;
			if (!cur_spaces(&c) && (size_t)(c.end - c.p) == nlen &&
			    !memcmp(c.p, name, nlen)) {
				if (!v)
					return -EACCES;
				*addr = v;
				return 0;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}
