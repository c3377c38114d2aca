// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: what the recorder does with the records it sees. A
 * file-backed executable MMAP2 goes to the build-id cache thread; a mapped
 * jit-PID.dump starts a jitdump copy; an anonymous executable mapping starts
 * watching the process's perf map. With jmmap, every file-backed executable
 * MMAP3 goes to the cache (its MMAP2, when perf's are off, is synth__mmap3()'s).
 * watch__inotify() reads a perf map as soon as it is written; watch__tick()
 * polls the side files inotify does not cover.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <unistd.h>

#include "byteorder.h"
#include "jmmap-reader.h"
#include "map-names.h"
#include "perf-reader.h"
#include "record.h"

#define WATCH_MAX_PERFMAPS 4096
#define WATCH_MAX_JITDUMPS 1024

/*
 * The recorder's sample_id trailer (record__trailer_size(),
 * Documentation/jrec-data.rst): its time follows {pid, tid}.
 */
#define WATCH_SAMPLE_ID_TIME 8

/* A MMAP2 record (header.size bytes, then the sample_id trailer) and its time. */
static int parse_mmap2(const struct record *r, const struct perf_event_header *h,
		       struct pr_mmap *mm, uint64_t *time)
{
	const uint8_t *b = (const uint8_t *)h;
	size_t trailer = record__trailer_size(r);

	if (perf_records__decode_mmap(h, h->size, trailer, mm))
		return -EINVAL;
	*time = bo_u64(b + h->size - trailer + WATCH_SAMPLE_ID_TIME, false);
	return 0;
}

/* What the build-id cache is given of @mm. */
static void cache_map_of(const struct pr_mmap *mm, struct bidcache_map *bm)
{
	memset(bm, 0, sizeof(*bm));
	if (mm->build_id_size) {
		bm->cookie.kind = JMMAP_COOKIE_ELF_BUILD_ID;
		bm->cookie.len = mm->build_id_size;
		memcpy(bm->cookie.bytes, mm->build_id, mm->build_id_size);
	}
	bm->dev_major = mm->maj;
	bm->dev_minor = mm->min;
	bm->ino = mm->ino;
	bm->ino_generation = mm->ino_generation;
	bm->pid = mm->pid;
	bm->start = mm->start;
	bm->end = mm->start + mm->len;
	bm->path = mm->filename;
}

/*
 * Read what @pm's map gained since the last look, and the code of the
 * symbols its new lines name, while their process is there to read.
 */
static int update_map(struct record *r, struct perfmap_watch *pm, uint64_t now)
{
	size_t from = r->perfmap_lines.len;
	int err = perfmap_watch__update(pm, r->inotify_fd, now, &r->perfmap_lines);
	int cerr = perfmap_code__lines(r, from);

	return err ? err : cerr;
}

/* The map may exist already: read it now, and watch the file from here on. */
static int first_read(struct record *r, struct perfmap_watch *pm)
{
	int err = update_map(r, pm, recorder__now());

	return err == -ENOMEM ? err : 0;
}

/*
 * Watch @i's map afresh: its pid was reused by a new process, or the
 * process moved to another root before it wrote its map (a workload that
 * runs chroot or unshare --mount without a fork, watched since jrec forked
 * it).
 */
static int rewatch(struct record *r, size_t i)
{
	struct perfmap_watch *pm;
	int err = perfmap_watch__new(r->perfmaps[i]->pid, r->inotify_fd, &pm);

	if (err)
		return err == -ESRCH || err == -ENOENT ? 0 : err;
	pm->root_seen = recorder__now();
	perfmap_watch__free(r->perfmaps[i]);
	r->perfmaps[i] = pm;
	return first_read(r, pm);
}

/*
 * Whether watch @i's process moved to another root, compared at most once a
 * tick: each comparison is two stat() calls, and a JIT maps code far more
 * often than that (a page at a time, thousands a second), which is what
 * the recorder cost the program it records. A mapping that comes sooner
 * leaves the comparison owed; watch__tick() makes it, the last one with
 * @force. @now may be a mapping's time, which can be a little older than
 * the last comparison: that is soon after it too.
 */
static int check_root(struct record *r, size_t i, uint64_t now, int force)
{
	struct perfmap_watch *pm = r->perfmaps[i];

	if (!force && (int64_t)(now - pm->root_seen) < (int64_t)RECORDER_TICK_NS) {
		pm->root_owed = 1;
		return 0;
	}
	pm->root_seen = now;
	pm->root_owed = 0;
	return perfmap_watch__moved(pm) ? rewatch(r, i) : 0;
}

