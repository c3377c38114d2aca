// SPDX-License-Identifier: GPL-2.0
/*
 * A file on a FUSE mount is read for its cookie only from the page cache:
 * a traced task never waits on the user-space daemon for it.
 *
 * The test serves one file, code.bin (FS_SIZE bytes that are not ELF), from
 * a minimal single-threaded FUSE daemon of its own that speaks the raw
 * /dev/fuse protocol (the guest has no libfuse). Then:
 *   - the daemon, traced, maps code.bin executable from its serving thread:
 *     a cookie read through the filesystem would be a request that only
 *     this thread could answer, so the mmap() would never return. It must
 *     return, with a record that has no cookie, why: not cached;
 *   - another traced process maps code.bin before anything read it (no
 *     cookie, not cached, and the daemon saw no READ), and again after the
 *     test read the whole file (its pages are in the page cache): the
 *     content cookie, equal to the userspace rule.
 * Every wait on the daemon is bounded; a daemon that does not answer is
 * killed, which ends its connection and unblocks the mount.
 */
#include <linux/fuse.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cookie.h"
#include "jsession.h"

#define FS_DEV		"/dev/fuse"
#define FS_NAME		"code.bin"
#define FS_SIZE		8192
#define FS_INO		2
#define FS_TIME		1000000000 /* every time of both inodes: never a change */
#define FS_BUF		(64 * 1024) /* >= FUSE_MIN_READ_BUFFER, max_write + headers */
#define FS_MAX_WRITE	4096
#define FS_MAX_REQUESTS 100000	   /* requests one daemon serves at most */
#define FS_IDLE_MS	60000	   /* a daemon idle this long gives up */
#define FS_WAIT_MS	20000	   /* the longest the test waits on the daemon */
#define FS_CLOSED	INT32_MIN  /* the opener thread's last message */


/* ------------------------------------------------------------ the daemon */

/* The daemon's state; it lives in the daemon's process only. */
struct fs_server {
	int dev;	    /* /dev/fuse */
	int ctl;	    /* commands from the test, -1 once it closed them */
	int ans;	    /* answers to the test */
	int from_opener[2]; /* the opener thread's messages: fd or -errno, then FS_CLOSED */
	int to_opener[2];   /* to the opener thread: close the fd now */
	pthread_t opener;
	bool opening; /* the opener thread runs */
	char path[256];
	uint8_t data[FS_SIZE];
	uint32_t reads; /* READ requests answered */
	void *map;	/* the daemon's own mapping of code.bin */
	int32_t map_err;
};

/* Write all of @buf to a pipe: 0 or -EIO. */
static int fs_send(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -EIO;
}

