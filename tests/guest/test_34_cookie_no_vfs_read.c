// SPDX-License-Identifier: GPL-2.0
/*
 * The module reads a file for its cookie without a read through the VFS
 * (rw_verify_area()): no fanotify permission event for a listener to answer,
 * and no O_DIRECT alignment rule.
 *   - The test is a fanotify listener with FAN_ACCESS_PERM marks on a file
 *     on the scratch disk (read through the page cache, out of it first)
 *     and on one in /tmp, which answers nothing for HOLD_MS. A followed
 *     child maps both executable: its mmap() calls (the cookie is read
 *     before they return) must not wait on the listener, the listener must
 *     see no access event, and both MMAP3 records must carry their content
 *     cookies. One file at a time, each with the listener silent at first.
 *   - The child then maps a third file through an O_DIRECT descriptor: its
 *     MMAP3 carries the content cookie, not a read error.
 * Once HOLD_MS is over, the listener allows every event it got, so the
 * child of a module that does read through the VFS finishes too (late).
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/fanotify.h>
#include <sys/wait.h>
#include <time.h>

#include "cookie.h"
#include "jsession.h"

#define HOLD_MS 3000
#define QUICK_MS 1000 /* the longest a mapping call may take here */
#define FILE_BYTES (64 * 1024)