int watch__pid(struct record *r, uint32_t pid, uint64_t time)
{
	struct perfmap_watch **n, *pm;
	size_t i;
	int err;

	for (i = 0; i < r->nr_perfmaps; i++) {
		if (r->perfmaps[i]->pid != pid)
			continue;
		if (r->perfmaps[i]->gone)
			return rewatch(r, i);
		return check_root(r, i, time, 0);
	}
	if (r->nr_perfmaps >= WATCH_MAX_PERFMAPS)
		return 0;
	err = perfmap_watch__new(pid, r->inotify_fd, &pm);
	if (err)
		return err == -ESRCH || err == -ENOENT ? 0 : err;
	n = realloc(r->perfmaps, (r->nr_perfmaps + 1) * sizeof(*n));
	if (!n) {
		perfmap_watch__free(pm);
		return -ENOMEM;
	}
	pm->root_seen = recorder__now(); /* perfmap_watch__new() has just looked */
	r->perfmaps = n;
	r->perfmaps[r->nr_perfmaps++] = pm;
	err = first_read(r, pm);
	if (r->opts.verbose)
		fprintf(stderr, "jrec record: watching %s%s\n", pm->path,
			perfmap_watch__polled(pm) ? " (polled)" : "");
	return err;
}

static int start_jitdump(struct record *r, const struct pr_mmap *mm, uint64_t time)
{
	struct jitdump_copy **n, *j;
	char mf[80];
	size_t i;
	int fd, err;

	for (i = 0; i < r->nr_jitdumps; i++)
		if (r->jitdumps[i]->pid == mm->pid && !strcmp(r->jitdumps[i]->path, mm->filename))
			return 0;
	if (r->nr_jitdumps >= WATCH_MAX_JITDUMPS)
		return 0;
	snprintf(mf, sizeof(mf), "/proc/%u/map_files/%llx-%llx", mm->pid,
		 (unsigned long long)mm->start, (unsigned long long)(mm->start + mm->len));
	fd = open(mf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = open(mm->filename, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (!r->opts.quiet)
			fprintf(stderr, "jrec record: warning: cannot copy %s: %s\n", mm->filename,
				strerror(errno));
		return 0;
	}
	err = jitdump_copy__new(fd, mm->pid, time, mm->filename, &j);
	if (err) {
		close(fd);
		return err;
	}
	n = realloc(r->jitdumps, (r->nr_jitdumps + 1) * sizeof(*n));
	if (!n) {
		jitdump_copy__free(j);
		return -ENOMEM;
	}
	r->jitdumps = n;
	r->jitdumps[r->nr_jitdumps++] = j;
	jitdump_copy__update(j);
	if (r->opts.verbose)
		fprintf(stderr, "jrec record: copying %s\n", mm->filename);
	/* a JIT with a jitdump may also write a perf map */
	return watch__pid(r, mm->pid, time);
}

static int on_exit_pid(struct record *r, uint32_t pid)
{
	size_t i;

	for (i = 0; i < r->nr_perfmaps; i++) {
		struct perfmap_watch *pm = r->perfmaps[i];

		if (pm->pid != pid || pm->gone)
			continue;
		/* a runtime may write its whole map as it exits: read it for the last time */
		update_map(r, pm, recorder__now());
		pm->gone = 1; /* no more reads of a dead pid's map */
		perfmap_watch__close(pm, r->inotify_fd);
	}
	for (i = 0; i < r->nr_jitdumps; i++)
		if (r->jitdumps[i]->pid == pid)
			jitdump_copy__update(r->jitdumps[i]);
	return 0;
}

/* A mapping timed @time, from the kernel's MMAP2 or one jrec made. */
int watch__mapping(struct record *r, const struct pr_mmap *mm, uint64_t time)
{
	struct bidcache_map bm;

	if (!(mm->prot & PROT_EXEC) || mm->pid == (uint32_t)-1)
		return 0;
	if (map_name__is_jit_anon(mm->filename))
		return watch__pid(r, mm->pid, time);
	if (map_name__is_jitdump(mm->filename))
		return start_jitdump(r, mm, time);
	if (mm->filename[0] != '/' || !r->bid)
		return 0;
	/*
	 * With jmmap, every file-backed mapping is queued from its MMAP3,
	 * whose content cookie lets the cache verify a file without a
	 * build-id (on_jmmap()).
	 */
	if (r->jm)
		return 0;
	cache_map_of(mm, &bm);
	return bidcache__add(r->bid, &bm);
}

int watch__record(struct record *r, const struct perf_event_header *h)
{
	struct pr_mmap mm;
	uint64_t time;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		return parse_mmap2(r, h, &mm, &time) ? 0 : watch__mapping(r, &mm, time);
	case PERF_RECORD_EXIT:
		if (h->size >= 8 + 16) {
			/* struct {pid, ppid, tid, ptid, time} after the header */
			uint32_t pid = bo_u32((const uint8_t *)h + 8, false);
			uint32_t tid = bo_u32((const uint8_t *)h + 16, false);

			if (pid == tid)
				return on_exit_pid(r, pid);
		}
		return 0;
	default:
		return 0;
	}
}

