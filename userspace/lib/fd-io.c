// SPDX-License-Identifier: GPL-2.0
/* Whole reads and writes on a file descriptor; see fd-io.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#include "fd-io.h"

/*
 * One loop for the three: @at is the file offset for pread/pwrite, or -1 for
 * write at the descriptor's own offset.
 */
static int transfer(int fd, void *p, size_t len, int64_t at, int writing)
{
	uint8_t *b = p;

	while (len) {
		ssize_t n;

		if (!writing)
			n = pread(fd, b, len, (off_t)at);
		else if (at < 0)
			n = write(fd, b, len);
		else
			n = pwrite(fd, b, len, (off_t)at);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		b += n;
		len -= (size_t)n;
		if (at >= 0)
			at += n;
	}
	return 0;
}

int fd__write_all(int fd, const void *p, size_t len)
{
	return transfer(fd, (void *)p, len, -1, 1);
}

int fd__pwrite_all(int fd, const void *p, size_t len, uint64_t off)
{
	return transfer(fd, (void *)p, len, (int64_t)off, 1);
}

int fd__pread_all(int fd, void *p, size_t len, uint64_t off)
{
	return transfer(fd, p, len, (int64_t)off, 0);
}

int fd__spool(int from, const char *dir)
{
	const size_t cap = 1u << 16;
	uint8_t *chunk = malloc(cap);
	int fd, err = 0;
	ssize_t n;

	if (!chunk)
		return -ENOMEM;
	fd = open(dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("jrec-spool", MFD_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(chunk);
		return err;
	}
	for (;;) {
		n = read(from, chunk, cap);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		err = fd__write_all(fd, chunk, (size_t)n);
		if (err)
			break;
	}
	free(chunk);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}