static void fs_fill(uint8_t *data)
{
	size_t i;

	for (i = 0; i < FS_SIZE; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	memcpy(data, "JMFS", 4); /* not ELF: the content cookie names it */
}

static void fs_attr(uint64_t nodeid, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = nodeid;
	a->atime = a->mtime = a->ctime = FS_TIME;
	a->uid = getuid();
	a->gid = getgid();
	a->blksize = 4096;
	if (nodeid == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	} else {
		a->mode = S_IFREG | 0755;
		a->nlink = 1;
		a->size = FS_SIZE;
		a->blocks = FS_SIZE / 512;
	}
}

/* One reply in one write(): the header, then @len bytes of @body. */
static void fs_reply(const struct fs_server *s, uint64_t unique, int error, const void *body,
		     size_t len)
{
	static uint8_t out[sizeof(struct fuse_out_header) + FS_SIZE];
	struct fuse_out_header oh = { .error = error, .unique = unique };

	if (error || len > FS_SIZE)
		len = 0;
	oh.len = (uint32_t)(sizeof(oh) + len);
	memcpy(out, &oh, sizeof(oh));
	if (len)
		memcpy(out + sizeof(oh), body, len);
	/* ENOENT: the request was interrupted meanwhile; nothing to do. */
	if (write(s->dev, out, oh.len) < 0 && errno != ENOENT)
		printf("# daemon: reply to %llu: %s\n", (unsigned long long)unique,
		       strerror(errno));
}

static void fs_init(const struct fs_server *s, const struct fuse_in_header *in,
		    const struct fuse_init_in *ii, size_t arg_len)
{
	struct fuse_init_out io = { 0 };

	if (arg_len < offsetof(struct fuse_init_in, flags)) {
		fs_reply(s, in->unique, -EINVAL, NULL, 0);
		return;
	}
	io.major = FUSE_KERNEL_VERSION;
	io.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ? ii->minor : FUSE_KERNEL_MINOR_VERSION;
	io.max_readahead = ii->max_readahead;
	io.max_background = 1;
	io.congestion_threshold = 1;
	io.max_write = FS_MAX_WRITE;
	io.time_gran = 1;
	fs_reply(s, in->unique, 0, &io, sizeof(io));
}

static void fs_lookup(const struct fs_server *s, const struct fuse_in_header *in,
		      const char *name, size_t arg_len)
{
	struct fuse_entry_out eo = { 0 };

	if (in->nodeid != FUSE_ROOT_ID || arg_len != sizeof(FS_NAME) ||
	    memcmp(name, FS_NAME, sizeof(FS_NAME))) {
		fs_reply(s, in->unique, -ENOENT, NULL, 0);
		return;
	}
	eo.nodeid = FS_INO;
	eo.generation = 1;
	eo.entry_valid = 3600;
	eo.attr_valid = 3600;
	fs_attr(FS_INO, &eo.attr);
	fs_reply(s, in->unique, 0, &eo, sizeof(eo));
}

static void fs_open(const struct fs_server *s, const struct fuse_in_header *in,
		    const struct fuse_open_in *oi, size_t arg_len)
{
	/* Keep the page cache across opens: what one open read is there for the next. */
	struct fuse_open_out oo = { .fh = FS_INO, .open_flags = FOPEN_KEEP_CACHE };

	if (in->nodeid != FS_INO)
		fs_reply(s, in->unique, -EISDIR, NULL, 0);
	else if (arg_len < sizeof(oi->flags) || (oi->flags & O_ACCMODE) != O_RDONLY)
		fs_reply(s, in->unique, -EACCES, NULL, 0);
	else
		fs_reply(s, in->unique, 0, &oo, sizeof(oo));
}

static void fs_read(struct fs_server *s, const struct fuse_in_header *in,
		    const struct fuse_read_in *ri, size_t arg_len)
{
	uint64_t n = 0;

	if (in->nodeid != FS_INO || arg_len < offsetof(struct fuse_read_in, read_flags)) {
		fs_reply(s, in->unique, -EINVAL, NULL, 0);
		return;
	}
	s->reads++;
	if (ri->offset < FS_SIZE)
		n = FS_SIZE - ri->offset < ri->size ? FS_SIZE - ri->offset : ri->size;
	fs_reply(s, in->unique, 0, s->data + (n ? ri->offset : 0), (size_t)n);
}

/* Answer one request of @len bytes. */
static void fs_answer(struct fs_server *s, const uint8_t *req, size_t len)
{
	const struct fuse_in_header *in = (const void *)req;
	const void *arg = req + sizeof(*in);
	size_t arg_len;

	if (len < sizeof(*in) || in->len != len)
		return;
	arg_len = len - sizeof(*in);
	switch (in->opcode) {
	case FUSE_INIT:
		fs_init(s, in, arg, arg_len);
		break;
	case FUSE_LOOKUP:
		fs_lookup(s, in, arg, arg_len);
		break;
	case FUSE_GETATTR:
		if (in->nodeid == FUSE_ROOT_ID || in->nodeid == FS_INO) {
			struct fuse_attr_out ao = { .attr_valid = 3600 };

			fs_attr(in->nodeid, &ao.attr);
			fs_reply(s, in->unique, 0, &ao, sizeof(ao));
		} else {
			fs_reply(s, in->unique, -ENOENT, NULL, 0);
		}
		break;
	case FUSE_OPEN:
		fs_open(s, in, arg, arg_len);
		break;
	case FUSE_READ:
		fs_read(s, in, arg, arg_len);
		break;
	case FUSE_FLUSH:
	case FUSE_RELEASE:
		fs_reply(s, in->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
		break; /* never answered */
	default: /* GETXATTR, INTERRUPT, ...: ENOSYS, and the kernel stops asking */
		fs_reply(s, in->unique, -ENOSYS, NULL, 0);
		break;
	}
}

/*
 * The opener thread: opens code.bin while the serving thread answers
 * LOOKUP and OPEN, hands the fd over, and closes it when told to (close()
 * waits on a FLUSH that the serving thread answers), then ends.
 */
static void *fs_opener(void *arg)
{
	struct fs_server *s = arg;
	int32_t msg = open(s->path, O_RDONLY | O_CLOEXEC);
	char c;

	if (msg < 0)
		msg = -errno;
	if (!fs_send(s->from_opener[1], &msg, sizeof(msg)) && msg >= 0 &&
	    read(s->to_opener[0], &c, 1) == 1)
		close(msg);
	msg = FS_CLOSED;
	if (fs_send(s->from_opener[1], &msg, sizeof(msg)))
		abort();
	return NULL;
}

/* A message from the opener thread, taken on the serving thread. */
static int fs_opener_message(struct fs_server *s)
{
	int32_t msg;

	if (read(s->from_opener[0], &msg, sizeof(msg)) != (ssize_t)sizeof(msg))
		return -EIO;
	if (msg == FS_CLOSED) {
		/* The opener is gone: this thread is again the only one. */
		pthread_join(s->opener, NULL);
		s->opening = false;
		return fs_send(s->ans, &s->map_err, sizeof(s->map_err));
	}
	if (msg < 0) {
		s->map_err = msg;
		return 0; /* FS_CLOSED follows */
	}
	/*
	 * What the test is about: the thread that answers every request of
	 * this mount maps a file of the mount executable. While the opener
	 * waits to be told to close, no other thread reads /dev/fuse; a cookie
	 * read through the filesystem would be a request only this thread
	 * could answer, and mmap() would never return.
	 */
	s->map = mmap(NULL, FS_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, msg, 0);
	if (s->map == MAP_FAILED) {
		s->map_err = -errno;
		s->map = NULL;
	}
	return fs_send(s->to_opener[1], "c", 1);
}

/* A command from the test: 'm' map code.bin, 'u' unmap it, 'r' say how many READs. */
static int fs_command(struct fs_server *s)
{
	ssize_t n;
	char c;

	n = read(s->ctl, &c, 1);
	if (n <= 0) {
		close(s->ctl);
		s->ctl = -1;
		return 0;
	}
	switch (c) {
	case 'm':
		if (s->opening || s->map)
			return -EBUSY;
		s->map_err = 0;
		s->opening = pthread_create(&s->opener, NULL, fs_opener, s) == 0;
		if (s->opening)
			return 0;
		s->map_err = -EAGAIN;
		return fs_send(s->ans, &s->map_err, sizeof(s->map_err));
	case 'u':
		if (s->map)
			munmap(s->map, FS_SIZE);
		s->map = NULL;
		return fs_send(s->ans, "k", 1);
	case 'r':
		return fs_send(s->ans, &s->reads, sizeof(s->reads));
	}
	return -EINVAL;
}

/* Serve until the mount goes away (0), or fail with a negative errno. */
static int fs_serve(struct fs_server *s)
{
	static uint8_t buf[FS_BUF];
	unsigned int n;

	for (n = 0; n < FS_MAX_REQUESTS; n++) {
		struct pollfd p[3] = {
			{ .fd = s->dev, .events = POLLIN },
			{ .fd = s->ctl, .events = POLLIN },
			{ .fd = s->from_opener[0], .events = POLLIN },
		};
		ssize_t len;
		int err;

		err = poll(p, 3, FS_IDLE_MS);
		if (err < 0 && errno == EINTR)
			continue;
		if (err <= 0)
			return err ? -errno : -ETIMEDOUT;
		if (p[2].revents && (err = fs_opener_message(s)))
			return err;
		if (p[1].revents && (err = fs_command(s)))
			return err;
		if (!p[0].revents)
			continue;
		len = read(s->dev, buf, sizeof(buf));
		if (len < 0 && errno == ENODEV)
			return 0; /* unmounted */
		if (len < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
			continue;
		if (len < 0)
			return -errno;
		fs_answer(s, buf, (size_t)len);
	}
	return -E2BIG;
}

/*
 * The daemon's process: mount @dir, say so on @ans (0 or a negative errno
 * as an int32), serve. Never returns.
 */
static void fs_daemon(const char *dir, int ctl, int ans)
{
	static struct fs_server s;
	int32_t status = 0;
	char opts[128];

	s.ctl = ctl;
	s.ans = ans;
	snprintf(s.path, sizeof(s.path), "%s/%s", dir, FS_NAME);
	fs_fill(s.data);
	s.dev = open(FS_DEV, O_RDWR | O_CLOEXEC);
	if (s.dev < 0)
		status = -errno;
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=%u,group_id=%u", s.dev,
		 getuid(), getgid());
	if (!status && mount("jmmap-test", dir, "fuse", MS_NOSUID | MS_NODEV, opts))
		status = -errno;
	if (!status && (pipe(s.from_opener) || pipe(s.to_opener)))
		status = -errno;
	if (fs_send(ans, &status, sizeof(status)) || status)
		_exit(1);
	status = fs_serve(&s);
	if (status)
		printf("# daemon: %s\n", strerror(-status));
	fflush(stdout);
	_exit(status ? 1 : 0);
}

/* ------------------------------------------------------- the test's side */

struct fs_mount {
	char dir[64];
	char path[128];
	pid_t pid; /* the daemon */
	int ctl, ans;
};

/* Read exactly @len bytes from @fd within @ms: 0, -ETIMEDOUT, or -EIO. */
static int fs_wait(int fd, void *buf, size_t len, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, ms);

	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0 || read(fd, buf, len) != (ssize_t)len)
		return -EIO;
	return 0;
}

