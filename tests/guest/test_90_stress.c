// SPDX-License-Identifier: GPL-2.0
/*
 * Safety under load: four processes fork/exec/mmap/mprotect/munmap/dlopen in
 * a loop for JMMAP_STRESS_SECONDS (default 30) while sessions open and
 * close; rmmod is refused while a session is open; after the load stops the
 * module unloads and loads cleanly and the kernel is not tainted by a
 * warning. (The test bed also fails the run on any warning or oops.)
 * Each worker's short-lived child first makes a mapping call that fails
 * after the module's hook ran (an mmap past RLIMIT_AS), so that tasks exit
 * holding the module's per-task entries while sessions close and the module
 * unloads: the exit probe and the teardown must not both free them.
 *
 * Between sessions, while the workers run, the module is also unloaded and
 * loaded again as soon as the task_work that pins it has drained
 * (JMMAP_STRESS_RELOADS=0 turns that off). The test bed runs its vCPUs with
 * single-threaded TCG: with multi-threaded TCG, registering and
 * unregistering kprobes on functions other vCPUs are executing crashed
 * Debian's 6.1 kernel even with the kernel's own kprobe_events and no jmmap
 * at all, an effect of the emulator's code patching, not of the module.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "jsession.h"
#include "jmodule.h"

#define WORKERS 4

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void worker(const char *lib, volatile unsigned long *iters, volatile unsigned long *failed)
{
	for (;;) {
		pid_t c = fork();
		uint8_t *p;
		void *h;

		if (c == 0) {
			struct rlimit rl = { 256UL << 20, 256UL << 20 };

			if (setrlimit(RLIMIT_AS, &rl) == 0 &&
			    mmap(NULL, 1UL << 30, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0) == MAP_FAILED &&
			    errno == ENOMEM)
				(*failed)++;
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		p = mmap(NULL, 2 * JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
		if (p != MAP_FAILED) {
			mprotect(p, JS_PAGE, PROT_READ | PROT_WRITE);
			mprotect(p, JS_PAGE, PROT_READ | PROT_EXEC);
			munmap(p + JS_PAGE, JS_PAGE);
			munmap(p, JS_PAGE);
		}
		h = dlopen(lib, RTLD_NOW);
		if (h)
			dlclose(h);
		(*iters)++;
	}
}

static int rmmod_retry(int tries, int *refused)
{
	*refused = 0;
	while (tries-- > 0) {
		if (syscall(SYS_delete_module, "jmmap", O_NONBLOCK) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return errno;
		(*refused)++;
		usleep(10000);
	}
	return EWOULDBLOCK;
}

static int open_retry(void)
{
	int i, fd = -1;

	for (i = 0; i < 200 && fd < 0; i++) {
		fd = js_open(0, 0);
		if (fd < 0)
			usleep(10000);
	}
	return fd;
}

int main(void)
{
	const char *ko = getenv("JMMAP_KO"), *secs_env = getenv("JMMAP_STRESS_SECONDS");
	const char *rl = getenv("JMMAP_STRESS_RELOADS");
	int reload_under_load = !rl || strcmp(rl, "0");
	double secs = secs_env ? atof(secs_env) : 30, end;
	volatile unsigned long *iters;
	unsigned long total = 0, records = 0, failed = 0;
	int cycles = 0, reloads = 0, refused_total = 0, errors = 0, i, e, refused;
	int refused_open = 0, open_checks = 0;
	char self[256], lib[512];
	pid_t pids[WORKERS];
	unsigned long taint = 0;
	ssize_t n;
	FILE *f;

	ktap_begin();
	if (!ko || access(ko, R_OK))
		ktap_skip_all("JMMAP_KO is not set or not readable");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("no /proc/self/exe");
	self[n] = 0;
	snprintf(lib, sizeof(lib), "%s/libjm_a.so", dirname(self));
	iters = mmap(NULL, JS_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (iters == MAP_FAILED)
		ktap_skip_all("mmap failed");

	for (i = 0; i < WORKERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			worker(lib, &iters[i], &iters[WORKERS + i]);
	}

	/*
	 * At least five session cycles, so that the module is unloaded under
	 * load at least once, however slowly sessions arm and disarm the hooks
	 * (registering kprobes waits for RCU, slow on an emulated RT kernel
	 * under load), within two minutes more than asked.
	 */
	end = now_s() + secs;
	while (now_s() < end || (cycles < 5 && now_s() < end + 120)) {
		struct js_records r = { 0 };
		int sys = open_retry(), one = open_retry();
		double until;

		if (sys < 0 || one < 0 || js_add(sys, 0, JMMAP_TARGET_SYSTEM_WIDE) ||
		    js_add(one, pids[cycles % WORKERS], 0)) {
			errors++;
		}
		if (cycles % 5 == 0) {
			/* A session is open: unloading must be refused. */
			open_checks++;
			if (syscall(SYS_delete_module, "jmmap", O_NONBLOCK) == -1 &&
			    errno == EWOULDBLOCK)
				refused_open++;
		}
		/* Read for 0.2 s once both are open: the first open arms the hooks. */
		until = now_s() + 0.2;
		while (now_s() < until) {
			struct pollfd pfd = { .fd = sys, .events = POLLIN };

			poll(&pfd, 1, 20);
			js_drain(sys, &r);
			js_drain(one, &r);
			records += r.count;
			errors += r.framing_errors;
			js_free(&r);
		}
		if (sys >= 0)
			close(sys);
		if (one >= 0)
			close(one);
		cycles++;
		if (reload_under_load && cycles % 5 == 0) {
			/* Unload under load, right after the sessions closed. */
			e = rmmod_retry(500, &refused);
			refused_total += refused;
			if (e == 0) {
				reloads++;
				e = insmod(ko);
			}
			if (e) {
				ktap_diag("unload/reload under load: %s", strerror(e));
				errors++;
			}
		}
	}
	for (i = 0; i < WORKERS; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
		total += iters[i];
		failed += iters[WORKERS + i];
	}
	while (wait(NULL) > 0)
		;

	ktap_ok(total > 0 && records > 0,
		"stress_ran: %lu worker iterations, %d session cycles, %lu records read", total,
		cycles, records);
	ktap_ok(failed > 0,
		"failed_calls_left_entries: %lu mmaps failed after the hook (RLIMIT_AS) in tasks "
		"that then exited under load",
		failed);
	ktap_ok(errors == 0, "stress_sessions_clean: no open/add/framing/reload error (%d)", errors);
	ktap_ok(open_checks > 0 && refused_open == open_checks,
		"rmmod_refused_with_session_open: %d of %d attempts under load refused", refused_open,
		open_checks);
	if (reload_under_load)
		ktap_ok(reloads > 0,
			"unload_under_load: %d unload+load cycles while workers ran "
			"(%d refusals while work was pinned)",
			reloads, refused_total);
	else
		ktap_skip("JMMAP_STRESS_RELOADS=0 (see the comment at the top)",
			  "unload_under_load");
	e = rmmod_retry(500, &refused);
	ktap_ok(e == 0, "rmmod_after_stress: %s", e ? strerror(e) : "unloaded");
	e = e ? e : insmod(ko);
	ktap_ok(e == 0, "insmod_after_stress: %s", e ? strerror(e) : "loaded");
	f = fopen("/proc/sys/kernel/tainted", "r");
	if (f) {
		if (fscanf(f, "%lu", &taint) != 1)
			taint = ~0UL;
		fclose(f);
	}
	ktap_ok(!(taint & ((1UL << 5) | (1UL << 7) | (1UL << 9) | (1UL << 14))),
		"kernel_not_tainted_by_warning: tainted = %lu", taint);
	return ktap_finish();
}
