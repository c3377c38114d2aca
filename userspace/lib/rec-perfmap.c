// SPDX-License-Identifier: GPL-2.0
/* Perf-map watching and line splitting; see rec-perfmap.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jrec-sections.h"
#include "procfs.h"
#include "rec-perfmap.h"

static int emit(struct rec_perfmap_split *s, const char *line, size_t len, rec_perfmap_line_fn fn,
		void *ctx)
{
	if (len && line[len - 1] == '\r')
		len--;
	if (!len)
		return 0;
	return fn(line, len, ctx);
}

int rec_perfmap_split__feed(struct rec_perfmap_split *s, const char *bytes, size_t n,
			    rec_perfmap_line_fn fn, void *ctx)
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

void rec_perfmap_split__release(struct rec_perfmap_split *s)
{
	if (s)
		buf__release(&s->partial);
}

int rec_perfmap__new(uint32_t pid, struct rec_perfmap **out)
{
	struct rec_perfmap *pm;
	uint32_t nspid = pid;
	int err;

	err = procfs_read_nspid((pid_t)pid, &nspid);
	if (err == -ENOENT) {
		/* no NSpid line (kernel before 4.1), or the process is gone */
		char p[32];

		snprintf(p, sizeof(p), "/proc/%u", pid);
		if (access(p, F_OK))
			return -ESRCH;
		nspid = pid;
	} else if (err) {
		return err;
	}
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->pid = pid;
	pm->nspid = nspid;
	pm->fd = -1;
	snprintf(pm->path, sizeof(pm->path), "/proc/%u/root/tmp/perf-%u.map", pid, nspid);
	*out = pm;
	return 0;
}

struct line_ctx {
	struct rec_perfmap *pm;
	struct buf *out;
	uint64_t now;
};

static int on_line(const char *line, size_t len, void *arg)
{
	struct line_ctx *c = arg;

	struct jrec_perfmap_rec l = {c->now, c->pm->pid, line, len};

	c->pm->lines++;
	return jrec_perfmaps__emit(c->out, &l);
}

int rec_perfmap__update(struct rec_perfmap *pm, uint64_t now, struct buf *out)
{
	struct line_ctx c = {pm, out, now};
	char buf[16384];
	struct stat st;
	int err;

	if (pm->fd < 0) {
		pm->fd = open(pm->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (pm->fd < 0)
			return errno == ENOENT ? 0 : -errno;
	}
	if (fstat(pm->fd, &st))
		return -errno;
	if ((uint64_t)st.st_size < pm->offset) {
		/* truncated and rewritten: start over */
		pm->offset = 0;
		pm->split.partial.len = 0;
	}
	while (pm->offset < (uint64_t)st.st_size) {
		ssize_t n = pread(pm->fd, buf, sizeof(buf), (off_t)pm->offset);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		pm->offset += (uint64_t)n;
		err = rec_perfmap_split__feed(&pm->split, buf, (size_t)n, on_line, &c);
		if (err)
			return err;
	}
	return 0;
}

void rec_perfmap__free(struct rec_perfmap *pm)
{
	if (!pm)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	rec_perfmap_split__release(&pm->split);
	free(pm);
}
