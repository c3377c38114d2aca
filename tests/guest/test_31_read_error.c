// SPDX-License-Identifier: GPL-2.0
/*
 * A cookie read that fails is not a file without a build-id. The module
 * reads a mapped file's cookie in the task's own return path; a read that
 * has to wait for the disk gives up with -EINTR when the task is killed in
 * the meantime. The test makes that happen on purpose:
 *   - a child in a cgroup whose reads from the scratch disk are throttled to
 *     two a second (cgroup v2 io.max; the least it takes) maps a copy of
 *     libjm_a.so (a build-id in a PT_NOTE), out of the page cache,
 *     executable; once the child waits on the disk (state D), the test
 *     kills it;
 *   - the child's MMAP3 must carry no cookie and say why: a read error
 *     (not "no build-id", and not a content cookie);
 *   - then the test, not throttled, maps the same file itself: the build-id
 *     `readelf -n` printed for libjm_a.so. Nothing learnt from the failed
 *     read may be kept for the inode: a cache entry made after the error
 *     would give a content cookie here. The file's change time is two
 *     seconds old, so the module would otherwise cache what it computed.
 * A read that fails with -ENOMEM or -EIO goes through the same path but
 * cannot be made to happen from a test on Debian's kernels (no fault
 * injection, no error-injecting block device in the test bed).
 */
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>

#include "jsession.h"

#define CG "/sys/fs/cgroup"
#define CG_SLOW CG "/jmmap-slow-read"
#define WAIT_D_MS 10000 /* the longest the test waits to see the child wait on the disk */

static int write_str(const char *path, const char *text)
{
	int f = open(path, O_WRONLY);
	ssize_t n = f < 0 ? -1 : write(f, text, strlen(text));

	if (f >= 0)
		close(f);
	if (n != (ssize_t)strlen(text)) {
		ktap_diag("writing '%s' to %s: %s", text, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* A cgroup whose reads from the device of @dev are throttled to 2 a second. */
static int slow_cgroup(dev_t dev)
{
	char limit[64];
	struct stat st;

	if (stat(CG "/cgroup.controllers", &st) &&
	    mount("none", CG, "cgroup2", 0, NULL)) {
		ktap_diag("mounting cgroup2 on " CG ": %s", strerror(errno));
		return -1;
	}
	if (write_str(CG "/cgroup.subtree_control", "+io"))
		return -1;
	if (mkdir(CG_SLOW, 0755) && errno != EEXIST) {
		ktap_diag("mkdir " CG_SLOW ": %s", strerror(errno));
		return -1;
	}
	snprintf(limit, sizeof(limit), "%u:%u riops=2", major(dev), minor(dev));
	return write_str(CG_SLOW "/io.max", limit);
}

/* The child's state letter from /proc/PID/stat, 0 if unknown. */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = open(path, O_RDONLY);
	if (f < 0)
		return 0;
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/*
 * The child: once told, read @burn (the throttle's first read goes to it),
 * say so, and map @f executable; it is killed while it reads the cookie.
 */
static void child(int go, int said, const char *burn, int f)
{
	char buf[4096], c;
	struct stat st;
	int b;

	if (read(go, &c, 1) != 1 || fstat(f, &st))
		_exit(2);
	b = open(burn, O_RDONLY);
	while (b >= 0 && read(b, buf, sizeof(buf)) > 0)
		;
	if (write(said, "m", 1) != 1)
		_exit(2);
	if (mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0) == MAP_FAILED)
		_exit(3);
	_exit(0);
}

/*
 * The last executable MMAP3 of @pid. Its name is the file's, or "//unknown"
 * if the work ran only once the task had let go of its root (do_exit).
 */
static const struct jmmap_rec_mmap3 *last_exec_map(const struct js_records *r, pid_t pid)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)pid && (m->prot & PROT_EXEC))
			found = m;
	}
	return found;
}

/* Kill @pid once it waits on the disk after saying so on @said. */
static int kill_when_waiting(pid_t pid, int said)
{
	char c, path[64];
	int i, status;

	if (read(said, &c, 1) != 1)
		return -1;
	for (i = 0; i < WAIT_D_MS; i++) {
		if (task_state(pid) == 'D')
			break;
		usleep(1000);
	}
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	if (i == WAIT_D_MS) {
		ktap_diag("the child never waited on the disk (state %c)", task_state(pid));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status)) {
		ktap_diag("the child was not killed (status %#x)", status);
		return -1;
	}
	ktap_diag("child %d killed after %d ms, while waiting on the disk", pid, i);
	return 0;
}

