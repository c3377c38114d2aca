// SPDX-License-Identifier: GPL-2.0
/*
 * machine-files: the report's reads of files of this machine that the
 * recording only names, for processes it has no copy of them for: a jitdump
 * that a JIT mapped, and /tmp/perf-PID.map. Every such read goes through
 * map_file().
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "map-names.h"
#include "session.h"

/* @fn over the bytes of the regular, non-empty file at @path. */
static int map_file(const char *path, int (*fn)(const void *bytes, size_t len, void *ctx),
		    void *ctx)
{
	struct stat st;
	void *m;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return -ENODATA;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	err = m == MAP_FAILED ? -errno : 0;
	close(fd);
	if (err)
		return err;
	err = fn(m, (size_t)st.st_size, ctx);
	munmap(m, (size_t)st.st_size);
	return err;
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
	map_file(path, add_jitdump, &f);
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
		map_file(path, add_perfmap, &f);
	}
}
