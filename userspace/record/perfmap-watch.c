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

#define PERFMAP_DIR_EVENTS (IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)
#define PERFMAP_FILE_EVENTS (IN_MODIFY | IN_CLOSE_WRITE)

/* Whether @pid runs in the recorder's own mount namespace under the same root. */
static bool same_root(uint32_t pid)
{
	char p[48];
	struct stat a, b;

	snprintf(p, sizeof(p), "/proc/%u/ns/mnt", pid);
	if (stat(p, &a) || stat("/proc/self/ns/mnt", &b) || a.st_ino != b.st_ino ||
	    a.st_dev != b.st_dev)
		return false;
	snprintf(p, sizeof(p), "/proc/%u/root", pid);
	return !stat(p, &a) && !stat("/", &b) && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* @pid's root directory and mount namespace; -errno if it is gone. */
static int root_of(uint32_t pid, uint64_t *dev, uint64_t *ino, uint64_t *mntns)
{
	char p[48];
	struct stat a, b;

	snprintf(p, sizeof(p), "/proc/%u/root", pid);
	if (stat(p, &a))
		return -errno;
	snprintf(p, sizeof(p), "/proc/%u/ns/mnt", pid);
	if (stat(p, &b))
		return -errno;
	*dev = a.st_dev;
	*ino = a.st_ino;
	*mntns = b.st_ino;
	return 0;
}

/* The pid the process sees itself as; -ESRCH if it is gone. */
static int nspid_of(uint32_t pid, uint32_t *nspid)
{
	char p[32];
	int err = procfs_read_nspid((pid_t)pid, nspid);

	if (err != -ENOENT)
		return err;
	/* no NSpid line (kernel before 4.1), or the process is gone */
	snprintf(p, sizeof(p), "/proc/%u", pid);
	if (access(p, F_OK))
		return -ESRCH;
	*nspid = pid;
	return 0;
}

int perfmap_watch__new(uint32_t pid, int inotify_fd, struct perfmap_watch **out)
{
	struct perfmap_watch *pm;
	uint32_t nspid = pid;
	char root[32], dir[48];
	int err;

	err = nspid_of(pid, &nspid);
	if (err)
		return err;
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->pid = pid;
	pm->nspid = nspid;
	pm->fd = pm->tmpfd = pm->dir_wd = pm->file_wd = -1;
	/* (a process gone since: its watch is never found moved) */
	root_of(pid, &pm->root_dev, &pm->root_ino, &pm->mntns_ino);
	snprintf(root, sizeof(root), "/proc/%u/root", pid);
	if (same_root(pid)) {
		root[0] = '\0';
	} else {
		/* held, so that the map is still reached once the process has exited */
		snprintf(dir, sizeof(dir), "%s/tmp", root);
		pm->tmpfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	err = map_name__perfmap_path(pm->path, sizeof(pm->path), root, nspid);
	if (!err)
		err = map_name__jit_source(pm->name, sizeof(pm->name), false, nspid);
	if (err) {
		perfmap_watch__free(pm);
		return err;
	}
	if (inotify_fd >= 0) {
		if (pm->tmpfd >= 0)
			snprintf(dir, sizeof(dir), "/proc/self/fd/%d", pm->tmpfd);
		else
			snprintf(dir, sizeof(dir), "%s/tmp", root);
		pm->dir_wd = inotify_add_watch(inotify_fd, dir, PERFMAP_DIR_EVENTS);
	}
	*out = pm;
	return 0;
}

static int open_map(struct perfmap_watch *pm, int inotify_fd)
{
	char self[32];

	if (pm->tmpfd >= 0) {
		pm->fd = openat(pm->tmpfd, pm->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	} else {
		pm->fd = open(pm->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	}
	if (pm->fd < 0)
		return errno == ENOENT ? 0 : -errno;
	pm->offset = 0;
	pm->split.partial.len = 0;
	pm->split.skipping = 0;
	if (inotify_fd >= 0) {
		/* the file this descriptor has, whatever its path now names */
		snprintf(self, sizeof(self), "/proc/self/fd/%d", pm->fd);
		pm->file_wd = inotify_add_watch(inotify_fd, self, PERFMAP_FILE_EVENTS);
	}
	return 0;
}

static void close_map(struct perfmap_watch *pm, int inotify_fd)
{
	if (pm->file_wd >= 0 && inotify_fd >= 0)
		inotify_rm_watch(inotify_fd, pm->file_wd);
	pm->file_wd = -1;
	if (pm->fd >= 0)
		close(pm->fd);
	pm->fd = -1;
}

/* The path names another file than the one open (replaced by a rename): read that one. */
static bool replaced(const struct perfmap_watch *pm)
{
	struct stat a, b;
	int err;

	if (pm->tmpfd >= 0) {
		err = fstatat(pm->tmpfd, pm->name, &b, 0);
	} else {
		err = stat(pm->path, &b);
	}
	return !err && !fstat(pm->fd, &a) && (a.st_ino != b.st_ino || a.st_dev != b.st_dev);
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

int perfmap_watch__update(struct perfmap_watch *pm, int inotify_fd, uint64_t now,
			  struct buf *out)
{
	struct line_ctx c = {pm, out, now};
	char buf[16384];
	struct stat st;
	int err;

	if (pm->fd >= 0 && pm->dir_wd >= 0 && replaced(pm))
		close_map(pm, inotify_fd);
	if (pm->fd < 0) {
		err = open_map(pm, inotify_fd);
		if (err || pm->fd < 0)
			return err;
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

bool perfmap_watch__wants(const struct perfmap_watch *pm, const struct inotify_event *ev)
{
	if (pm->gone)
		return false;
	if (ev->wd == pm->file_wd)
		return true;
	return ev->wd == pm->dir_wd && ev->len && !strcmp(ev->name, pm->name);
}

bool perfmap_watch__moved(const struct perfmap_watch *pm)
{
	uint64_t dev, ino, mntns;

	if (pm->gone || pm->fd >= 0 || root_of(pm->pid, &dev, &ino, &mntns))
		return false;
	return dev != pm->root_dev || ino != pm->root_ino || mntns != pm->mntns_ino;
}

bool perfmap_watch__polled(const struct perfmap_watch *pm)
{
	return pm->fd >= 0 ? pm->file_wd < 0 : pm->dir_wd < 0;
}

void perfmap_watch__close(struct perfmap_watch *pm, int inotify_fd)
{
	close_map(pm, inotify_fd);
	/* a directory watch may be shared with other maps in the same /tmp: left */
	pm->dir_wd = -1;
	if (pm->tmpfd >= 0)
		close(pm->tmpfd);
	pm->tmpfd = -1;
}

void perfmap_watch__free(struct perfmap_watch *pm)
{
	if (!pm)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	if (pm->tmpfd >= 0)
		close(pm->tmpfd);
	perfmap_split__release(&pm->split);
	free(pm);
}
