/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd-io: whole reads and writes on a file descriptor. Each retries after
 * EINTR and after a short transfer; a transfer of nothing (a file that
 * shrank, a device that took no byte) is -EIO.
 */
#ifndef JREC_FD_IO_H
#define JREC_FD_IO_H

#include <stddef.h>
#include <stdint.h>

/* All @len bytes at the file offset. 0 or -errno. */
int fd__write_all(int fd, const void *p, size_t len);
/* All @len bytes at @off, the file offset unmoved. 0 or -errno. */
int fd__pwrite_all(int fd, const void *p, size_t len, uint64_t off);
/* All @len bytes from @off, the file offset unmoved. 0 or -errno. */
int fd__pread_all(int fd, void *p, size_t len, uint64_t off);

/*
 * Everything @from gives until its end (a pipe's), copied into an unlinked
 * file in directory @dir (NULL: /tmp), or into memory (a memfd) when @dir
 * cannot take one, for readers that need to map or seek what came as a
 * stream. Returns the new descriptor, at the end of the copy, or -errno.
 */
int fd__spool(int from, const char *dir);

#endif
