// SPDX-License-Identifier: GPL-2.0
/* Perf-map watching; see perfmap-watch.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jrec-sections.h"
#include "map-names.h"
#include "procfs.h"
#include "perfmap-watch.h"

int perfmap_watch__new(uint32_t pid, struct perfmap_watch **out)
{
	struct perfmap_watch *pm;
	uint32_t nspid = pid;
	char root[32];
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
	snprintf(root, sizeof(root), "/proc/%u/root", pid);
	err = map_name__perfmap_path(pm->path, sizeof(pm->path), root, nspid);
	if (err) {
		free(pm);
		return err;
	}
	*out = pm;
	return 0;
}

struct line_ctx {
	struct perfmap_watch *pm;
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

int perfmap_watch__update(struct perfmap_watch *pm, uint64_t now, struct buf *out)
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
		err = perfmap_split__feed(&pm->split, buf, (size_t)n, on_line, &c);
		if (err)
			return err;
	}
	return 0;
}

void perfmap_watch__free(struct perfmap_watch *pm)
{
	if (!pm)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	perfmap_split__release(&pm->split);
	free(pm);
}
