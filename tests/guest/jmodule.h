/* SPDX-License-Identifier: GPL-2.0 */
/* Loading jmmap from a guest test, as insmod does: finit_module on the file. */
#ifndef JMMAP_GUEST_JMODULE_H
#define JMMAP_GUEST_JMODULE_H

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 0, or the errno of the failed open or finit_module. */
static inline int insmod(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return errno;
	ret = (int)syscall(SYS_finit_module, fd, "", 0);
	ret = ret ? errno : 0;
	close(fd);
	return ret;
}

#endif /* JMMAP_GUEST_JMODULE_H */