int watch__jmmap(struct record *r, const struct jmmap_rec_mmap3 *m, const char *name)
{
	struct bidcache_map bm;

	/*
	 * Files only: "//anon", a JIT's code and the most common MMAP3 of all,
	 * starts with a slash too, and is told apart before the other names.
	 */
	if (!r->bid || !(m->prot & PROT_EXEC) || name[0] != '/' || map_name__is_slash_anon(name) ||
	    map_name__is_anon(name) || map_name__is_jitdump(name))
		return 0;
	memset(&bm, 0, sizeof(bm));
	bm.pid = m->pid;
	/* map_files/ names the vma, not the part this call changed */
	bm.start = m->vma_start;
	bm.end = m->vma_end;
	bm.path = name;
	bm.cookie.kind = m->cookie_kind;
	bm.cookie.len = m->cookie_len;
	memcpy(bm.cookie.bytes, m->cookie, m->cookie_len);
	bm.dev_major = m->dev_major;
	bm.dev_minor = m->dev_minor;
	bm.ino = m->ino;
	bm.ino_generation = m->ino_generation;
	return bidcache__add(r->bid, &bm);
}

int watch__tick(struct record *r, int final)
{
	uint64_t now = recorder__now();
	size_t i;
	int err;

	if (!final && now - r->last_tick < RECORDER_TICK_NS)
		return 0;
	r->last_tick = now;
	for (i = 0; i < r->nr_perfmaps; i++) {
		struct perfmap_watch *pm = r->perfmaps[i];

		if (!pm->gone && pm->root_owed) {
			err = check_root(r, i, now, final);
			if (err == -ENOMEM)
				return err;
			pm = r->perfmaps[i];
		}
		if (pm->gone || (!final && !perfmap_watch__polled(pm)))
			continue;
		err = update_map(r, pm, now);
		if (err == -ENOMEM)
			return err;
	}
	for (i = 0; i < r->nr_jitdumps; i++) {
		jitdump_copy__update(r->jitdumps[i]);
		if (final)
			jitdump_copy__close(r->jitdumps[i]);
	}
	return 0;
}

int watch__init(struct record *r)
{
	r->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r->inotify_fd < 0 && r->opts.verbose)
		fprintf(stderr, "jrec record: no inotify (%s): perf maps are polled\n",
			strerror(errno));
	return 0;
}

/* Update every map @ev concerns (all of them when the queue overflowed). */
static int on_inotify(struct record *r, const struct inotify_event *ev, uint64_t now)
{
	size_t i;
	int err;

	for (i = 0; i < r->nr_perfmaps; i++) {
		struct perfmap_watch *pm = r->perfmaps[i];

		if (pm->gone || !(ev->mask & IN_Q_OVERFLOW || perfmap_watch__wants(pm, ev)))
			continue;
		err = update_map(r, pm, now);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

int watch__inotify(struct record *r)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	uint64_t now = recorder__now();
	int err;

	if (r->inotify_fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(r->inotify_fd, buf, sizeof(buf)), off = 0;

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -errno;
		while (off + (ssize_t)sizeof(struct inotify_event) <= n) {
			const struct inotify_event *ev = (const void *)(buf + off);

			err = on_inotify(r, ev, now);
			if (err)
				return err;
			off += (ssize_t)sizeof(*ev) + ev->len;
		}
	}
}

void watch__free(struct record *r)
{
	size_t i;

	for (i = 0; i < r->nr_perfmaps; i++)
		perfmap_watch__free(r->perfmaps[i]);
	free(r->perfmaps);
	r->perfmaps = NULL;
	r->nr_perfmaps = 0;
	for (i = 0; i < r->nr_jitdumps; i++)
		jitdump_copy__free(r->jitdumps[i]);
	free(r->jitdumps);
	r->jitdumps = NULL;
	r->nr_jitdumps = 0;
	buf__release(&r->perfmap_lines);
	if (r->inotify_fd >= 0)
		close(r->inotify_fd);
	r->inotify_fd = -1;
}
