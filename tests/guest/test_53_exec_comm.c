// SPDX-License-Identifier: GPL-2.0
/*
 * The exec probe copies the new program's name without taking task_lock,
 * which sleeps on PREEMPT_RT while the probe runs with preemption disabled.
 * A followed child execs itself over and over (on PREEMPT_RT, where the race
 * shows, up to EXECS times for at most EXEC_SECONDS: an exec is slow on an
 * emulated RT guest, about 0.09 s; elsewhere a short chain, EXECS_SHORT in
 * SHORT_SECONDS, checks the counting and the name) while threads
 * of the parent read its /proc/PID/comm and /proc/PID/stat in a loop (both
 * take the child's task_lock); every exec must be counted, as an EXEC
 * record or a lost one, with the child's name, and the console must stay
 * clean (on RT: no "BUG: scheduling while atomic"; the suite checks it).
 *
 * Calibration, on the 6.12-rt guest under TCG with the old bug put back
 * (get_task_comm() in probe_exec, each exec marked on the console): 1360
 * execs in 150 s showed nothing. The waiter spins while the lock's holder
 * is on a CPU, and sleeps (the bug) only when the holder was preempted
 * inside its few instructions under the lock; with a SCHED_FIFO thread
 * preempting the readers every 1.5 ms, the BUG showed at exec 935 in one
 * run and not in 1500 in another. So no run of a size this suite can
 * afford is sure to catch it: qemu/guest-suite checks the module object
 * instead (no hook reaches __get_task_comm or an rt_* lock; it names
 * "probe_exec > __get_task_comm" in the module with the bug), and on RT
 * this test runs EXECS execs in at most EXEC_SECONDS (about 25 s there):
 * a chance at the race, and the counting and names under it.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "jsession.h"

#define EXECS 300
#define EXEC_SECONDS 40
#define EXECS_SHORT 200
#define SHORT_SECONDS 30
#define CHAIN_ARG "--exec-chain"

static volatile int done;

/* Read @arg ("/proc/PID/comm" or ".../stat") until told to stop. */
static void *reader_fn(void *arg)
{
	char buf[1024];
	long reads = 0;
	int f = open(arg, O_RDONLY | O_CLOEXEC);

	while (f >= 0 && !done) {
		if (pread(f, buf, sizeof(buf), 0) < 0)
			break;
		reads++;
	}
	if (f >= 0)
		close(f);
	return (void *)reads;
}

static long long now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * The child: exec this program (@path, absolute, so that its name is the
 * program's and not "exe") again @n more times, or until the monotonic
 * clock reaches @deadline, then exit 0. Each exec'd image writes a byte to
 * @count_fd first: the parent counts the execs that happened.
 */
static int exec_chain(const char *path, int n, long long deadline, int count_fd)
{
	char next[16], until[24], fd[16];

	if (n <= 0 || now_s() >= deadline)
		return 0;
	snprintf(next, sizeof(next), "%d", n - 1);
	snprintf(until, sizeof(until), "%lld", deadline);
	snprintf(fd, sizeof(fd), "%d", count_fd);
	execl(path, path, CHAIN_ARG, next, until, fd, (char *)NULL);
	return 2;
}

int main(int argc, char **argv)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	char comm_path[64], stat_path[64], self[256];
	struct js_records r = { 0 };
	pthread_t readers[2];
	void *reads[2] = { 0, 0 };
	int fd, status = -1, nexec = 0, named = 0, execs = 0, go[2], count[2];
	int max_execs = EXECS_SHORT, max_secs = SHORT_SECONDS;
	struct utsname u;
	uint64_t counted;
	ssize_t n;
	pid_t child;
	char c;

	if (argc == 5 && !strcmp(argv[1], CHAIN_ARG)) {
		if (write(atoi(argv[4]), "x", 1) != 1)
			return 3;
		return exec_chain(argv[0], atoi(argv[2]), atoll(argv[3]), atoi(argv[4]));
	}

	ktap_begin();
	if (!uname(&u) && strstr(u.version, "PREEMPT_RT")) {
		max_execs = EXECS;
		max_secs = EXEC_SECONDS;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("cannot read /proc/self/exe");
	self[n] = 0;
	fd = js_open_self(0, 0);
	if (pipe(go) || pipe(count))
		ktap_skip_all("pipe");
	child = fork();
	if (child == 0) {
		close(go[1]);
		close(count[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(exec_chain(self, max_execs, now_s() + max_secs, count[1]));
	}
	close(go[0]);
	close(count[1]);
	snprintf(comm_path, sizeof(comm_path), "/proc/%d/comm", (int)child);
	snprintf(stat_path, sizeof(stat_path), "/proc/%d/stat", (int)child);
	pthread_create(&readers[0], NULL, reader_fn, comm_path);
	pthread_create(&readers[1], NULL, reader_fn, stat_path);
	if (write(go[1], "g", 1) != 1)
		ktap_skip_all("cannot start the child");
	close(go[1]);
	/* Keep the ring from filling while the child runs. */
	while (waitpid(child, &status, WNOHANG) == 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		poll(&pfd, 1, 100);
		js_drain(fd, &r);
	}
	done = 1;
	while (read(count[0], &c, 1) == 1)
		execs++;
	pthread_join(readers[0], &reads[0]);
	pthread_join(readers[1], &reads[1]);
	js_drain(fd, &r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);

	js_for_each(&r, h) {
		const struct jmmap_rec_exec *e = (const void *)h;

		if (h->type != JMMAP_REC_EXEC || e->pid != (uint32_t)child)
			continue;
		nexec++;
		named += !strncmp(e->comm, "test_53_exec_co", sizeof(e->comm));
	}
	counted = (uint64_t)nexec + st.lost[JMMAP_REC_EXEC];
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && execs > 0,
		"exec_chain_done: the child exec'd itself %d times (at most %d, %d s; status %#x) "
		"while %ld and %ld reads of its comm and stat ran", execs, max_execs, max_secs,
		status, (long)reads[0], (long)reads[1]);
	ktap_ok(counted == (uint64_t)execs && named == nexec,
		"every_exec_counted: %d EXEC records (%d with the program's name) + %llu lost = %d "
		"execs", nexec, named, (unsigned long long)st.lost[JMMAP_REC_EXEC], execs);
	js_free(&r);
	close(fd);
	return ktap_finish();
}
