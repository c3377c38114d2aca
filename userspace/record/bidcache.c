// SPDX-License-Identifier: GPL-2.0
/* The build-id cache writer thread; see bidcache.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "array.h"
#include "buildid-cache.h"
#include "perf-file.h"
#include "bidcache.h"
#include "stored-syms.h"
#include "strpool.h"

/*
 * Beyond this, queued jobs open map_files late; and at most a quarter of
 * the descriptors the recorder may open, since pinned files stay open
 * until the queue is drained (pin_budget()).
 */
#define MAX_PINNED_FDS 512
/*
 * Reading and hashing a mapped library and building its symbol table cost
 * some milliseconds, which on a busy CPU the workload would pay for (on the
 * guest benchmark's one CPU, 1.5 to 4 ms of its mapping loop's first 30,
 * at nice 19 as at SCHED_IDLE: the scheduler gives even those whole slices
 * now and then). So a job whose file is pinned (its map_files descriptor
 * open) waits for the recorder to drain the queue, when the recording (or
 * one of its files) ends, as perf collects build-ids at the end: the
 * descriptor keeps the mapped inode, whatever happens to the path. Only a
 * job without one, past MAX_PINNED_FDS or whose map_files could not be
 * opened, is the thread's while the workload runs, at nice 19, before its
 * file can go.
 */
#define WORKER_NICE 19

struct job {
	struct job *next;
	size_t slot; /* its result's index: results stay in queue order */
	struct bidcache_map m;
	char *path;
	int fd; /* map_files descriptor opened at enqueue, or -1 */
	int fd_err;
};

struct bidcache {
	char *dir;
	pthread_t thread;
	int thread_started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct job *head, *tail;
	int stopping;
	unsigned int queued, pinned; /* jobs in the queue, and those of them pinned */
	unsigned int pin_max;
	unsigned int nr_linked, nr_cloned; /* of the SAVED: hard links, reflinks */
	struct strpool keys; /* the mappings queued so far, as keys */
	/* results, appended by the thread under lock */
	struct bidcache_result *res;
	size_t nr_res, res_cap;
};

/* 1 if added, 0 if present, -ENOMEM. */
static int keyset_add(struct bidcache *c, const char *key)
{
	size_t before = c->keys.nr;

	if (!strpool__str(&c->keys, key))
		return -ENOMEM;
	return c->keys.nr > before;
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int err = -errno;

			*p = '/';
			return err;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int copy_fd(int in, int out)
{
	char buf[65536];
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(in, buf, sizeof(buf), off), w;
		char *p = buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		off += n;
		while (n > 0) {
			w = write(out, p, (size_t)n);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			p += w;
			n -= w;
		}
	}
}

/*
 * A hard link to the mapped file's own inode as @file: no bytes copied,
 * and the inode outlives a rename over its path or a package upgrade. Only
 * when the link names the very inode @fd has open (the open descriptor's
 * path may have been replaced since). 0 or -errno (-EXDEV on another
 * filesystem, -ENOENT for a deleted file, -EPERM under protected_hardlinks).
 */
static int link_file(int fd, const char *file)
{
	char self[64];
	struct stat a, b;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, self, AT_FDCWD, file, AT_SYMLINK_FOLLOW))
		return -errno;
	if (fstat(fd, &a) || lstat(file, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		unlink(file);
		return -ESTALE;
	}
	return 0;
}

/* The bytes of @in into @out: shared extents where the filesystem can (reflink), else copied. */
static int clone_or_copy(int in, int out, int *cloned)
{
	*cloned = !ioctl(out, FICLONE, in);
	return *cloned ? 0 : copy_fd(in, out);
}

/*
 * Keep the mapped file @fd as DIR/<hex>/file: a hard link to its inode,
 * else a reflink, else a copy; a copy is checked against @ck again before
 * it is renamed into place. Returns a status.
 */
static int save_file(struct bidcache *c, int fd, const struct jrec_cookie *ck,
		     const char *orig_path, int *errp)
{
	char *dir, *file, *tmp = NULL, *pfile = NULL;
	struct jrec_cookie got;
	int status = JREC_FILE_FAILED, err, out = -1, cloned;
	FILE *pf;

	err = -ENOMEM;
	dir = buildid_cache__path(c->dir, ck, NULL);
	file = buildid_cache__path(c->dir, ck, BUILDID_CACHE_FILE);
	if (!dir || !file)
		goto out;
	if (!access(file, F_OK)) {
		status = JREC_FILE_CACHED;
		utimensat(AT_FDCWD, dir, NULL, 0); /* used now: last in line for eviction */
		err = 0;
		goto out;
	}
	err = mkdir_p(dir);
	if (err)
		goto out;
	if (!link_file(fd, file)) {
		c->nr_linked++;
		goto saved;
	}
	err = -ENOMEM;
	if (asprintf(&tmp, "%s/.file.XXXXXX", dir) < 0) {
		tmp = NULL;
		goto out;
	}
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		goto out;
	}
	err = clone_or_copy(fd, out, &cloned);
	if (err)
		goto out_unlink;
	err = jrec_cookie_from_fd(out, &got);
	if (err)
		goto out_unlink;
	if (!jrec_cookie_equal(&got, ck)) {
		status = JREC_FILE_MISMATCH; /* changed while we copied */
		err = -ESTALE;
		goto out_unlink;
	}
	if (fchmod(out, 0644) || rename(tmp, file)) {
		err = -errno;
		goto out_unlink;
	}
	if (cloned)
		c->nr_cloned++;
