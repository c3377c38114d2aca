/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timed perf-map lines: the recorder reads /tmp/perf-PID.map (the process's
 * own /tmp and namespaced pid) as it grows and stamps every new line with the
 * CLOCK_MONOTONIC time it was first seen. With inotify, a write wakes the
 * recorder (IN_MODIFY/IN_CLOSE_WRITE on the file, IN_CREATE/IN_MOVED_TO on
 * its /tmp until it exists), so a line is timed as it is written; where a
 * watch cannot be added the map is polled. A process in another mount
 * namespace (or under another root) has its /tmp held open, so that the map
 * it writes as it exits is still read after the exit (and after its
 * namespace, and a tmpfs mounted there, are gone).
 */
#ifndef JREC_PERFMAP_WATCH_H
#define JREC_PERFMAP_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/inotify.h>

#include "buf.h"
#include "perfmap.h"

/* One watched perf map. */
struct perfmap_watch {
	uint32_t pid;	 /* as the recorder sees it */
	uint32_t nspid;	 /* as the process sees itself */
	char path[96];	 /* /tmp/perf-NSPID.map, or /proc/PID/root/tmp/... */
	char name[32];	 /* perf-NSPID.map */
	int tmpfd;	 /* its /tmp when its root is not the recorder's, else -1 */
	int fd;		 /* -1 until the file exists */
	int dir_wd;	 /* inotify watch of its /tmp, -1 without */
	int file_wd;	 /* inotify watch of the file, -1 without */
	uint64_t offset; /* bytes consumed */
	struct perfmap_split split;
	uint64_t lines;
	int gone; /* the process exited: read for the last time */
	/* the process's root and mount namespace when the watch was made */
	uint64_t root_dev, root_ino, mntns_ino;
	/*
	 * when the recorder last compared them (recorder__now() or a mapping's
	 * time, watch.c), and
	 * whether a mapping asked for a comparison since
	 */
	uint64_t root_seen;
	int root_owed;
};

/*
 * Watch pid's perf map; @inotify_fd an inotify instance, or -1 to poll.
 * 0 or -errno (-ESRCH if the process is gone).
 */
int perfmap_watch__new(uint32_t pid, int inotify_fd, struct perfmap_watch **out);
/*
 * Read what was added since the last call and append a timed entry for each
 * new line to out (the file is opened, and watched with @inotify_fd, once it
 * exists). 0 or -errno.
 */
int perfmap_watch__update(struct perfmap_watch *pm, int inotify_fd, uint64_t now,
			  struct buf *out);
/* Whether inotify event @ev concerns @pm's map (then update it). */
bool perfmap_watch__wants(const struct perfmap_watch *pm, const struct inotify_event *ev);
/*
 * Whether @pm's process has moved to another root or mount namespace since
 * the watch was made while its map is still not found (chroot or unshare
 * after the fork that made the watch): then the map is in the new root's
 * /tmp, and a new watch should replace this one.
 */
bool perfmap_watch__moved(const struct perfmap_watch *pm);
/* Whether only polling sees @pm's map change (no inotify watch covers it). */
bool perfmap_watch__polled(const struct perfmap_watch *pm);
/* The process is gone and its map read for the last time: release its descriptors. */
void perfmap_watch__close(struct perfmap_watch *pm, int inotify_fd);
void perfmap_watch__free(struct perfmap_watch *pm);

#endif
