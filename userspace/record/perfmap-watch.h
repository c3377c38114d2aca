/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timed perf-map lines: the recorder reads /tmp/perf-PID.map (the process's
 * own /tmp and namespaced pid) as it grows and stamps every new line with the
 * CLOCK_MONOTONIC time it was first seen.
 */
#ifndef JREC_PERFMAP_WATCH_H
#define JREC_PERFMAP_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "perfmap.h"

/* One watched perf map. */
struct perfmap_watch {
	uint32_t pid;	 /* as the recorder sees it */
	uint32_t nspid;	 /* as the process sees itself */
	char path[96];	 /* /proc/PID/root/tmp/perf-NSPID.map */
	int fd;		 /* -1 until the file exists */
	uint64_t offset; /* bytes consumed */
	struct perfmap_split split;
	uint64_t lines;
	int gone; /* the process exited: read for the last time */
};

/* Watch pid's perf map. 0 or -errno (-ESRCH if the process is gone). */
int perfmap_watch__new(uint32_t pid, struct perfmap_watch **out);
/*
 * Read what was added since the last call and append a timed entry for each
 * new line to out. 0 or -errno.
 */
int perfmap_watch__update(struct perfmap_watch *pm, uint64_t now, struct buf *out);
void perfmap_watch__free(struct perfmap_watch *pm);

#endif
