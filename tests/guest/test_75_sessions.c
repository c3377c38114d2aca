// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: independent buffers that each get every record they are
 * entitled to; system-wide sessions; read() of whole records only; poll();
 * the ioctls' errors; a descriptor handed to a process without capabilities
 * cannot widen what it sees; no record carries a kernel address.
 */
#include <linux/capability.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "jsession.h"

static int has_mmap_at(struct js_records *r, pid_t pid, void *addr)
{
	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)pid &&
		    m->start == (uintptr_t)addr)
			return 1;
	}
	return 0;
}

static int is_kernel_address(uint64_t v)
{
	return v >= 0xffff800000000000ULL;
}

/* Every numeric field that could hold an address, in every record. */
static int kernel_addresses(struct js_records *r)
{
	int bad = 0;

	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;
		const struct jmmap_rec_munmap *u = (const void *)h;
		const struct jmmap_rec_exec *e = (const void *)h;

		switch (h->type) {
		case JMMAP_REC_MMAP3:
			bad += is_kernel_address(m->start) + is_kernel_address(m->len) +
			       is_kernel_address(m->vma_start) + is_kernel_address(m->vma_end) +
			       is_kernel_address(m->pgoff) + is_kernel_address(m->ino) +
			       is_kernel_address(m->ino_generation);
			break;
		case JMMAP_REC_MUNMAP:
			bad += is_kernel_address(u->start) + is_kernel_address(u->len);
			break;
		case JMMAP_REC_EXEC:
			bad += is_kernel_address(e->ino) + is_kernel_address(e->ino_generation);
			break;
		}
	}
	return bad;
}

/* The state letter of /proc/PID/stat, 0 if there is none. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Wait until @pid's (leader's) state is Z; 0 when it is. */
static int wait_zombie(pid_t pid)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (proc_state(pid) == 'Z')
			return 0;
		usleep(10000);
	}
	return -1;
}

