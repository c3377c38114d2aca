// SPDX-License-Identifier: GPL-2.0
/*
 * Unload while task_work is queued: a traced child's mmap(MAP_POPULATE) of a
 * large executable file (a memfd: a file's record waits for its cookie in
 * task_work, where anonymous memory's is emitted at once) queues its
 * record's task_work in mmap_region and then spends a long time populating
 * (writable, so every page is allocated) before it returns to user space.
 * With the session already closed, unloading must be refused while that
 * work is queued (it pins the module), and succeed once the child's mmap
 * returned.
 *
 * The child says it returned only after the work ran, so an unload tried
 * while it still says "inside" may come just after the work: an unload that
 * succeeds is a failure only if the child was still populating afterwards
 * (fewer pages resident than the region has), when its work was certainly
 * still queued.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "jsession.h"
#include "jmodule.h"

#define REGION (128UL << 20)

/* Pages resident in @pid (populating the region adds to them), or 0. */
static unsigned long resident_pages(pid_t pid)
{
	unsigned long size = 0, resident = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/statm", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident;
}

int main(void)
{
	const char *ko = getenv("JMMAP_KO");
	volatile int *state;
	int fd, go[2], e, refused = 0, attempts = 0, i;
	bool unloaded = false;
	unsigned long rss;
	pid_t child;
	char c;

	ktap_begin();
	if (!ko || access(ko, R_OK))
		ktap_skip_all("JMMAP_KO is not set or not readable");
	state = mmap(NULL, JS_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (state == MAP_FAILED || pipe(go))
		ktap_skip_all("setup failed");

	child = fork();
	if (child == 0) {
		int mfd = memfd_create("test_80", 0);
		void *p;

		close(go[1]);
		if (mfd < 0 || ftruncate(mfd, REGION) || read(go[0], &c, 1) != 1)
			_exit(2);
		state[0] = 1;
		p = mmap(NULL, REGION, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED | MAP_POPULATE,
			 mfd, 0);
		state[0] = p == MAP_FAILED ? 3 : 2;
		pause();
		_exit(0);
	}
	close(go[0]);
	fd = js_open(0, 0);
	if (fd < 0 || js_add(fd, child, JMMAP_TARGET_NO_SNAPSHOT)) {
		kill(child, SIGKILL);
		ktap_skip_all("cannot open a session on the child");
	}
	if (write(go[1], "g", 1) != 1)
		ktap_skip_all("cannot start the child");
	while (state[0] == 0)
		usleep(1000);
	usleep(2000);
	close(fd); /* no session holds the module now; only the queued work */

	/* Try to unload while the child is still inside its mmap. */
	while (state[0] == 1) {
		attempts++;
		if (syscall(SYS_delete_module, "jmmap", O_NONBLOCK) == 0) {
			e = 0;
			unloaded = true;
			rss = resident_pages(child);
			if (rss * (unsigned long)getpagesize() >= REGION) {
				/* populated: the work may have run just before */
				attempts--;
				ktap_diag("unloaded once the child had populated the region (%lu pages "
					  "resident), %d attempts before refused",
					  rss, refused);
			} else {
				ktap_diag("unloaded while the child was populating (%lu pages resident)",
					  rss);
			}
			break;
		}
		e = errno;
		if (e == EWOULDBLOCK)
			refused++;
		usleep(5000);
	}
	if (attempts == 0 || (refused == 0 && !unloaded)) {
		ktap_skip("the child's mmap returned before an unload could be tried",
			  "unload_refused_with_queued_task_work");
	} else {
		ktap_ok(refused == attempts,
			"unload_refused_with_queued_task_work: %d of %d attempts refused while the "
			"child was inside mmap",
			refused, attempts);
	}
	for (i = 0; i < 3000 && state[0] == 1; i++)
		usleep(10000);
	ktap_ok(state[0] == 2, "populating_mmap_returned: the child's mmap succeeded (%d)",
		state[0]);

	/* The work ran when the child returned to user space: unload now works. */
	e = unloaded ? 0 : EWOULDBLOCK;
	for (i = 0; i < 300 && e == EWOULDBLOCK; i++) {
		e = syscall(SYS_delete_module, "jmmap", O_NONBLOCK) ? errno : 0;
		if (e == EWOULDBLOCK)
			usleep(10000);
	}
	ktap_ok(e == 0, "unload_after_work_ran: %s", e ? strerror(e) : "unloaded");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	e = insmod(ko);
	if (e == EEXIST)
		e = 0;
	ktap_ok(e == 0, "insmod_again: %s", e ? strerror(e) : "loaded");
	return ktap_finish();
}