int main(int argc, char **argv)
{
	char self[256], dir[256], src[512], path[512], burn[512], want[64], got[64];
	char kgot[64], pidtxt[16];
	const char *scratch = getenv("JMMAP_SCRATCH");
	struct js_records r = { 0 };
	const struct jmmap_rec_mmap3 *m;
	int fd, cfd, err, go[2], said[2];
	uint8_t kind = 0xff;
	struct stat st;
	unsigned int why;
	pid_t pid;
	ssize_t n;

	ktap_begin();
	if (!scratch)
		ktap_skip_all("JMMAP_SCRATCH is not set: no disk file system (the cookie cache "
			      "is off on memory file systems)");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("no /proc/self/exe");
	self[n] = 0;
	snprintf(dir, sizeof(dir), "%s", dirname(self));
	snprintf(src, sizeof(src), "%s/libjm_a.so", dir);
	if (js_read_id(dir, "libjm_a.so", want, sizeof(want)))
		ktap_skip_all("libjm_a.so.id missing beside the test");
	snprintf(path, sizeof(path), "%s/jmmap-eintr-%d.so", scratch, getpid());
	snprintf(burn, sizeof(burn), "%s/jmmap-eintr-%d.burn", scratch, getpid());
	if (js_copy_file(src, path, O_TRUNC) || js_copy_file(src, burn, O_TRUNC) || stat(scratch, &st))
		ktap_skip_all("cannot copy libjm_a.so to the scratch disk");
	if (slow_cgroup(st.st_dev))
		ktap_skip_all("no cgroup v2 io.max for the scratch disk");
	sleep(2); /* the change time a cookie computed now would be cached under */
	/* out of the page cache: a read waits for the disk, and gives up for a task being killed */
	if (js_drop_caches())
		ktap_diag("could not drop the page cache: %s", strerror(errno));

	fd = js_open(0, 0);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
	cfd = open(path, O_RDONLY);
	if (cfd < 0 || pipe(go) || pipe(said))
		ktap_skip_all("cannot open the copy on the scratch disk");
	pid = fork();
	if (pid < 0)
		ktap_skip_all("fork failed");
	if (pid == 0)
		child(go[0], said[1], burn, cfd);
	snprintf(pidtxt, sizeof(pidtxt), "%d", pid);
	err = js_add(fd, pid, JMMAP_TARGET_NO_SNAPSHOT) || write_str(CG_SLOW "/cgroup.procs", pidtxt) ||
	      write(go[1], "g", 1) != 1;
	err = err || kill_when_waiting(pid, said[0]);
	if (err) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close(cfd);
	ktap_ok(!err, "eintr_child_killed: the child was killed while its cookie read waited "
		      "on the disk");

	js_drain(fd, &r);
	m = last_exec_map(&r, pid);
	if (m)
		ktap_diag("the child's MMAP3: %s", js_mmap3_name(m));
	why = m ? m->hdr.flags & JMMAP_COOKIE_WHY_MASK : 0;
	js_mmap3_cookie_hex(m, kgot);
	ktap_ok(m && m->cookie_kind == JMMAP_COOKIE_NONE && why == JMMAP_COOKIE_WHY_ERROR,
		"eintr_no_cookie: the killed task's MMAP3 has no cookie, why: read error "
		"(kind %d, why %u, cookie '%s')",
		m ? m->cookie_kind : -1, why, kgot);
	if (!m)
		js_dump(&r, pid);
	js_free(&r);

	if (js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_ok(0, "eintr_not_cached: ADD_TARGET self: %s", strerror(errno));
	} else {
		err = js_map_exec_cookie(fd, &r, path, got, &kind);
		ktap_ok(!err && kind == JMMAP_COOKIE_ELF_BUILD_ID && !strcmp(got, want),
			"eintr_not_cached: the same file mapped again gets its build-id %s "
			"(kind %d; readelf -n: %s)",
			got, kind, want);
		js_free(&r);
	}
	close(fd);
	unlink(path);
	unlink(burn);
	rmdir(CG_SLOW);
	(void)argc;
	(void)argv;
	return ktap_finish();
}
