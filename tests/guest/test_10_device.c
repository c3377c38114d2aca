// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/jmmap as a device: present with mode 0600, answers the version ioctl,
 * refuses callers without CAP_PERFMON/CAP_SYS_ADMIN, and rejects bad ioctls
 * with the exact errno.
 */
#include <grp.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "jmmap.h"
#include "ktap.h"

#define DEV "/dev/" JMMAP_DEVICE_NAME

static int drop_all_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return (int)syscall(SYS_capset, &h, d);
}

/*
 * In a child: become uid/gid @id (or stay root if @id is 0), drop every
 * capability, open @path and report the errno of open (0 on success).
 */
static int open_errno_as(const char *path, uid_t id)
{
	int st, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (id && (setgroups(0, NULL) || setgid(id) || setuid(id)))
			_exit(200);
		if (drop_all_caps())
			_exit(201);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int module_listed(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "jmmap ", 6))
			found = 1;
	fclose(f);
	return found;
}

int main(void)
{
	struct jmmap_version v;
	struct stat st;
	char node[64];
	int fd, ret, e;

	ktap_begin();
	if (!module_listed())
		ktap_skip_all("jmmap is not loaded (the test bed loads $JMMAP_KO first)");
	ktap_ok(1, "module_loaded: jmmap is listed in /proc/modules");

	ret = stat(DEV, &st);
	ktap_ok(ret == 0 && S_ISCHR(st.st_mode), "device_is_char_device: " DEV " is a character device");
	ktap_ok(ret == 0 && (st.st_mode & 07777) == 0600 && st.st_uid == 0,
		"device_mode_0600: " DEV " has mode 0600 owned by root (mode %o)",
		ret == 0 ? st.st_mode & 07777 : 0);

	fd = open(DEV, O_RDONLY);
	if (!ktap_ok(fd >= 0, "root_can_open: root with its capabilities opens " DEV " (%s)",
		     fd < 0 ? strerror(errno) : "ok"))
		return ktap_finish();

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	ret = ioctl(fd, JMMAP_IOC_VERSION, &v);
	ktap_ok(ret == 0 && v.abi_version == JMMAP_ABI_VERSION && v.size == sizeof(v) &&
			memchr(v.module_version, 0, sizeof(v.module_version)) &&
			v.module_version[0],
		"version_ioctl_answers_abi_version: ABI %u (want %u), module \"%.31s\"",
		v.abi_version, JMMAP_ABI_VERSION, v.module_version);

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v.size);
	errno = 0;
	ret = ioctl(fd, JMMAP_IOC_VERSION, &v);
	e = errno;
	ktap_ok(ret == -1 && e == EINVAL && v.abi_version == 0,
		"version_short_size_einval: size %zu gets EINVAL and nothing written (%s)",
		sizeof(v.size), strerror(e));

	errno = 0;
	ret = ioctl(fd, JMMAP_IOC_VERSION, (void *)16);
	e = errno;
	ktap_ok(ret == -1 && e == EFAULT, "version_bad_pointer_efault: pointer 0x10 gets EFAULT (%s)",
		strerror(e));

	errno = 0;
	ret = ioctl(fd, _IOWR(JMMAP_IOC_MAGIC, 0x7f, struct jmmap_version), &v);
	e = errno;
	ktap_ok(ret == -1 && e == ENOTTY, "unknown_ioctl_enotty: unknown number gets ENOTTY (%s)",
		strerror(e));
	errno = 0;
	ret = ioctl(fd, _IOR(0x54, 0x01, int), &v);
	e = errno;
	ktap_ok(ret == -1 && e == ENOTTY, "foreign_ioctl_enotty: another driver's number gets ENOTTY (%s)",
		strerror(e));
	close(fd);

	e = open_errno_as(DEV, 0);
	ktap_ok(e == EPERM, "root_without_caps_eperm: uid 0 without capabilities gets EPERM (%s)",
		e > 0 ? strerror(e) : e == 0 ? "opened" : "child failed");

	e = open_errno_as(DEV, 65534);
	ktap_ok(e == EACCES, "nobody_node_mode_eacces: uid 65534 is kept out by mode 0600 (%s)",
		e > 0 ? strerror(e) : e == 0 ? "opened" : "child failed");

	/*
	 * The module's own check, past the node's mode: a node of the same
	 * device owned by uid 65534, opened by uid 65534 without capabilities.
	 */
	snprintf(node, sizeof(node), "/dev/jmmap-test-%d", getpid());
	ret = stat(DEV, &st) || mknod(node, S_IFCHR | 0600, st.st_rdev) || chown(node, 65534, 65534);
	e = ret ? -1 : open_errno_as(node, 65534);
	unlink(node);
	ktap_ok(e == EPERM, "unprivileged_open_eperm: uid 65534 without capabilities gets EPERM (%s)",
		e > 0 ? strerror(e) : e == 0 ? "opened" : "setup or child failed");
	return ktap_finish();
}