static const char *names[3];

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A file of FILE_BYTES that is not ELF, synced: 0 or -1. */
static int make_file(const char *path, char fill)
{
	static char buf[FILE_BYTES];
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	memset(buf, fill, sizeof(buf));
	buf[0] = '#';
	n = f < 0 ? -1 : write(f, buf, sizeof(buf));
	if (f >= 0 && (fsync(f) || close(f)))
		n = -1;
	if (n != (ssize_t)sizeof(buf)) {
		ktap_diag("writing %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Map @path executable through a descriptor opened with @flags; ms taken, or -1. */
static long map_timed(const char *path, int flags)
{
	uint64_t t0;
	void *p;
	int f = open(path, O_RDONLY | flags);

	if (f < 0)
		return -1;
	t0 = now_ms();
	p = mmap(NULL, FILE_BYTES, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0);
	close(f);
	return p == MAP_FAILED ? -1 : (long)(now_ms() - t0);
}

/* The child: map file i when told i, and report the call's ms each time. */
static void child(int go, int report)
{
	static const int flags[3] = { 0, 0, O_DIRECT };
	long ms;
	char i;

	while (read(go, &i, 1) == 1 && i >= 0 && i < 3) {
		ms = map_timed(names[(int)i], flags[(int)i]);
		if (write(report, &ms, sizeof(ms)) != (ssize_t)sizeof(ms))
			_exit(2);
	}
	_exit(0);
}

/* Allow every permission event queued on @fan; the number of them. */
static int answer_all(int fan)
{
	char buf[4096] __attribute__((aligned(8)));
	int events = 0;
	ssize_t n;

	while ((n = read(fan, buf, sizeof(buf))) > 0) {
		struct fanotify_event_metadata *m = (void *)buf;

		for (; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
			struct fanotify_response r = { .fd = m->fd, .response = FAN_ALLOW };

			events++;
			if (m->mask & FAN_ACCESS_PERM && write(fan, &r, sizeof(r)) != sizeof(r))
				ktap_diag("answering an event: %s", strerror(errno));
			if (m->fd >= 0)
				close(m->fd);
		}
	}
	return events;
}

/*
 * Have the child map file @i, answering nothing for HOLD_MS or until it
 * reports, then everything until it does; the ms it took, or -1. Adds the
 * events the listener got to *@events.
 */
static long round_trip(int go, int report, int fan, char i, int *events)
{
	struct pollfd pfd = { .fd = report, .events = POLLIN };
	uint64_t t0 = now_ms();
	long ms = -1;

	if (write(go, &i, 1) != 1)
		return -1;
	poll(&pfd, 1, HOLD_MS);
	*events += answer_all(fan);
	while (!(pfd.revents & (POLLIN | POLLHUP)) && now_ms() - t0 < 60000) {
		poll(&pfd, 1, 50);
		*events += answer_all(fan);
	}
	if (read(report, &ms, sizeof(ms)) != (ssize_t)sizeof(ms))
		ktap_diag("the child reported nothing for file %d", i);
	return ms;
}

/* The MMAP3 of file @i carries the content cookie userspace computes for it. */
static void check_cookie(const struct js_records *r, pid_t pid, int i, const char *how)
{
	const struct jmmap_rec_mmap3 *m = js_find_exec_map(r, pid, names[i]);
	char got[2 * JMMAP_COOKIE_MAX + 1], want[2 * JMMAP_COOKIE_MAX + 1];
	struct jrec_cookie uc;

	if (!m) {
		ktap_ok(0, "%s: an MMAP3 of %s arrived", how, names[i]);
		return;
	}
	js_mmap3_cookie_hex(m, got);
	if (jrec_cookie_from_path(names[i], &uc))
		strcpy(want, "(userspace could not read it)");
	else
		jrec_cookie_hex(&uc, want);
	ktap_ok(m->cookie_kind == JMMAP_COOKIE_CONTENT && !strcmp(got, want),
		"%s: the MMAP3 of %s carries its content cookie (kind %u, why %u, %s; userspace %s)",
		how, names[i], m->cookie_kind, m->hdr.flags & JMMAP_COOKIE_WHY_MASK, got, want);
}

int main(void)
{
	const char *scratch = getenv("JMMAP_SCRATCH");
	static char disk_file[256], direct_file[256];
	int go[2], report[2], fan, fd, status, events = 0, i;
	struct js_records r = {};
	long ms[3] = { -1, -1, -1 };
	pid_t pid;

	ktap_begin();
	if (!scratch)
		ktap_skip_all("no scratch disk (JMMAP_SCRATCH)");
	snprintf(disk_file, sizeof(disk_file), "%s/fan-watched.bin", scratch);
	snprintf(direct_file, sizeof(direct_file), "%s/fan-direct.bin", scratch);
	names[0] = disk_file;
	names[1] = "/tmp/fan-watched.bin";
	names[2] = direct_file;
	for (i = 0; i < 3; i++)
		if (make_file(names[i], (char)('a' + i)))
			return KSFT_FAIL;
	if (js_drop_caches())
		ktap_diag("dropping the page cache failed: the disk file may be read from it");

	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_NONBLOCK | FAN_CLOEXEC, O_RDONLY);
	if (fan < 0)
		ktap_skip_all("fanotify_init(FAN_CLASS_CONTENT) failed: no permission events here");
	for (i = 0; i < 2; i++) {
		if (fanotify_mark(fan, FAN_MARK_ADD, FAN_ACCESS_PERM, AT_FDCWD, names[i])) {
			ktap_diag("fanotify_mark %s: %s", names[i], strerror(errno));
			return KSFT_FAIL;
		}
	}

	fd = js_open(0, 0);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap: is jmmap loaded?");
	if (pipe(go) || pipe(report))
		return KSFT_FAIL;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(report[0]);
		child(go[0], report[1]);
	}
	close(go[0]);
	close(report[1]);
	if (js_add(fd, pid, JMMAP_TARGET_NO_SNAPSHOT)) {
		ktap_diag("ADD_TARGET %d: %s", pid, strerror(errno));
		kill(pid, SIGKILL);
		return KSFT_FAIL;
	}
	for (i = 0; i < 3; i++)
		ms[i] = round_trip(go[1], report[0], fan, (char)i, &events);
	close(go[1]);
	waitpid(pid, &status, 0);
	events += answer_all(fan);
	close(fan); /* before this process reads the files itself */

	ktap_ok(ms[0] >= 0 && ms[0] < QUICK_MS,
		"mapping a watched file on the disk took %ld ms (< %d) with the listener silent",
		ms[0], QUICK_MS);
	ktap_ok(ms[1] >= 0 && ms[1] < QUICK_MS,
		"mapping a watched file in /tmp took %ld ms (< %d) with the listener silent", ms[1],
		QUICK_MS);
	ktap_ok(events == 0, "the listener got no access event from the cookie reads (it got %d)",
		events);
	ktap_ok(ms[2] >= 0, "the child mapped a file through an O_DIRECT descriptor");

	js_drain(fd, &r);
	check_cookie(&r, pid, 0, "watched, disk");
	check_cookie(&r, pid, 1, "watched, /tmp");
	check_cookie(&r, pid, 2, "O_DIRECT");
	ktap_ok(!r.framing_errors, "records framed as the ABI says");
	js_free(&r);
	close(fd);
	for (i = 0; i < 3; i++)
		unlink(names[i]);
	return ktap_finish();
}
