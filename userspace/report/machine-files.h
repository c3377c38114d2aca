/* SPDX-License-Identifier: GPL-2.0 */
/*
 * machine-files: the report's only way to a file of this machine (one that
 * the recording names or that holds the kernel's symbols): lib/ parsers get
 * its bytes, or, for an ELF file that libelf reads itself, its descriptor.
 */
#ifndef JREC_MACHINE_FILES_H
#define JREC_MACHINE_FILES_H

#include <stddef.h>

/* The most that machine_file__read() reads of a file that has no size (procfs). */
#define MACHINE_FILE_MAX (256u << 20)

/* Open @path read-only (close-on-exec): the descriptor, or -errno. */
int machine_file__open(const char *path);
/*
 * @fn over the bytes of the regular file at @path: mapped when its size is
 * known, else (/proc says size 0, a /sys file may not map) read to its end,
 * at most MACHINE_FILE_MAX bytes (-EFBIG beyond). fn's return, -ENODATA for
 * an empty or irregular file, or -errno.
 */
int machine_file__read(const char *path, int (*fn)(const void *bytes, size_t len, void *ctx),
		       void *ctx);
/*
 * The bytes of the file at @path (as machine_file__read() finds them) for the
 * caller to write into and keep: *@text has *@len bytes and room for one more;
 * it is a private mapping of *@map_len bytes to munmap(), or, when *@map_len
 * is 0, malloc'd. A copy that the caller parses in place costs its size once,
 * where reading then copying holds it twice. 0, -ENODATA or -errno.
 */
int machine_file__take(const char *path, char **text, size_t *len, size_t *map_len);

#endif
