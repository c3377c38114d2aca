// SPDX-License-Identifier: GPL-2.0
/*
 * The process tree: a traced process forks and the child execs; the session
 * shows FORK and EXEC (with the executable's cookie) for the child, then
 * the child's MMAP3 records, the executable and interpreter by the ELF
 * loader (cause exec) and libc by the interpreter (cause mmap), then EXIT.
 * A process that is not traced yields nothing. When a process with many
 * threads calls exit_group(), each thread's EXIT arrives.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "cookie.h"
#include "jsession.h"

static void *thread_fn(void *arg)
{
	return arg;
}

static int contains(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/* exit_group() of a process whose threads all block: one EXIT per thread. */
#define GROUP_THREADS 8
#define GROUP_ROUNDS 30

static void *block_fn(void *arg)
{
	pid_t tid = gettid();

	if (write((int)(intptr_t)arg, &tid, sizeof(tid)) != sizeof(tid))
		_exit(3);
	for (;;)
		pause();
	return NULL;
}

/* The child: its threads send their tids to @tids, block, and exit_group when told. */
static void group_child(int go, int tids, void *arg)
{
	pid_t self = getpid();
	pthread_t t;
	char c;
	int i;

	for (i = 0; i < GROUP_THREADS; i++)
		if (pthread_create(&t, NULL, block_fn, (void *)(intptr_t)tids))
			_exit(2);
	if (write(tids, &self, sizeof(self)) != sizeof(self) || read(go, &c, 1) != 1)
		_exit(3);
	_exit(0); /* exit_group(): every thread exits at once */
}

/* A child with GROUP_THREADS threads; each thread's tid goes to @tids[]. */
static pid_t group_start(pid_t tids[GROUP_THREADS + 1], int *go_out)
{
	int tp = -1, i = 0;
	pid_t pid = js_fork_served(group_child, NULL, go_out, &tp);

	for (; pid > 0 && i <= GROUP_THREADS; i++)
		if (read(tp, &tids[i], sizeof(tids[i])) != sizeof(tids[i]))
			break;
	close(tp);
	return i == GROUP_THREADS + 1 ? pid : -1;
}

/* Rounds in which the session got exactly one EXIT for each of the threads. */
static int group_exit_rounds(int fd, int *flagless_ok)
{
	pid_t tids[GROUP_THREADS + 1], pid;
	int round, good = 0, i, go;

	*flagless_ok = 1;
	for (round = 0; round < GROUP_ROUNDS; round++) {
		struct js_records r = { 0 };
		int seen[GROUP_THREADS + 1] = { 0 }, others = 0, flagless = 0, ok = 1;

		pid = group_start(tids, &go);
		if (pid < 0)
			break;
		usleep(20000); /* let them all reach pause() */
		if (write(go, "g", 1) != 1)
			ktap_diag("could not tell the child to exit");
		close(go);
		waitpid(pid, NULL, 0);
		js_drain(fd, &r);
		js_for_each(&r, h) {
			const struct jmmap_rec_exit *x = (const void *)h;

			if (h->type != JMMAP_REC_EXIT || x->pid != (uint32_t)pid)
				continue;
			flagless += !(h->flags & JMMAP_EXIT_THREAD);
			for (i = 0; i <= GROUP_THREADS; i++)
				if (x->tid == (uint32_t)tids[i])
					break;
			if (i <= GROUP_THREADS)
				seen[i]++;
			else
				others++;
		}
		for (i = 0; i <= GROUP_THREADS; i++)
			if (seen[i] != 1)
				ok = 0;
		if (!ok || others)
			ktap_diag("round %d: pid %d, %d EXIT records of other tids; per thread:",
				  round, pid, others);
		for (i = 0; (!ok || others) && i <= GROUP_THREADS; i++)
			ktap_diag("  tid %d: %d EXIT", tids[i], seen[i]);
		if (!flagless)
			*flagless_ok = 0;
		good += ok && !others;
		js_free(&r);
	}
	return good;
}

/*
 * A process outside the session's tree that forks on request: for each byte
 * read, a child that maps a code page and exits; its pid is written back.
 */
static void forker_child(int req, int ans, void *arg)
{
	pid_t child;
	char c;

	while (read(req, &c, 1) == 1) {
		child = fork();
		if (child == 0)
			_exit(mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0) == MAP_FAILED);
		waitpid(child, NULL, 0);
		if (write(ans, &child, sizeof(child)) != sizeof(child))
			break;
	}
}