/* Mount a new directory with a daemon behind it: 0 or a negative errno. */
static int fs_start(struct fs_mount *m)
{
	int req[2], ans[2], err;
	int32_t status;

	memset(m, 0, sizeof(*m));
	m->pid = -1;
	m->ctl = m->ans = -1;
	snprintf(m->dir, sizeof(m->dir), "/tmp/jmmap-fuseXXXXXX");
	if (!mkdtemp(m->dir))
		return -errno;
	snprintf(m->path, sizeof(m->path), "%s/%s", m->dir, FS_NAME);
	if (pipe(req))
		return -errno;
	if (pipe(ans)) {
		err = -errno;
		close(req[0]);
		close(req[1]);
		return err;
	}
	m->pid = fork();
	err = -errno;
	if (m->pid == 0) {
		close(req[1]);
		close(ans[0]);
		fs_daemon(m->dir, req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	m->ctl = req[1];
	m->ans = ans[0];
	if (m->pid < 0)
		return err;
	err = fs_wait(m->ans, &status, sizeof(status), FS_WAIT_MS);
	return err ? err : status;
}

/*
 * Unmount and end the daemon: asked to end when it answers, killed when it
 * does not (which ends its connection, and every request waiting on it).
 */
static void fs_stop(struct fs_mount *m, bool answers)
{
	int status = -1, i;
	bool asked = answers;
	char c;

	if (answers && m->ctl >= 0 &&
	    (fs_send(m->ctl, "u", 1) || fs_wait(m->ans, &c, 1, FS_WAIT_MS)))
		answers = false;
	if (!answers && m->pid > 0)
		kill(m->pid, SIGKILL);
	if (umount2(m->dir, 0) && errno != EINVAL)
		umount2(m->dir, MNT_DETACH);
	/* The daemon reads ENODEV once its mount is gone, and exits. */
	for (i = 0; m->pid > 0 && i < FS_WAIT_MS / 10; i++) {
		if (waitpid(m->pid, &status, WNOHANG) == m->pid)
			break;
		if (i == FS_WAIT_MS / 20)
			kill(m->pid, SIGKILL);
		usleep(10 * 1000);
	}
	if (m->ctl >= 0)
		close(m->ctl);
	if (m->ans >= 0)
		close(m->ans);
	rmdir(m->dir);
	if (asked && m->pid > 0 && status)
		ktap_diag("the daemon did not end cleanly: wait status %#x", (unsigned int)status);
}

/* READ requests the daemon answered so far, or UINT32_MAX. */
static uint32_t fs_reads(const struct fs_mount *m)
{
	uint32_t n;

	if (write(m->ctl, "r", 1) != 1 || fs_wait(m->ans, &n, sizeof(n), FS_WAIT_MS))
		return UINT32_MAX;
	return n;
}

/* The last MMAP3 of @pid for @path caused by mmap(). */
static const struct jmmap_rec_mmap3 *find_mmap3(const struct js_records *r, pid_t pid,
						 const char *path)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	js_for_each(r, h)
	{
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)pid &&
		    m->cause == JMMAP_CAUSE_MMAP && !strcmp(js_mmap3_name(m), path))
			found = m;
	}
	return found;
}

