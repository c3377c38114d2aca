// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile and unusual input the module must bound or get right: ioctl
 * commands whose encoded size differs from the argument's own, argument
 * sizes past a page, more sessions than the module allows, a file written
 * through a shared mapping on tmpfs (no change time moves), a chrooted
 * target named by SNAPSHOT and by live records, an execute-only file seen
 * by a session whose opener may not read it, and an mprotect() across more
 * executable vmas than the module keeps records for at once, and code
 * replaced by shmat(SHM_REMAP).
 */
#include <linux/capability.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "cookie.h"
#include "jsession.h"

static const struct jmmap_rec_mmap3 *find_mmap3(const struct js_records *r, pid_t pid,
						 const struct stat *st, unsigned int cause)
{
	const struct jmmap_rec_mmap3 *found = NULL;

	js_for_each(r, h)
	{
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		/* the device too: /tmp and the initramfs number their inodes alike */
		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)pid &&
		    m->ino == st->st_ino && m->dev_major == major(st->st_dev) &&
		    m->dev_minor == minor(st->st_dev) && (!cause || m->cause == cause))
			found = m;
	}
	return found;
}

/* The VERSION command with another size encoded in its number. */
static void test_ioctl_nr(int fd)
{
	struct jmmap_version v = { .size = sizeof(v) };
	unsigned int cmd = _IOC(_IOC_READ | _IOC_WRITE, JMMAP_IOC_MAGIC, 0x01, 200);
	int ret = ioctl(fd, cmd, &v);

	ktap_ok(ret == 0 && v.abi_version == JMMAP_ABI_VERSION,
		"ioctl_dispatched_on_nr: VERSION with 200 encoded as its size answers (%s)",
		ret ? strerror(errno) : "ok");
}

/* An argument that says it is a megabyte long, all zeroes past the struct. */
static void test_ioctl_size_cap(int fd)
{
	size_t len = 1 << 20;
	struct jmmap_config *cfg = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret, e;

	if (cfg == MAP_FAILED) {
		ktap_skip("no memory for the argument", "ioctl_size_capped");
		return;
	}
	cfg->size = (uint32_t)len;
	ret = ioctl(fd, JMMAP_IOC_CONFIG, cfg);
	e = errno;
	munmap(cfg, len);
	ktap_ok(ret == -1 && e == E2BIG,
		"ioctl_size_capped: CONFIG with size 1 MiB fails with E2BIG (%s)",
		ret ? strerror(e) : "accepted");
}

