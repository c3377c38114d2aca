// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading jmmap: refused while a reader holds /dev/jmmap open (and the
 * module stays usable), allowed once it closes; then loaded again from
 * $JMMAP_KO so that the tests after this one find it.
 */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "jmmap.h"
#include "ktap.h"
#include "jmodule.h"

#define DEV "/dev/" JMMAP_DEVICE_NAME

/* What rmmod does: delete_module(name, O_NONBLOCK). */
static int rmmod_errno(void)
{
	if (syscall(SYS_delete_module, "jmmap", O_NONBLOCK) == 0)
		return 0;
	return errno;
}

static int version_ok(int fd)
{
	struct jmmap_version v = { .size = sizeof(v) };

	return ioctl(fd, JMMAP_IOC_VERSION, &v) == 0 && v.abi_version == JMMAP_ABI_VERSION;
}

static int wait_for_node(int present)
{
	struct stat st;
	int i;

	for (i = 0; i < 200; i++) {
		if ((stat(DEV, &st) == 0) == present)
			return 1;
		usleep(10000);
	}
	return 0;
}

int main(void)
{
	const char *ko = getenv("JMMAP_KO");
	int fd, fd2, e;

	ktap_begin();
	if (!ko || access(ko, R_OK))
		ktap_skip_all("JMMAP_KO is not set or not readable: cannot load jmmap again");
	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");

	e = rmmod_errno();
	ktap_ok(e == EWOULDBLOCK,
		"rmmod_with_reader_refused: delete_module fails with EWOULDBLOCK while open (%s)",
		e ? strerror(e) : "it unloaded");
	if (e == 0) {
		ktap_diag("module unloaded under an open reader; loading it again");
		insmod(ko);
		return ktap_finish();
	}
	ktap_ok(version_ok(fd), "open_reader_still_works: the open descriptor answers ioctls");
	fd2 = open(DEV, O_RDONLY);
	ktap_ok(fd2 >= 0 && version_ok(fd2), "new_open_still_works: a second open succeeds");
	if (fd2 >= 0)
		close(fd2);
	close(fd);

	e = rmmod_errno();
	ktap_ok(e == 0, "rmmod_after_close_succeeds: delete_module succeeds (%s)",
		e ? strerror(e) : "ok");
	ktap_ok(e == 0 && wait_for_node(0), "device_gone_after_rmmod: " DEV " is removed");

	e = insmod(ko);
	ktap_ok(e == 0 || e == EEXIST, "insmod_again: %s loads again (%s)", ko,
		e ? strerror(e) : "ok");
	ktap_ok(wait_for_node(1), "device_back_after_insmod: " DEV " exists again");
	fd = open(DEV, O_RDONLY);
	ktap_ok(fd >= 0 && version_ok(fd), "reloaded_module_answers: the version ioctl answers");
	if (fd >= 0)
		close(fd);
	return ktap_finish();
}
