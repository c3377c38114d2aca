/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build-id cache as a directory of entries (lib/buildid-cache.h has the
 * layout): list them with what each costs, remove them, and evict the least
 * recently used until the cache fits its limit. Used by `jrec buildid-cache`
 * and, at the end of a recording, by `jrec record`.
 *
 * An entry's cost is the disk space only it holds: its small files, and its
 * `file` unless that is a hard link that another name still shares (the
 * mapped binary itself, while it is installed). An entry is used when a
 * recording saves it or finds it cached: its directory's mtime.
 */
#ifndef JREC_BIDCACHE_DIR_H
#define JREC_BIDCACHE_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct bidcache_entry {
	char *name;	 /* the directory's name: the cookie in hex */
	char *path;	 /* the original path, "" when unknown */
	uint64_t size;	 /* bytes of `file` */
	uint64_t cost;	 /* disk bytes only this entry holds */
	unsigned int nlink; /* of `file`: > 1 while another name shares it */
	struct timespec used;
};

struct bidcache_dir {
	struct bidcache_entry *e;
	size_t nr, cap;
	uint64_t cost; /* of all entries */
};

/* Read every entry of @dir, least recently used first. 0 or -errno. */
int bidcache_dir__read(const char *dir, struct bidcache_dir *d);
void bidcache_dir__release(struct bidcache_dir *d);

/* Remove entry @name of @dir: its files and its directory. 0 or -errno. */
int bidcache_dir__remove(const char *dir, const char *name);

/*
 * Remove the least recently used entries until the cache costs at most
 * @limit bytes, sparing those used at or after @spare_since (a recording's
 * own). How many entries and bytes went in *@nr and *@bytes. 0 or -errno.
 */
int bidcache_dir__prune(const char *dir, uint64_t limit, const struct timespec *spare_since,
			size_t *nr, uint64_t *bytes);

#endif
