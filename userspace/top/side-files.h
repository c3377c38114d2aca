/* SPDX-License-Identifier: GPL-2.0 */
/*
 * side-files: jrec top's copies of the JIT side files of the processes it
 * shows, read as they are written with the recorder's own readers: each
 * process's perf map (perfmap-watch, every line timed when first seen, read
 * through a descriptor held open so that a map deleted at exit is still
 * read to its end) and its jitdump (jitdump-copy, found in /proc/PID/maps
 * while the dump is mapped, then read through its descriptor). The copies
 * are handed to each refresh's session as the JITDUMP and PERFMAP sections'
 * payloads (session__add_side_files()), so JIT functions keep their names
 * after their process and its files are gone.
 */
#ifndef JREC_SIDE_FILES_H
#define JREC_SIDE_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct perfmap_watch;
struct jitdump_copy;

/* One process whose side files are followed. */
struct side_proc {
	uint32_t pid;
	struct perfmap_watch *pm; /* NULL once its process is gone */
	struct jitdump_copy *jd;  /* NULL until a dump is seen mapped */
	int gone;		  /* the process exited: its files were read for the last time */
};

struct side_files {
	struct side_proc *procs;
	size_t nr, cap;
	struct buf perfmap_lines; /* PERFMAP entries, every line ever read */
	struct buf jitdumps;	  /* JITDUMP entries, made again by side_files__payloads() */
};

/* Follow @pid's side files from now on (once; a process already gone is left out). 0 or -ENOMEM. */
int side_files__add(struct side_files *sf, uint32_t pid);
/* Read what every followed process wrote since the last call (@now: CLOCK_MONOTONIC ns). */
void side_files__update(struct side_files *sf, uint64_t now);
/* The JITDUMP and PERFMAP payloads of the copies so far, valid until the next call. 0 or -errno. */
int side_files__payloads(struct side_files *sf, const void **jitdumps, size_t *jlen,
			 const void **perfmaps, size_t *plen);
void side_files__release(struct side_files *sf);

#endif
