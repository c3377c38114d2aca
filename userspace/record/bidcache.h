/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build-id cache writer. For each file-backed executable mapping the
 * recorder hands over, a background thread identifies the exact mapped file
 * (read through /proc/PID/map_files/START-END, so a file renamed over or
 * deleted after it was mapped is still the one read), checks it against the
 * cookie the mapping record carried, and keeps it as
 *
 *     DIR/<cookie hex>/file     the mapped file's bytes
 *     DIR/<cookie hex>/path     the original path, one line
 *
 * without copying bytes where the filesystem allows: a hard link to the
 * mapped inode (checked to name that very inode), else a reflink, else a
 * copy (checked against the cookie again). A cookie already in the cache is
 * not saved again; its entry is marked as used now (the least recently used
 * entries go first when the cache is pruned). The thread never blocks the
 * caller: enqueueing only takes a short lock. A mapping whose file is
 * pinned waits for the caller to drain the queue (bidcache__stop(),
 * bidcache__results_so_far()), so that the work is not done on the
 * workload's CPU time while it runs.
 */
#ifndef JREC_BIDCACHE_H
#define JREC_BIDCACHE_H

#include <stdint.h>

#include "cookie.h"
#include "buf.h"

struct bidcache;

/* What one mapping record said. */
struct bidcache_map {
	uint32_t pid;
	uint64_t start, end;
	const char *path;
	struct jrec_cookie cookie;     /* from the record; kind NONE when it had none */
	uint32_t dev_major, dev_minor; /* identity when there is no cookie */
	uint64_t ino, ino_generation;
};

/* Outcome for one distinct mapped file (see enum jrec_file_status). */
struct bidcache_result {
	uint32_t pid;
	uint16_t status;
	struct jrec_cookie cookie; /* expected cookie, or the file's when none was given */
	char *path;
	int err;	 /* -errno behind a VANISHED/FAILED status */
	struct buf syms; /* its JREC_FEAT_SYMTAB entry when the file is ELF, else empty */
};

/* dir NULL: identify files but save nothing (status NOT_SAVED). 0 or -errno. */
int bidcache__new(const char *dir, struct bidcache **out);

/*
 * Queue a mapping. Duplicates (same path and cookie, or same path and inode
 * when there is no cookie) are dropped here. Opens the mapping through
 * map_files right away so that the file is pinned even if the process exits
 * before the thread gets to it. 0 or -ENOMEM.
 */
int bidcache__add(struct bidcache *c, const struct bidcache_map *m);

/*
 * Drain the queue and stop the thread. While the workload runs, the thread
 * takes only the mappings whose file could not be pinned, at a low priority
 * (nice 19); the caller processes the rest, at the caller's priority.
 */
void bidcache__stop(struct bidcache *c);

/* After stop: the results, in the order the files were queued. */
size_t bidcache__results(struct bidcache *c, const struct bidcache_result **out);

/*
 * While the thread runs (jrec record --switch-output): the queue drained
 * by the caller, then a copy of the results so far, in @out, without a
 * file the thread is still reading (free() it; the paths and symbols stay
 * the cache's until bidcache__free()). 0 or -ENOMEM.
 */
int bidcache__results_so_far(struct bidcache *c, struct bidcache_result **out, size_t *nr);

/* Of the SAVED files, after stop: how many are hard links, how many reflinks. */
void bidcache__saved_by(struct bidcache *c, unsigned int *linked, unsigned int *cloned);

/* Counts by status, after stop. */
void bidcache__counts(struct bidcache *c, unsigned int counts[8]);

void bidcache__free(struct bidcache *c);

/*
 * The JREC_FEAT_SYMTAB entry of each verified ELF file that was not copied
 * into the cache (NOT_SAVED, FAILED) is built by the thread too (its
 * function symbols, read from the exact mapped file), so that such a
 * recording can still be symbolized when the file is gone or replaced.
 */

#endif