static void test_sessions_bounded(void)
{
	int fds[200], n = 0, e = 0, i;

	for (i = 0; i < 200; i++) {
		fds[n] = open(JS_DEV, O_RDONLY | O_CLOEXEC);
		if (fds[n] < 0) {
			e = errno;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	ktap_ok(n == 64 && e == EMFILE,
		"sessions_bounded: %d sessions opened, then %s (want 64, then EMFILE)", n,
		e ? strerror(e) : "no refusal");
}

static int write_pattern(const char *path, uint8_t first)
{
	uint8_t buf[10000];
	size_t i;
	int f, err;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 13 + 5);
	buf[0] = first;
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	err = f < 0 || write(f, buf, sizeof(buf)) != (ssize_t)sizeof(buf);
	if (f >= 0)
		close(f);
	return err ? -1 : 0;
}

/* Map @path executable and return the cookie of its MMAP3, in hex. */
static int exec_map_cookie(int fd, const char *path, char *hex)
{
	struct js_records r = { 0 };
	uint8_t kind;
	int err = js_map_exec_cookie(fd, &r, path, hex, &kind);

	js_free(&r);
	return err;
}

/*
 * tmpfs: the first write through a shared mapping faults and moves the
 * change time, later ones through the same mapping do not. A cookie cached
 * in between must not be served after such a write.
 */
static void test_shared_write_cookie(int fd)
{
	char path[] = "/tmp/jmmap-shw.bin", before[64] = "", after[64] = "", want[64] = "";
	struct jrec_cookie uc;
	uint8_t *w;
	int f, err;

	err = write_pattern(path, 'A');
	f = open(path, O_RDWR);
	w = f < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (f >= 0)
		close(f);
	if (err || w == MAP_FAILED) {
		ktap_skip("cannot map the file shared", "shared_write_new_cookie");
		unlink(path);
		return;
	}
	w[1] = 'a';  /* the write fault: the change time moves now */
	sleep(3);    /* ... and is then old enough for a cache to trust */
	err |= exec_map_cookie(fd, path, before);
	w[0] = 'B';  /* no fault: the page is writable already */
	err |= exec_map_cookie(fd, path, after);
	err |= jrec_cookie_from_path(path, &uc);
	jrec_cookie_hex(&uc, want);
	munmap(w, 4096);
	unlink(path);
	ktap_ok(!err && strcmp(before, after) && !strcmp(after, want),
		"shared_write_new_cookie: tmpfs file written through a shared mapping: %s, then %s "
		"(userspace rule now %s)",
		before, after, want);
}

/*
 * A chrooted target: its SNAPSHOT record names the file from the target's
 * root, as its live records do.
 */
static void test_chroot_names(void)
{
	char dir[] = "/tmp/jmmap-rootXXXXXX", path[256], snap_name[256] = "?", live_name[256] = "?";
	const struct jmmap_rec_mmap3 *m;
	struct js_records r = { 0 };
	int req[2], ans[2], fd = -1, ok = 0;
	struct stat st;
	pid_t pid;
	char c = 0;

	if (!mkdtemp(dir) || pipe(req) || pipe(ans)) {
		ktap_skip("no temporary directory", "chroot_target_names");
		return;
	}
	snprintf(path, sizeof(path), "%s/code.bin", dir);
	if (write_pattern(path, 'C') || stat(path, &st)) {
		ktap_skip("cannot write the file", "chroot_target_names");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int f;

		if (chroot(dir) || chdir("/"))
			_exit(1);
		for (;;) {
			if (read(req[0], &c, 1) != 1 || c == 'q')
				_exit(0);
			f = open("/code.bin", O_RDONLY);
			if (f < 0 || mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0) ==
					     MAP_FAILED)
				_exit(1);
			close(f);
			if (write(ans[1], "k", 1) != 1)
				_exit(1);
		}
	}
	c = 'm';
	if (pid > 0 && write(req[1], &c, 1) == 1 && read(ans[0], &c, 1) == 1) {
		fd = js_open(0, 0);
		if (fd >= 0 && js_add(fd, pid, 0) == 0) {
			js_drain(fd, &r);
			m = find_mmap3(&r, pid, &st, JMMAP_CAUSE_SNAPSHOT);
			if (m)
				snprintf(snap_name, sizeof(snap_name), "%s", js_mmap3_name(m));
			js_free(&r);
			c = 'm';
			if (write(req[1], &c, 1) == 1 && read(ans[0], &c, 1) == 1) {
				js_drain(fd, &r);
				m = find_mmap3(&r, pid, &st, JMMAP_CAUSE_MMAP);
				if (m)
					snprintf(live_name, sizeof(live_name), "%s", js_mmap3_name(m));
				js_free(&r);
				ok = 1;
			}
		}
	}
	c = 'q';
	if (write(req[1], &c, 1) != 1)
		ok = 0;
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (fd >= 0)
		close(fd);
	unlink(path);
	rmdir(dir);
	ktap_ok(ok && !strcmp(snap_name, "/code.bin") && !strcmp(live_name, "/code.bin"),
		"chroot_target_names: SNAPSHOT names %s, the live record %s (want /code.bin)",
		snap_name, live_name);
}