saved:
	pfile = buildid_cache__path(c->dir, ck, BUILDID_CACHE_PATH);
	pf = pfile ? fopen(pfile, "we") : NULL;
	if (pf) {
		fprintf(pf, "%s\n", orig_path);
		fclose(pf);
	}
	status = JREC_FILE_SAVED;
	err = 0;
	goto out;
out_unlink:
	unlink(tmp);
out:
	if (out >= 0)
		close(out);
	free(pfile);
	free(tmp);
	free(file);
	free(dir);
	*errp = err;
	return status;
}

static void process(struct bidcache *c, struct job *j, struct bidcache_result *r)
{
	const struct jrec_cookie *want = &j->m.cookie;
	struct jrec_cookie got;
	int fd = j->fd, from_path = 0, err = 0;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->pid = j->m.pid;
	r->cookie = *want;
	if (fd < 0) {
		char mf[80];

		snprintf(mf, sizeof(mf), "/proc/%u/map_files/%llx-%llx", j->m.pid,
			 (unsigned long long)j->m.start, (unsigned long long)j->m.end);
		fd = open(mf, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		/* the process (or the mapping) is gone: fall back to the path */
		from_path = 1;
		fd = open(j->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			r->status = JREC_FILE_VANISHED;
			r->err = -errno;
			return;
		}
	}
	err = jrec_cookie_from_fd(fd, &got);
	if (err) {
		r->status = JREC_FILE_NO_COOKIE;
		r->err = err;
		goto out;
	}
	if (want->kind != JMMAP_COOKIE_NONE) {
		if (!jrec_cookie_equal(want, &got)) {
			r->status = JREC_FILE_MISMATCH;
			goto out;
		}
	} else if (from_path) {
		/* no cookie in the record: the inode must be the one mapped */
		if (fstat(fd, &st) || major(st.st_dev) != j->m.dev_major ||
		    minor(st.st_dev) != j->m.dev_minor || st.st_ino != j->m.ino) {
			r->status = JREC_FILE_VANISHED;
			r->err = -ESTALE;
			goto out;
		}
	}
	r->cookie = got;
	if (c->dir)
		r->status = (uint16_t)save_file(c, fd, &got, j->path, &r->err);
	else
		r->status = JREC_FILE_NOT_SAVED;
	/*
	 * No copy in the cache: keep the file's symbols in the recording
	 * instead. Best effort: a file that is not ELF or has no symbols gets
	 * no entry.
	 */
	if ((r->status == JREC_FILE_NOT_SAVED || r->status == JREC_FILE_FAILED) &&
	    stored_syms__emit(fd, j->path, &got, &r->syms))
		buf__release(&r->syms);
out:
	close(fd);
}

/*
 * Take the first job of the queue, or with @unpinned_only the first whose
 * file is not pinned, and process it, the lock held on entry and on
 * return; 0 when there was none.
 */
static int run_one(struct bidcache *c, int unpinned_only)
{
	struct job *j, *prev = NULL;
	struct bidcache_result r;

	for (j = c->head; j && unpinned_only && j->fd >= 0; j = j->next)
		prev = j;
	if (!j)
		return 0;
	if (prev)
		prev->next = j->next;
	else
		c->head = j->next;
	if (c->tail == j)
		c->tail = prev;
	c->queued--;
	if (j->fd >= 0)
		c->pinned--;
	pthread_mutex_unlock(&c->lock);

	process(c, j, &r);
	r.path = j->path;
	j->path = NULL;

	pthread_mutex_lock(&c->lock);
	c->res[j->slot] = r;
	free(j);
	return 1;
}

static void *worker(void *arg)
{
	struct bidcache *c = arg;

	/* best effort: a thread's nice value is its own on Linux */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE);
	pthread_mutex_lock(&c->lock);
	for (;;) {
		/* only unpinned jobs until the recorder stops (WORKER_NICE) */
		while (c->queued == c->pinned && !c->stopping)
			pthread_cond_wait(&c->cond, &c->lock);
		if (!run_one(c, !c->stopping))
			break;
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* How many files the queue may keep open: see MAX_PINNED_FDS. */
static unsigned int pin_budget(void)
{
	struct rlimit nofile;

	if (getrlimit(RLIMIT_NOFILE, &nofile) || nofile.rlim_cur == RLIM_INFINITY ||
	    nofile.rlim_cur / 4 >= MAX_PINNED_FDS)
		return MAX_PINNED_FDS;
	return (unsigned int)(nofile.rlim_cur / 4);
}

int bidcache__new(const char *dir, struct bidcache **out)
{
	struct bidcache *c;
	int err;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	c->pin_max = pin_budget();
	if (dir) {
		c->dir = strdup(dir);
		if (!c->dir) {
			bidcache__free(c);
			return -ENOMEM;
		}
		err = mkdir_p(c->dir);
		if (err) {
			bidcache__free(c);
			return err;
		}
	}
	err = -pthread_create(&c->thread, NULL, worker, c);
	if (err) {
		bidcache__free(c);
		return err;
	}
	c->thread_started = 1;
	*out = c;
	return 0;
}

int bidcache__add(struct bidcache *c, const struct bidcache_map *m)
{
	char hex[JREC_COOKIE_HEX_LEN], *key = NULL;
	struct job *j;
	int n, err;

	if (m->cookie.kind != JMMAP_COOKIE_NONE) {
		jrec_cookie_hex(&m->cookie, hex);
		n = asprintf(&key, "%s|%s", m->path, hex);
	} else {
		n = asprintf(&key, "%s|%x:%x:%llu:%llu", m->path, m->dev_major, m->dev_minor,
			     (unsigned long long)m->ino, (unsigned long long)m->ino_generation);
	}
	if (n < 0)
		return -ENOMEM;
	/* only the caller's thread touches the key set */
	err = keyset_add(c, key);
	free(key);
	if (err <= 0)
		return err;

	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->m = *m;
	j->path = strdup(m->path);
	if (!j->path) {
		free(j);
		return -ENOMEM;
	}
	j->m.path = NULL;
	j->fd = -1;

	pthread_mutex_lock(&c->lock);
	/* the result's slot now, so that a result is never dropped for want of memory */
	if (array_grow(&c->res, &c->res_cap, c->nr_res + 1)) {
		pthread_mutex_unlock(&c->lock);
		free(j->path);
		free(j);
		return -ENOMEM;
	}
	j->slot = c->nr_res;
	memset(&c->res[c->nr_res++], 0, sizeof(c->res[0]));
	if (c->pinned < c->pin_max) {
		char mf[80];

		snprintf(mf, sizeof(mf), "/proc/%u/map_files/%llx-%llx", m->pid,
			 (unsigned long long)m->start, (unsigned long long)m->end);
		j->fd = open(mf, O_RDONLY | O_CLOEXEC);
		if (j->fd >= 0)
			c->pinned++;
		else
			j->fd_err = -errno;
	}
	if (c->tail)
		c->tail->next = j;
	else
		c->head = j;
	c->tail = j;
	c->queued++;
	if (j->fd < 0)
		pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

void bidcache__stop(struct bidcache *c)
{
	if (!c || !c->thread_started)
		return;
	pthread_mutex_lock(&c->lock);
	c->stopping = 1;
	pthread_cond_signal(&c->cond);
	/* the caller's priority takes what the thread has not begun */
	while (run_one(c, 0))
		;
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	c->thread_started = 0;
}

size_t bidcache__results(struct bidcache *c, const struct bidcache_result **out)
{
	*out = c->res;
	return c->nr_res;
}

int bidcache__results_so_far(struct bidcache *c, struct bidcache_result **out, size_t *nr)
{
	int err = 0;
	size_t i;

	pthread_mutex_lock(&c->lock);
	/* the queue first, at the caller's priority: the pinned jobs wait for this */
	while (run_one(c, 0))
		;
	*nr = 0;
	*out = malloc((c->nr_res + 1) * sizeof(**out));
	if (!*out)
		err = -ENOMEM;
	/* a file the thread is still reading has no result (no path) yet: the next file has it */
	for (i = 0; *out && i < c->nr_res; i++)
		if (c->res[i].path)
			(*out)[(*nr)++] = c->res[i];
	pthread_mutex_unlock(&c->lock);
	return err;
}

void bidcache__saved_by(struct bidcache *c, unsigned int *linked, unsigned int *cloned)
{
	*linked = c->nr_linked;
	*cloned = c->nr_cloned;
}

void bidcache__counts(struct bidcache *c, unsigned int counts[8])
{
	size_t i;

	memset(counts, 0, 8 * sizeof(counts[0]));
	for (i = 0; i < c->nr_res; i++)
		if (c->res[i].status < 8)
			counts[c->res[i].status]++;
}

void bidcache__free(struct bidcache *c)
{
	struct job *j;
	size_t i;

	if (!c)
		return;
	bidcache__stop(c);
	while ((j = c->head)) {
		c->head = j->next;
		if (j->fd >= 0)
			close(j->fd);
		free(j->path);
		free(j);
	}
	strpool__release(&c->keys);
	for (i = 0; i < c->nr_res; i++) {
		free(c->res[i].path);
		buf__release(&c->res[i].syms);
	}
	free(c->res);
	free(c->dir);
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
