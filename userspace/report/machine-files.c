// SPDX-License-Identifier: GPL-2.0
/*
 * machine-files: the report's reads of files of this machine. Every open
 * goes through machine_file__open(), every read through machine_file__read():
 * the jitdumps and perf maps that the recording only names, for processes
 * it has no copy of them for (here), and the kernel's symbol files
 * (kernel-symbols.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "machine-files.h"
#include "map-names.h"
#include "session.h"

int machine_file__open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* All of @fd to its end, at most MACHINE_FILE_MAX bytes. 0 or -errno. */
static int read_to_end(int fd, struct buf *b)
{
	for (;;) {
		/* room to double, and for one byte past the limit to tell a file too big */
		size_t want = b->len < 32768 ? 65536 : 2 * b->len;
		ssize_t n;
		int err;

		if (b->len > MACHINE_FILE_MAX)
			return -EFBIG;
		if (want > MACHINE_FILE_MAX + 1)
			want = MACHINE_FILE_MAX + 1;
		err = buf__reserve(b, want - b->len);
		if (err)
			return err;
		n = read(fd, b->data + b->len, want - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		b->len += (size_t)n;
	}
}

/* @path opened, a regular file, its status in @st: the descriptor, -ENODATA or -errno. */
static int open_regular(const char *path, struct stat *st)
{
	int fd = machine_file__open(path);

	if (fd < 0)
		return fd;
	if (fstat(fd, st) || !S_ISREG(st->st_mode) || st->st_size < 0) {
		close(fd);
		return -ENODATA;
	}
	return fd;
}

int machine_file__read(const char *path, int (*fn)(const void *bytes, size_t len, void *ctx),
		       void *ctx)
{
	struct buf b = BUF_INIT;
	struct stat st;
	void *m;
	int fd, err;

	fd = open_regular(path, &st);
	if (fd < 0)
		return fd;
	if (st.st_size > 0) {
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			close(fd);
			err = fn(m, (size_t)st.st_size, ctx);
			munmap(m, (size_t)st.st_size);
			return err;
		}
	}
	/* /proc says size 0, and a /sys file may not map: read them */
	err = read_to_end(fd, &b);
	close(fd);
	if (!err)
		err = b.len ? fn(b.data, b.len, ctx) : -ENODATA;
	buf__release(&b);
	return err;
}

int machine_file__take(const char *path, char **text, size_t *len, size_t *map_len)
{
	struct buf b = BUF_INIT;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	void *m;
	int fd, err;

	*text = NULL;
	*len = *map_len = 0;
	fd = open_regular(path, &st);
	if (fd < 0)
		return fd;
	/*
	 * Written in place: a private mapping, its pages copied as the kernel
	 * maps them in (MAP_POPULATE), one byte past the end for a NUL. That
	 * byte is on the last page only when the size is not a page multiple.
	 */
	if (st.st_size > 0 && page > 0 && st.st_size % page) {
		m = mmap(NULL, (size_t)st.st_size + 1, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m != MAP_FAILED) {
			close(fd);
			*text = m;
			*len = (size_t)st.st_size;
			*map_len = (size_t)st.st_size + 1;
			return 0;
		}
	}
	err = read_to_end(fd, &b);
	close(fd);
	if (!err && !b.len)
		err = -ENODATA;
	if (!err)
		err = buf__reserve(&b, 1);
	if (err) {
		buf__release(&b);
		return err;
	}
	*text = (char *)b.data;
	*len = b.len;
	return 0;
}

struct for_pid {
	struct session *s;
	uint32_t pid;
};

static int add_jitdump(const void *bytes, size_t len, void *ctx)
{
	struct for_pid *f = ctx;
	bool trunc;

	if (!jit_symbols__add_jitdump(&f->s->jit, f->pid, bytes, len, &trunc) && trunc)
		f->s->jitdump_truncated++;
	return 0;
}

void session__machine_jitdump(struct session *s, uint32_t pid, const char *path)
{
	struct jit_proc *jp = jit_symbols__proc(&s->jit, pid);
	struct for_pid f = {s, pid};

	if (!map_name__is_jitdump(path) || (jp && jp->has_jitdump))
		return;
	machine_file__read(path, add_jitdump, &f);
}

static int add_perfmap(const void *bytes, size_t len, void *ctx)
{
	struct for_pid *f = ctx;

	jit_symbols__add_perfmap(&f->s->jit, f->pid, 0, bytes, len);
	return 0;
}

void session__machine_perfmaps(struct session *s)
{
	const struct as_proc *p;
	size_t it = 0;

	while ((p = pidmap__next(&s->as.procs, &it))) {
		struct jit_proc *jp = jit_symbols__proc(&s->jit, p->pid);
		struct for_pid f = {s, p->pid};
		char path[64];

		if ((jp && jp->has_timed_perfmap) ||
		    map_name__perfmap_path(path, sizeof(path), "", p->pid))
			continue;
		machine_file__read(path, add_perfmap, &f);
	}
}
