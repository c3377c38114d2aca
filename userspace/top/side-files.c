// SPDX-License-Identifier: GPL-2.0
/* side-files: jrec top's copies of perf maps and jitdumps (side-files.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "map-names.h"
#include "procfs.h"
#include "record/jitdump-copy.h"
#include "record/perfmap-watch.h"
#include "side-files.h"

int side_files__add(struct side_files *sf, uint32_t pid)
{
	struct side_proc *p;
	size_t i;
	int err;

	for (i = 0; i < sf->nr; i++)
		if (sf->procs[i].pid == pid)
			return 0;
	if (array_grow(&sf->procs, &sf->cap, sf->nr + 1))
		return -ENOMEM;
	p = &sf->procs[sf->nr];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	/* polled at each update: top reads no faster than it refreshes */
	err = perfmap_watch__new(pid, -1, &p->pm);
	if (err == -ENOMEM)
		return err;
	if (err)
		p->gone = 1; /* gone already, or no process of ours to read */
	sf->nr++;
	return 0;
}

/* The first jitdump the process has mapped, copied from now on. */
static int find_jitdump(const struct procfs_map *m, void *ctx)
{
	struct side_proc *p = ctx;
	char path[PROCFS_PATH_MAX + 32];
	int fd;

	if (!map_name__is_jitdump(m->path))
		return 0;
	/* its own root: a process in another mount namespace names its /tmp */
	snprintf(path, sizeof(path), "/proc/%u/root%s", p->pid, m->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (jitdump_copy__new(fd, p->pid, 0, m->path, &p->jd))
		close(fd);
	return 1;
}

void side_files__update(struct side_files *sf, uint64_t now)
{
	size_t i;

	for (i = 0; i < sf->nr; i++) {
		struct side_proc *p = &sf->procs[i];
		int alive;

		if (p->gone)
			continue;
		alive = !kill((pid_t)p->pid, 0) || errno != ESRCH;
		if (!p->jd && alive)
			procfs_read_maps((pid_t)p->pid, find_jitdump, p);
		if (p->jd)
			jitdump_copy__update(p->jd);
		/* a process that exited: its map, written as it exits, read for the last time */
		if (p->pm)
			perfmap_watch__update(p->pm, -1, now, &sf->perfmap_lines);
		if (!alive) {
			if (p->pm) {
				p->pm->gone = 1;
				perfmap_watch__close(p->pm, -1);
			}
			if (p->jd)
				jitdump_copy__close(p->jd);
			p->gone = 1;
		}
	}
}

int side_files__payloads(struct side_files *sf, const void **jitdumps, size_t *jlen,
			 const void **perfmaps, size_t *plen)
{
	size_t i;
	int err = 0;

	sf->jitdumps.len = 0;
	for (i = 0; i < sf->nr && !err; i++)
		if (sf->procs[i].jd)
			err = jitdump_copy__emit(sf->procs[i].jd, &sf->jitdumps);
	*jitdumps = sf->jitdumps.data;
	*jlen = sf->jitdumps.len;
	*perfmaps = sf->perfmap_lines.data;
	*plen = sf->perfmap_lines.len;
	return err;
}

void side_files__release(struct side_files *sf)
{
	size_t i;

	if (!sf)
		return;
	for (i = 0; i < sf->nr; i++) {
		perfmap_watch__free(sf->procs[i].pm);
		jitdump_copy__free(sf->procs[i].jd);
	}
	free(sf->procs);
	buf__release(&sf->perfmap_lines);
	buf__release(&sf->jitdumps);
	memset(sf, 0, sizeof(*sf));
}