/* Have the forker's next child get @pid (ns_last_pid); its pid, or -1. */
static pid_t forker_reuse(int req, int ans, pid_t pid)
{
	pid_t got = -1;
	int tries;
	FILE *f;

	for (tries = 0; tries < 5 && got != pid; tries++) {
		f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		if (!f)
			return -1;
		fprintf(f, "%d", pid - 1);
		if (fclose(f) || write(req, "f", 1) != 1 ||
		    read(ans, &got, sizeof(got)) != sizeof(got))
			return -1;
	}
	return got;
}

int main(int argc, char **argv)
{
	struct js_records r = { 0 };
	struct jrec_cookie uc;
	char self[256], uhex[64], hex[64];
	int fd, st, go[2], i;
	pid_t child, outsider;
	ssize_t n;
	char c;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0; /* the exec'ed child: its mappings are what is checked */
	if (argc > 1 && !strcmp(argv[1], "outsider")) {
		void *p = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		return p == MAP_FAILED;
	}

	ktap_begin();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("no /proc/self/exe");
	self[n] = 0;

	/* Started before the session: not a descendant of a target. */
	if (pipe(go))
		ktap_skip_all("pipe failed");
	outsider = fork();
	if (outsider == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		execl(self, self, "outsider", (char *)NULL);
		_exit(127);
	}
	close(go[0]);

	fd = js_open_self(0, 0);
	child = fork();
	if (child == 0) {
		execl(self, self, "child", (char *)NULL);
		_exit(127);
	}
	if (write(go[1], "g", 1) != 1)
		ktap_diag("could not start the outsider");
	close(go[1]);
	waitpid(child, &st, 0);
	waitpid(outsider, NULL, 0);
	ktap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child_ran: the child exec'ed and exited 0");
	for (i = 0; i < 50; i++) { /* EXIT is emitted as the child dies */
		js_drain(fd, &r);
		usleep(10000);
	}

	{
		int fork_i = -1, exec_i = -1, exit_i = -1, exe_map = -1, ld_map = -1, libc_map = -1;
		int first_child = -1, idx = 0, outsider_recs = 0, exec_before_maps = 1;
		uint64_t exec_time = 0, min_exec_map_time = UINT64_MAX;
		const struct jmmap_rec_exec *ex = NULL;

		js_for_each(&r, h) {
			const struct jmmap_rec_mmap3 *m = (const void *)h;
			const struct jmmap_rec_fork *f = (const void *)h;
			const struct jmmap_rec_exit *e = (const void *)h;
			uint32_t pid = h->type == JMMAP_REC_FORK ? f->pid : m->pid;

			if (h->type == JMMAP_REC_LOST) {
				idx++;
				continue;
			}
			if (pid == (uint32_t)outsider)
				outsider_recs++;
			if (pid != (uint32_t)child) {
				idx++;
				continue;
			}
			if (first_child < 0)
				first_child = idx;
			if (h->type == JMMAP_REC_FORK && f->ppid == (uint32_t)getpid() &&
			    !(h->flags & JMMAP_FORK_THREAD))
				fork_i = idx;
			if (h->type == JMMAP_REC_EXEC) {
				exec_i = idx;
				ex = (const void *)h;
				exec_time = ex->time;
			}
			if (h->type == JMMAP_REC_EXIT && !(h->flags & JMMAP_EXIT_THREAD) &&
			    e->pid == (uint32_t)child)
				exit_i = idx;
			if (h->type == JMMAP_REC_MMAP3) {
				if (m->cause == JMMAP_CAUSE_EXEC) {
					if (exec_i < 0)
						exec_before_maps = 0;
					if (m->time < min_exec_map_time)
						min_exec_map_time = m->time;
					if (!strcmp(js_mmap3_name(m), self))
						exe_map = idx;
					if (contains(js_mmap3_name(m), "ld-linux"))
						ld_map = idx;
				}
				if (m->cause == JMMAP_CAUSE_MMAP &&
				    contains(js_mmap3_name(m), "libc.so"))
					libc_map = idx;
			}
			idx++;
		}
		ktap_ok(fork_i >= 0 && fork_i == first_child,
			"fork_record_first: FORK of the child (ppid %d) is its first record",
			getpid());
		ktap_ok(exec_i > fork_i && ex && !strcmp(js_exec_name(ex), self),
			"exec_record: EXEC of the child names %s", ex ? js_exec_name(ex) : "-");
		jrec_cookie_from_path(self, &uc);
		jrec_cookie_hex(&uc, uhex);
		if (ex)
			js_hex(ex->cookie, ex->cookie_len, hex);
		ktap_ok(ex && ex->cookie_kind == JMMAP_COOKIE_ELF_BUILD_ID && !strcmp(hex, uhex),
			"exec_cookie: EXEC carries the executable's build-id %s (userspace %s)",
			ex ? hex : "-", uhex);
		ktap_ok(exe_map > exec_i && ld_map > exec_i && exec_before_maps,
			"loader_maps_after_exec: executable and interpreter MMAP3 (cause exec) follow EXEC");
		ktap_ok(exec_time && exec_time <= min_exec_map_time,
			"exec_time_orders_first: EXEC's time is not after the loader's mappings");
		ktap_ok(libc_map > ld_map, "libc_mapped_by_interpreter: libc MMAP3 (cause mmap) follows");
		ktap_ok(exit_i > libc_map, "exit_record_last: EXIT of the child comes after its mappings");
		ktap_ok(outsider_recs == 0,
			"untraced_process_silent: no record about a process outside the tree (%d)",
			outsider_recs);
		if (fork_i < 0 || exec_i < 0 || exe_map < 0 || ld_map < 0 || libc_map < 0 ||
		    exit_i < 0)
			js_dump(&r, child);
	}
	js_free(&r);

	/* A thread: FORK and EXIT flagged as a thread's, in the same process. */
	{
		pthread_t t;
		int fork_ok = 0, exit_ok = 0;

		if (pthread_create(&t, NULL, thread_fn, NULL) == 0)
			pthread_join(t, NULL);
		for (i = 0; i < 20; i++) {
			js_drain(fd, &r);
			usleep(10000);
		}
		js_for_each(&r, h) {
			const struct jmmap_rec_fork *f = (const void *)h;
			const struct jmmap_rec_exit *x = (const void *)h;

			if (h->type == JMMAP_REC_FORK && (h->flags & JMMAP_FORK_THREAD) &&
			    f->pid == (uint32_t)getpid() && f->tid != f->pid)
				fork_ok = 1;
			if (h->type == JMMAP_REC_EXIT && (h->flags & JMMAP_EXIT_THREAD) &&
			    x->pid == (uint32_t)getpid() && x->tid != x->pid)
				exit_ok = 1;
		}
		ktap_ok(fork_ok, "thread_fork_flagged: FORK of a new thread has JMMAP_FORK_THREAD");
		ktap_ok(exit_ok, "thread_exit_flagged: its EXIT has JMMAP_EXIT_THREAD");
		js_free(&r);
	}

	/* Threads exiting together: none of their EXIT records is lost. */
	{
		int flagless_ok, good;

		js_drain(fd, &r);
		js_free(&r);
		good = group_exit_rounds(fd, &flagless_ok);
		ktap_ok(good == GROUP_ROUNDS,
			"exit_group_every_thread: %d of %d rounds had one EXIT for each of the %d threads",
			good, GROUP_ROUNDS, GROUP_THREADS + 1);
		ktap_ok(flagless_ok,
			"exit_group_process_exit: every round had an EXIT without JMMAP_EXIT_THREAD");
	}

	/*
	 * The pid of a followed process that exited, reused by a process
	 * outside the tree (the forker, started before this session): the
	 * session must not follow the newcomer.
	 */
	{
		int req = -1, ans = -1, later, recs = 0;
		pid_t forker = js_fork_served(forker_child, NULL, &req, &ans), gone, again = -1;

		later = js_open_self(0, 0);
		gone = fork();
		if (gone == 0)
			_exit(0);
		waitpid(gone, NULL, 0);
		js_drain(later, &r); /* its FORK and EXIT */
		js_free(&r);
		if (forker > 0)
			again = forker_reuse(req, ans, gone);
		js_drain(later, &r);
		js_for_each(&r, h) {
			const struct jmmap_rec_exit *x = (const void *)h; /* pid: same place in all */

			if (h->type != JMMAP_REC_LOST && x->pid == (uint32_t)gone)
				recs++;
		}
		if (again == gone)
			ktap_ok(recs == 0,
				"reused_pid_not_followed: pid %d of an exited child, reused outside the tree: %d records",
				gone, recs);
		else
			ktap_skip("could not have the pid reused", "reused_pid_not_followed");
		if (recs)
			js_dump(&r, gone);
		js_free(&r);
		close(req);
		close(ans);
		waitpid(forker, NULL, 0);
		close(later);
	}
	close(fd);
	return ktap_finish();
}