/* Drop to uid/gid 65534 keeping CAP_PERFMON alone; 0 on success. */
static int become_perfmon_nobody(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (prctl(PR_SET_KEEPCAPS, 1) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return -1;
	data[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
	data[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	return (int)syscall(SYS_capset, &hdr, data);
}

/*
 * An execute-only file (0711, root's) mapped by a root process: a session
 * opened by root gets its cookie, one opened by an unprivileged user with
 * CAP_PERFMON gets it withheld, with the reason.
 */
static void test_withheld_cookie(void)
{
	char path[] = "/tmp/jmmap-xo.bin";
	int go[2], done[2], res[2], root_fd, ok = 0;
	unsigned int kind_root = 0xff, kind_user = 0xff, why_user = 0xff;
	struct js_records r = { 0 };
	const struct jmmap_rec_mmap3 *m;
	struct stat st, dev;
	pid_t target, user;
	char c;

	if (write_pattern(path, 'X') || chmod(path, 0711) || stat(path, &st) ||
	    stat(JS_DEV, &dev) || pipe(go) || pipe(done) || pipe(res)) {
		ktap_skip("cannot set up the file", "withheld_cookie");
		return;
	}
	target = fork();
	if (target == 0) {
		int f;

		if (read(go[0], &c, 1) != 1)
			_exit(1);
		f = open(path, O_RDONLY);
		if (f < 0 || mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0) ==
				     MAP_FAILED)
			_exit(1);
		if (write(done[1], "k", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	root_fd = js_open(0, 0);
	chmod(JS_DEV, 0666);
	user = fork();
	if (user == 0) {
		unsigned int out[3] = { 0xff, 0xff, 0 };
		int fd = -1;

		if (become_perfmon_nobody() == 0)
			fd = js_open(0, 0);
		if (fd >= 0 && js_add(fd, target, JMMAP_TARGET_NO_SNAPSHOT) == 0 &&
		    write(res[1], "r", 1) == 1 && read(done[0], &c, 1) == 1) {
			js_drain(fd, &r);
			m = find_mmap3(&r, target, &st, JMMAP_CAUSE_MMAP);
			if (m) {
				out[0] = m->cookie_kind;
				out[1] = m->hdr.flags & JMMAP_COOKIE_WHY_MASK;
				out[2] = 1;
			}
		}
		if (write(res[1], out, sizeof(out)) != (ssize_t)sizeof(out))
			_exit(1);
		_exit(0);
	}
	if (root_fd >= 0 && js_add(root_fd, target, JMMAP_TARGET_NO_SNAPSHOT) == 0 &&
	    read(res[0], &c, 1) == 1 && c == 'r' && write(go[1], "g", 1) == 1) {
		unsigned int out[3];

		if (read(res[0], out, sizeof(out)) == (ssize_t)sizeof(out) && out[2]) {
			kind_user = out[0];
			why_user = out[1];
			js_drain(root_fd, &r);
			m = find_mmap3(&r, target, &st, JMMAP_CAUSE_MMAP);
			kind_root = m ? m->cookie_kind : 0xff;
			js_free(&r);
			ok = 1;
		}
	}
	chmod(JS_DEV, dev.st_mode & 07777);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	if (user > 0)
		waitpid(user, NULL, 0);
	if (root_fd >= 0)
		close(root_fd);
	unlink(path);
	ktap_ok(ok && kind_root == JMMAP_COOKIE_CONTENT && kind_user == JMMAP_COOKIE_NONE &&
			why_user == JMMAP_COOKIE_WHY_WITHHELD,
		"withheld_cookie: execute-only file: root's session kind %u, CAP_PERFMON user's "
		"kind %u why %u (want %u; %u, %u)",
		kind_root, kind_user, why_user, JMMAP_COOKIE_CONTENT, JMMAP_COOKIE_NONE,
		JMMAP_COOKIE_WHY_WITHHELD);
}

/*
 * shmat(SHM_REMAP) over executable code: the code that went away is
 * reported once, as a MAP_FIXED replacement, whichever path the kernel
 * takes to remove it (6.1 runs its munmap path inside mmap_region()).
 */
static void test_shm_remap_once(void)
{
	struct js_records r = { 0 };
	unsigned int munmaps = 0, fixed = 0;
	uint8_t *code;
	void *shm;
	int fd, id;

	fd = js_open(0, 0);
	if (fd < 0 || js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_skip("cannot open a session", "shm_remap_one_munmap");
		return;
	}
	code = mmap(NULL, 2 * JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		    0);
	id = shmget(IPC_PRIVATE, 2 * JS_PAGE, IPC_CREAT | 0600);
	if (code == MAP_FAILED || id < 0) {
		close(fd);
		ktap_skip("no code mapping or no System V shared memory", "shm_remap_one_munmap");
		return;
	}
	js_drain(fd, &r);
	js_free(&r);
	shm = shmat(id, code, SHM_REMAP | SHM_EXEC);
	shmctl(id, IPC_RMID, NULL);
	js_drain(fd, &r);
	js_for_each(&r, h)
	{
		const struct jmmap_rec_munmap *u = (const void *)h;

		if (h->type != JMMAP_REC_MUNMAP || u->pid != (uint32_t)getpid() ||
		    u->start >= (uintptr_t)code + 2 * JS_PAGE || u->start + u->len <= (uintptr_t)code)
			continue;
		munmaps++;
		fixed += u->cause == JMMAP_UNMAP_MAP_FIXED;
	}
	ktap_ok(shm == (void *)code && munmaps == 1 && fixed == 1,
		"shm_remap_one_munmap: shmat(SHM_REMAP) over code: %u MUNMAP (%u map_fixed), want 1",
		munmaps, fixed);
	if (shm != (void *)-1)
		shmdt(shm);
	js_free(&r);
	close(fd);
}

static void *poll_5s(void *arg)
{
	struct pollfd p = { .fd = *(int *)arg, .events = POLLIN };

	return (void *)(long)poll(&p, 1, 5000);
}

/*
 * CONFIG's wakeup_bytes: below it a session is not readable to poll() (its
 * records can still be read), and a reader asleep in poll() is woken once
 * that much is queued.
 */
static void test_wakeup_bytes(void)
{
	struct jmmap_config cfg = { .size = sizeof(cfg), .wakeup_bytes = 16384 };
	struct pollfd p = { .events = POLLIN };
	struct js_records r = { 0 };
	int fd, below = -1, i, ok = 0;
	size_t drained = 0;
	pthread_t t;
	void *woke = (void *)-1L;

	fd = js_open(0, 0);
	if (fd < 0 || ioctl(fd, JMMAP_IOC_CONFIG, &cfg) ||
	    js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_ok(0, "wakeup_bytes: CONFIG with wakeup_bytes 16384 (%s)", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	/* One record: queued, not enough to be readable. */
	munmap(mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
	       JS_PAGE);
	p.fd = fd;
	below = poll(&p, 1, 50);
	drained = js_drain(fd, &r);
	js_free(&r);
	/* A reader asleep in poll() is woken once 16 KiB are queued. */
	if (pthread_create(&t, NULL, poll_5s, &fd) == 0) {
		usleep(100000);
		for (i = 0; i < 200; i++)
			munmap(mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
			       JS_PAGE);
		pthread_join(t, &woke);
		ok = 1;
	}
	ktap_ok(ok && below == 0 && drained > 0 && (long)woke == 1,
		"wakeup_bytes: one record is not readable to poll (poll %d, %zu records read "
		"all the same), 400 records wake a poll asleep (poll %ld)",
		below, drained, (long)woke);
	close(fd);
}

/*
 * One mprotect() over more executable vmas than the module keeps pending
 * records for: every vma is either reported or counted lost.
 */
static void test_mprotect_many_vmas(void)
{
	const unsigned int pages = 6000;
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records r = { 0 };
	unsigned int i, emitted = 0;
	uint8_t *base;
	int fd;

	fd = js_open(16 << 20, 0);
	if (fd < 0 || js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_skip("cannot open a session", "mprotect_many_vmas_accounted");
		return;
	}
	base = mmap(NULL, pages * JS_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED) {
		close(fd);
		ktap_skip("no memory", "mprotect_many_vmas_accounted");
		return;
	}
	for (i = 1; i < pages; i += 2) /* split into one vma a page */
		mprotect(base + i * JS_PAGE, JS_PAGE, PROT_READ);
	js_drain(fd, &r);
	js_free(&r);
	mprotect(base, pages * JS_PAGE, PROT_READ | PROT_EXEC);
	js_drain(fd, &r);
	js_for_each(&r, h)
	{
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->cause == JMMAP_CAUSE_MPROTECT &&
		    m->start >= (uintptr_t)base && m->start < (uintptr_t)base + pages * JS_PAGE)
			emitted++;
	}
	if (ioctl(fd, JMMAP_IOC_GET_STATS, &st))
		st.lost[JMMAP_REC_MMAP3] = ~0ULL;
	ktap_ok(emitted + st.lost[JMMAP_REC_MMAP3] == pages,
		"mprotect_many_vmas_accounted: %u vmas made executable: %u MMAP3 + %llu lost", pages,
		emitted, (unsigned long long)st.lost[JMMAP_REC_MMAP3]);
	js_free(&r);
	munmap(base, pages * JS_PAGE);
	close(fd);
}

int main(void)
{
	int fd;

	ktap_begin();
	fd = js_open_self(4 << 20, 0);
	test_ioctl_nr(fd);
	test_ioctl_size_cap(fd);
	test_shared_write_cookie(fd);
	close(fd);
	test_sessions_bounded();
	test_chroot_names();
	test_withheld_cookie();
	test_shm_remap_once();
	test_wakeup_bytes();
	test_mprotect_many_vmas();
	return ktap_finish();
}
