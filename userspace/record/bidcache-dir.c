// SPDX-License-Identifier: GPL-2.0
/* The build-id cache's entries: listed, removed, pruned; see bidcache-dir.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "bidcache-dir.h"
#include "buildid-cache.h"

static int is_hex_name(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n && n % 2 == 0 && !s[n];
}

static char *read_path(int dfd)
{
	char buf[4096];
	ssize_t n = -1;
	int fd = openat(dfd, BUILDID_CACHE_PATH, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/* One entry's figures; what it costs: every file's blocks but a shared `file`'s. */
static int read_entry(int cache_fd, const char *name, struct bidcache_entry *e)
{
	int dfd = openat(cache_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (dfd < 0)
		return -errno;
	memset(e, 0, sizeof(*e));
	if (fstat(dfd, &st)) {
		close(dfd);
		return -errno;
	}
	e->used = st.st_mtim;
	e->path = read_path(dfd);
	e->name = strdup(name);
	d = fdopendir(dfd);
	if (!d || !e->path || !e->name) {
		if (d)
			closedir(d);
		else
			close(dfd);
		free(e->path);
		free(e->name);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		int is_file = !strcmp(de->d_name, BUILDID_CACHE_FILE);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (is_file) {
			e->size = (uint64_t)st.st_size;
			e->nlink = (unsigned int)st.st_nlink;
		}
		if (!is_file || st.st_nlink <= 1)
			e->cost += (uint64_t)st.st_blocks * 512;
	}
	closedir(d);
	return 0;
}

static int older(const void *a, const void *b)
{
	const struct bidcache_entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

int bidcache_dir__read(const char *dir, struct bidcache_dir *d)
{
	struct dirent *de;
	int fd, err = 0;
	DIR *dd;

	memset(d, 0, sizeof(*d));
	dd = opendir(dir);
	if (!dd)
		return errno == ENOENT ? 0 : -errno; /* no cache yet: empty */
	fd = dirfd(dd);
	while (!err && (de = readdir(dd))) {
		if (!is_hex_name(de->d_name))
			continue;
		err = array_grow(&d->e, &d->cap, d->nr + 1);
		if (!err && !read_entry(fd, de->d_name, &d->e[d->nr]))
			d->cost += d->e[d->nr++].cost;
	}
	closedir(dd);
	if (err) {
		bidcache_dir__release(d);
		return err;
	}
	if (d->nr)
		qsort(d->e, d->nr, sizeof(*d->e), older);
	return 0;
}

void bidcache_dir__release(struct bidcache_dir *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->e[i].name);
		free(d->e[i].path);
	}
	free(d->e);
	memset(d, 0, sizeof(*d));
}

int bidcache_dir__remove(const char *dir, const char *name)
{
	struct dirent *de;
	char *path;
	int dfd, err = 0;
	DIR *d;

	if (!is_hex_name(name))
		return -EINVAL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	d = opendir(path);
	if (!d) {
		err = -errno;
		free(path);
		return err;
	}
	dfd = dirfd(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    unlinkat(dfd, de->d_name, 0) && !err)
			err = -errno;
	closedir(d);
	if (!err && rmdir(path))
		err = -errno;
	free(path);
	return err;
}

static int at_or_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec >= b->tv_nsec);
}

int bidcache_dir__prune(const char *dir, uint64_t limit, const struct timespec *spare_since,
			size_t *nr, uint64_t *bytes)
{
	struct bidcache_dir d;
	size_t i;
	int err = bidcache_dir__read(dir, &d);

	*nr = 0;
	*bytes = 0;
	if (err)
		return err;
	for (i = 0; i < d.nr && d.cost > limit; i++) {
		const struct bidcache_entry *e = &d.e[i];

		if (spare_since && at_or_after(&e->used, spare_since))
			continue;
		err = bidcache_dir__remove(dir, e->name);
		if (err)
			break;
		d.cost -= e->cost;
		*bytes += e->cost;
		(*nr)++;
	}
	bidcache_dir__release(&d);
	return err;
}
