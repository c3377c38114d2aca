/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buildid-cache: where jrec's build-id cache lives and how an entry is laid
 * out, for the recorder that fills it and the report that reads it:
 *
 *     DIR/<cookie hex>/file     the bytes of the mapped file
 *     DIR/<cookie hex>/path     its original path, one line
 *
 * DIR is $JREC_BUILDID_DIR, else $HOME/.cache/jrec. Its size limit is
 * $JREC_BUILDID_CACHE_SIZE, else BUILDID_CACHE_DEFAULT_LIMIT; 0 = none.
 */
#ifndef JREC_BUILDID_CACHE_H
#define JREC_BUILDID_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cookie.h"

#define BUILDID_CACHE_FILE "file"
#define BUILDID_CACHE_PATH "path"

#define BUILDID_CACHE_DEFAULT_LIMIT (2ull << 30) /* 2 GiB */

/*
 * A size: bytes, or a number with K, M, G or T (powers of 1024); "0" for no
 * limit. 0 or -EINVAL.
 */
int buildid_cache__parse_size(const char *s, uint64_t *bytes);
/* The limit from $JREC_BUILDID_CACHE_SIZE, else the default. 0 or -EINVAL (a bad value). */
int buildid_cache__default_limit(uint64_t *bytes);

/* The cache directory into @buf. 0, -ENOENT (no variable set), -ENAMETOOLONG. */
int buildid_cache__default_dir(char *buf, size_t len);
/*
 * DIR/<hex of @c>/@leaf (a malloc'ed string), or the entry's directory when
 * @leaf is NULL. NULL when out of memory.
 */
char *buildid_cache__path(const char *dir, const struct jrec_cookie *c, const char *leaf);

#endif