static void *block_fn(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * ADD_TARGET (in a new session) of a child that has exited and is not
 * reaped, or, with @leader_only, of one whose main thread alone exited
 * while another thread runs: 0 or the errno. -1 when the child is not Z.
 */
static int add_zombie_errno(int leader_only)
{
	pthread_t t;
	pid_t pid = fork();
	int fd, ret = -1;

	if (pid == 0) {
		/* exit, not exit_group; pthread_exit() would need libgcc_s */
		if (leader_only && pthread_create(&t, NULL, block_fn, NULL) == 0)
			syscall(SYS_exit, 0);
		_exit(0);
	}
	fd = js_open(0, 0);
	if (pid > 0 && fd >= 0 && wait_zombie(pid) == 0)
		ret = js_add(fd, pid, 0) ? errno : 0;
	if (fd >= 0)
		close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return ret;
}

static void *map_code_page(void)
{
	return mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/*
 * In a child without capabilities: the errno of ADD_TARGET (of the parent,
 * or with @flags) or of CONFIG (with @flags) on the inherited @fd.
 */
static int child_errno(int fd, unsigned long req, uint64_t flags)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	struct jmmap_config cfg = { .size = sizeof(cfg), .flags = flags };
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		memset(d, 0, sizeof(d));
		if (syscall(SYS_capset, &h, d))
			_exit(200);
		if (req == JMMAP_IOC_CONFIG)
			_exit(ioctl(fd, req, &cfg) ? errno : 0);
		_exit(js_add(fd, flags ? 0 : getppid(), flags) ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	struct js_records ra = { 0 }, rb = { 0 }, rsys = { 0 }, rnone = { 0 };
	struct jmmap_config cfg = { .size = sizeof(cfg) };
	struct jmmap_stats st = { .size = sizeof(st) };
	uint64_t by_type[JMMAP_REC_MAX] = { 0 };
	struct pollfd pfd;
	uint8_t small[8];
	int a, b, sys, none, blk, ret, e, i, ok;
	void *p, *q;
	pid_t child;

	ktap_begin();
	a = js_open_self(0, 0);
	b = js_open_self(0, 0);
	sys = js_open(0, 0);
	none = js_open(0, 0);
	if (sys < 0 || none < 0 || js_add(sys, 0, JMMAP_TARGET_SYSTEM_WIDE))
		ktap_skip_all("cannot open more sessions");

	p = map_code_page();
	js_drain(a, &ra);
	js_drain(b, &rb);
	ktap_ok(has_mmap_at(&ra, getpid(), p) && has_mmap_at(&rb, getpid(), p),
		"two_sessions_both_get_record: both sessions following this process got the MMAP3");

	/* A process no session follows: only the system-wide session sees it. */
	child = fork();
	if (child == 0) {
		/* Leave the target set: a new session is not needed, exec is. */
		_exit(map_code_page() == MAP_FAILED);
	}
	waitpid(child, NULL, 0);
	js_drain(sys, &rsys);
	js_drain(none, &rnone);
	js_drain(a, &ra);
	ktap_ok(has_mmap_at(&rsys, getpid(), p) && rsys.count > 0,
		"system_wide_sees_all: the system-wide session has this process's MMAP3");
	ok = 0;
	js_for_each(&rsys, h) {
		const struct jmmap_rec_exit *x = (const void *)h;

		if (h->type == JMMAP_REC_EXIT && x->pid == (uint32_t)child)
			ok = 1;
	}
	ktap_ok(ok, "system_wide_sees_child: the system-wide session has the child's EXIT");
	ktap_ok(rnone.count == 0, "session_without_targets_silent: %zu records", rnone.count);

	/* poll() */
	js_drain(a, &ra);
	pfd.fd = a;
	pfd.events = POLLIN;
	ret = poll(&pfd, 1, 0);
	ktap_ok(ret == 0, "poll_empty_not_readable: poll on a drained session gives %d", ret);
	q = map_code_page();
	ret = poll(&pfd, 1, 1000);
	ktap_ok(ret == 1 && (pfd.revents & POLLIN), "poll_readable_after_record: poll gives %d", ret);

	/* read(): a buffer smaller than the next record, then whole records. */
	errno = 0;
	ret = (int)read(a, small, sizeof(small));
	e = errno;
	ktap_ok(ret == -1 && e == EINVAL, "read_short_buffer_einval: 8-byte read gets EINVAL (%s)",
		strerror(e));
	js_drain(a, &ra);
	ktap_ok(has_mmap_at(&ra, getpid(), q) && ra.framing_errors == 0,
		"read_whole_records: the record is still there after the short read");

	/* Blocking read wakes up when a record arrives. */
	blk = open(JS_DEV, O_RDONLY);
	js_add(blk, getpid(), JMMAP_TARGET_NO_SNAPSHOT);
	child = fork();
	if (child == 0) {
		usleep(200000);
		_exit(map_code_page() == MAP_FAILED);
	}
	{
		static uint8_t buf[JS_READ_BUF];

		ret = (int)read(blk, buf, sizeof(buf));
	}
	waitpid(child, NULL, 0);
	ktap_ok(ret > 0, "blocking_read_wakes: a blocking read returned %d bytes", ret);
	close(blk);

	/* Stats agree with what was read. */
	js_drain(b, &rb);
	js_for_each(&rb, h) {
		if (h->type < JMMAP_REC_MAX)
			by_type[h->type]++;
	}
	ret = ioctl(b, JMMAP_IOC_GET_STATS, &st);
	ok = ret == 0;
	for (i = 1; i < JMMAP_REC_MAX; i++)
		if (st.emitted[i] != by_type[i] || st.lost[i])
			ok = 0;
	ktap_ok(ok, "stats_match_records: emitted counts equal the records read, nothing lost");

	/* ioctl errors */
	errno = 0;
	ret = js_add(a, 4194000, 0);
	e = errno;
	ktap_ok(ret == -1 && e == ESRCH, "add_target_no_such_pid_esrch (%s)", strerror(e));
	e = add_zombie_errno(0);
	ktap_ok(e == ESRCH, "add_target_zombie_esrch: a child that exited, not reaped (%s)",
		e > 0 ? strerror(e) : e == 0 ? "added" : "not a zombie");
	e = add_zombie_errno(1);
	ktap_ok(e == 0, "add_target_main_thread_exited: its other thread runs (%s)",
		e > 0 ? strerror(e) : e == 0 ? "added" : "not a zombie");
	errno = 0;
	ret = js_add(a, getpid(), 0x80);
	e = errno;
	ktap_ok(ret == -1 && e == EINVAL, "add_target_unknown_flag_einval (%s)", strerror(e));
	cfg.buffer_bytes = 1 << 20;
	errno = 0;
	ret = ioctl(a, JMMAP_IOC_CONFIG, &cfg);
	e = errno;
	ktap_ok(ret == -1 && e == EBUSY, "config_resize_after_target_ebusy (%s)", strerror(e));
	cfg.buffer_bytes = 0;
	cfg.flags = 0x100;
	errno = 0;
	ret = ioctl(none, JMMAP_IOC_CONFIG, &cfg);
	e = errno;
	ktap_ok(ret == -1 && e == EINVAL, "config_unknown_flag_einval (%s)", strerror(e));
	cfg.flags = 0;
	cfg.buffer_bytes = 100;
	errno = 0;
	ret = ioctl(none, JMMAP_IOC_CONFIG, &cfg);
	e = errno;
	ktap_ok(ret == -1 && e == EINVAL, "config_tiny_buffer_einval (%s)", strerror(e));

	/* A descriptor in the hands of a process without capabilities. */
	e = child_errno(none, JMMAP_IOC_ADD_TARGET, 0);
	ktap_ok(e == EPERM, "add_target_without_caps_eperm: inherited fd, no caps (%s)",
		e > 0 ? strerror(e) : "allowed");
	e = child_errno(none, JMMAP_IOC_ADD_TARGET, JMMAP_TARGET_SYSTEM_WIDE);
	ktap_ok(e == EPERM, "system_wide_without_caps_eperm: inherited fd, no caps (%s)",
		e > 0 ? strerror(e) : "allowed");
	e = child_errno(none, JMMAP_IOC_CONFIG, JMMAP_CONFIG_DATA_MMAPS);
	ktap_ok(e == EPERM, "config_data_mmaps_without_caps_eperm: inherited fd, no caps (%s)",
		e > 0 ? strerror(e) : "allowed");

	/* JMMAP_CONFIG_DATA_MMAPS: non-executable mappings too, for that session only. */
	{
		int data = js_open(0, JMMAP_CONFIG_DATA_MMAPS);
		struct js_records rd = { 0 };
		void *dp;

		if (data >= 0)
			js_add(data, getpid(), JMMAP_TARGET_NO_SNAPSHOT);
		js_drain(a, &ra);
		js_free(&ra);
		dp = mmap(NULL, 2 * JS_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
		if (data >= 0)
			js_drain(data, &rd);
		js_drain(a, &ra);
		ok = 0;
		js_for_each(&rd, h) {
			const struct jmmap_rec_mmap3 *m = (const void *)h;

			if (h->type == JMMAP_REC_MMAP3 && m->start == (uintptr_t)dp &&
			    m->len == 2 * JS_PAGE && m->prot == (PROT_READ | PROT_WRITE))
				ok = 1;
		}
		ktap_ok(data >= 0 && ok, "data_mmaps_reported_when_asked: MMAP3 of a RW mapping");
		ktap_ok(!has_mmap_at(&ra, getpid(), dp),
			"data_mmaps_not_reported_by_default: the default session has none");
		js_free(&rd);
		if (data >= 0)
			close(data);
	}

	/* Nothing is a kernel address: over everything this test saw. */
	js_drain(sys, &rsys);
	ktap_ok(kernel_addresses(&rsys) == 0 && kernel_addresses(&ra) == 0 && rsys.count > 0,
		"no_kernel_addresses: %zu system-wide records checked", rsys.count);

	js_free(&ra);
	js_free(&rb);
	js_free(&rsys);
	js_free(&rnone);
	close(a);
	close(b);
	close(sys);
	close(none);
	return ktap_finish();
}