/* Start a daemon; on failure fail @name, or skip the program without FUSE. */
static int fs_start_or_report(struct fs_mount *m, const char *name)
{
	int err = fs_start(m);

	if (!err)
		return 0;
	fs_stop(m, false);
	if (err == -ENODEV)
		ktap_skip_all("the kernel has no fuse filesystem type");
	ktap_ok(0, "%s: a FUSE daemon mounts a directory (%s)", name, strerror(-err));
	return err;
}

/*
 * The daemon maps a file of its own mount executable, from the one thread
 * that serves the mount.
 */
static void test_daemon_maps_own_file(void)
{
	const char *name = "fuse_daemon_maps_own_file", *what = "returns";
	unsigned int kind = 0xff, why = 0xff;
	const struct jmmap_rec_mmap3 *rec;
	struct js_records r = { 0 };
	struct fs_mount m;
	int32_t map_err = 0;
	int fd, err;

	if (fs_start_or_report(&m, name))
		return;
	fd = js_open(0, 0);
	if (fd < 0 || js_add(fd, m.pid, JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_ok(0, "%s: a session follows the daemon (%s)", name, strerror(errno));
		fs_stop(&m, true);
		if (fd >= 0)
			close(fd);
		return;
	}
	err = fs_send(m.ctl, "m", 1);
	if (!err)
		err = fs_wait(m.ans, &map_err, sizeof(map_err), FS_WAIT_MS);
	if (err == -ETIMEDOUT)
		ktap_diag("the daemon's mmap() of %s did not return within %d s: it waits on "
			  "itself; killing it",
			  m.path, FS_WAIT_MS / 1000);
	fs_stop(&m, !err);
	js_drain(fd, &r);
	rec = find_mmap3(&r, m.pid, m.path);
	if (rec) {
		kind = rec->cookie_kind;
		why = rec->hdr.flags & JMMAP_COOKIE_WHY_MASK;
	} else {
		js_dump(&r, m.pid);
	}
	js_free(&r);
	close(fd);
	if (err)
		what = err == -ETIMEDOUT ? "mmap() hung" : "no answer";
	else if (map_err)
		what = strerror(-map_err);
	ktap_ok(!err && !map_err && rec && kind == JMMAP_COOKIE_NONE &&
			why == JMMAP_COOKIE_WHY_NOT_CACHED,
		"%s: the FUSE daemon's single serving thread maps its own uncached file "
		"executable: %s, record %s, kind %u why %u (want: returns, kind %u why %u)",
		name, what, rec ? "found" : "missing", kind, why, JMMAP_COOKIE_NONE,
		JMMAP_COOKIE_WHY_NOT_CACHED);
}

/* A traced process: each 'm' maps the file executable, answers 'k' (or 'e'). */
static void map_child(int req, int ans, void *arg)
{
	const char *path = arg;
	unsigned int n;
	char c;

	for (n = 0; n < 16 && read(req, &c, 1) == 1 && c == 'm'; n++) {
		int f = open(path, O_RDONLY | O_CLOEXEC);
		void *p = MAP_FAILED;

		if (f >= 0) {
			p = mmap(NULL, FS_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0);
			close(f);
		}
		if (p != MAP_FAILED)
			munmap(p, FS_SIZE);
		c = p == MAP_FAILED ? 'e' : 'k';
		if (write(ans, &c, 1) != 1)
			return;
	}
}

/* Have the child map the file; its MMAP3's kind, why and cookie in hex. */
static int child_maps(int fd, int req, int ans, pid_t child, const char *path, unsigned int *kind,
		      unsigned int *why, char *hex)
{
	const struct jmmap_rec_mmap3 *rec;
	struct js_records r = { 0 };
	char c = 'm';

	*kind = *why = 0xff;
	hex[0] = 0;
	if (write(req, &c, 1) != 1 || fs_wait(ans, &c, 1, FS_WAIT_MS) || c != 'k')
		return -1;
	js_drain(fd, &r);
	rec = find_mmap3(&r, child, path);
	if (rec) {
		*kind = rec->cookie_kind;
		*why = rec->hdr.flags & JMMAP_COOKIE_WHY_MASK;
		js_hex(rec->cookie, rec->cookie_kind ? rec->cookie_len : 0, hex);
	} else {
		js_dump(&r, child);
	}
	js_free(&r);
	return rec ? 0 : -1;
}

/* Read the whole file; 0 when it holds what the daemon serves. */
static int read_all(const char *path)
{
	uint8_t want[FS_SIZE], got[FS_SIZE + 1];
	size_t len = 0;
	ssize_t n = 0;
	int f = open(path, O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return -1;
	while (len < sizeof(got) && (n = read(f, got + len, sizeof(got) - len)) > 0)
		len += (size_t)n;
	close(f);
	fs_fill(want);
	return n < 0 || len != FS_SIZE || memcmp(got, want, FS_SIZE) ? -1 : 0;
}

/*
 * Another process maps the file: first before anything read it, then after
 * the test read it whole.
 */
static void test_other_process(void)
{
	const char *name = "fuse_cookie_from_page_cache";
	char before[64], after[64], want[64] = "";
	unsigned int kind1, why1, kind2, why2;
	uint32_t reads0, reads1 = UINT32_MAX;
	int fd, req = -1, ans = -1, err = -1;
	struct jrec_cookie uc;
	struct fs_mount m;
	pid_t child;

	if (fs_start_or_report(&m, name))
		return;
	fd = js_open(0, 0);
	child = fd < 0 ? -1 : js_fork_served(map_child, m.path, &req, &ans);
	if (child < 0 || js_add(fd, child, JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_ok(0, "%s: a session follows a child (%s)", name, strerror(errno));
		goto out;
	}
	reads0 = fs_reads(&m);
	err = child_maps(fd, req, ans, child, m.path, &kind1, &why1, before);
	if (!err)
		reads1 = fs_reads(&m);
	ktap_ok(!err && kind1 == JMMAP_COOKIE_NONE && why1 == JMMAP_COOKIE_WHY_NOT_CACHED &&
			reads0 != UINT32_MAX && reads1 == reads0,
		"fuse_uncached_not_read: a traced process maps a FUSE file nothing read: kind %u "
		"why %u, %d READs asked of the daemon (want kind %u why %u, none)",
		kind1, why1, reads1 == UINT32_MAX ? -1 : (int)(reads1 - reads0), JMMAP_COOKIE_NONE,
		JMMAP_COOKIE_WHY_NOT_CACHED);

	err = read_all(m.path);
	if (err)
		ktap_diag("reading %s back failed, or it held other bytes", m.path);
	err |= child_maps(fd, req, ans, child, m.path, &kind2, &why2, after);
	err |= jrec_cookie_from_path(m.path, &uc);
	jrec_cookie_hex(&uc, want);
	ktap_ok(!err && kind2 == JMMAP_COOKIE_CONTENT && !strcmp(after, want),
		"%s: after the file was read whole, its mapping has kind %u why %u cookie %s "
		"(want kind %u, the userspace rule's %s)",
		name, kind2, why2, after, JMMAP_COOKIE_CONTENT, want);
out:
	if (req >= 0)
		close(req);
	if (ans >= 0)
		close(ans);
	if (child > 0)
		waitpid(child, NULL, 0);
	if (fd >= 0)
		close(fd);
	fs_stop(&m, true);
}

int main(void)
{
	int fd;

	ktap_begin();
	if (access(FS_DEV, R_OK | W_OK))
		ktap_skip_all("no " FS_DEV ": the kernel has no FUSE (fuse.ko not loaded?)");
	fd = js_open(0, 0);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
	close(fd);
	test_daemon_maps_own_file();
	test_other_process();
	return ktap_finish();
}
