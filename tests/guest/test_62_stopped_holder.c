// SPDX-License-Identifier: GPL-2.0
/*
 * A task holds its pending records, and the batch they wait in, until it
 * returns to user space, which it can put off inside a system call (here a
 * userfaultfd remap event that nobody reads: mremap() waits for it after
 * the move; a ptrace stop does not hold them, the kernel runs task_work
 * before it stops). Such tasks must not take what other processes need,
 * and nothing may be lost uncounted:
 *
 *  - one mprotect(PROT_EXEC) over NVMAS file vmas holds no more than a
 *    task's share of the pending records (JMMAP_PENDING_PER_TASK): the
 *    rest are counted lost;
 *  - NTHREADS threads blocked in mremap() with a record pending each hold
 *    more batches than the pool has: another process, followed by another
 *    session, then maps an ELF file executable NMAPS times, and each MMAP3
 *    comes out named with a cookie or is counted LOST, never finished
 *    without its file's name and cookie ("//unknown").
 */
#include <dirent.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "jsession.h"

#define NVMAS 600
#define PENDING_PER_TASK 256 /* the module's share, mmap3.rst */
#define NTHREADS 1100
#define NMAPS 64
#define THREAD_STACK (64 * 1024)

static const char *file_path = "/tmp/test_62_vmas";

struct child_arg {
	uint8_t *from, *to;
};

/* Move a registered page; the remap event is never read: blocks in mremap(). */
static void *thread_fn(void *arg)
{
	struct child_arg *a = arg;

	mremap(a->from, JS_PAGE, JS_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, a->to);
	for (;;)
		pause();
	return NULL;
}

/*
 * The child: NTHREADS threads, each blocked in an mremap() of its own page
 * of a region registered with a userfaultfd that reports remaps; writes a
 * byte to @ready once all are started, then waits to be killed.
 */
static int child_run(int ready)
{
	static pthread_t tids[NTHREADS];
	static struct child_arg args[NTHREADS];
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_EVENT_REMAP };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	size_t len = 2 * NTHREADS * JS_PAGE;
	pthread_attr_t attr;
	uint8_t *base;
	int uffd, i;

	uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return 4;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return 3;
	reg.range.start = (uintptr_t)base;
	reg.range.len = NTHREADS * JS_PAGE;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return 3;
	pthread_attr_init(&attr);
	for (i = 0; i < NTHREADS; i++) {
		void *stack = mmap(NULL, THREAD_STACK, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		args[i].from = base + (size_t)i * JS_PAGE;
		args[i].to = base + (size_t)(NTHREADS + i) * JS_PAGE;
		if (stack == MAP_FAILED || pthread_attr_setstack(&attr, stack, THREAD_STACK) ||
		    pthread_create(&tids[i], &attr, thread_fn, &args[i]))
			return 3;
	}
	if (write(ready, "r", 1) != 1)
		return 3;
	for (;;)
		pause();
}

/* How many threads of @pid are inside mremap() now. */
static int in_mremap(pid_t pid)
{
	char path[320], line[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/syscall", (int)pid, d->d_name);
		f = fopen(path, "re");
		if (f && fgets(line, sizeof(line), f) && atoi(line) == __NR_mremap)
			n++;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

struct mapped {
	int named, unknown, other;
	uint64_t lost;
};

/*
 * Map this program's file executable NMAPS times; what session @fd got of
 * it: MMAP3s with its name and a cookie, "//unknown" ones, other names,
 * MMAP3s counted lost.
 */
static void map_self(int fd, const char *self, struct mapped *m)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records r = { 0 };
	int f = open(self, O_RDONLY | O_CLOEXEC), i;

	memset(m, 0, sizeof(*m));
	js_drain(fd, &r);
	js_free(&r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	m->lost = st.lost[JMMAP_REC_MMAP3];
	for (i = 0; f >= 0 && i < NMAPS; i++) {
		void *p = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, f, 0);

		if (p != MAP_FAILED)
			munmap(p, JS_PAGE);
	}
	if (f >= 0)
		close(f);
	js_drain(fd, &r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	m->lost = st.lost[JMMAP_REC_MMAP3] - m->lost;
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *mm = (const void *)h;

		if (h->type != JMMAP_REC_MMAP3 || mm->pid != (uint32_t)getpid() ||
		    !(mm->prot & PROT_EXEC))
			continue;
		if (!strcmp(js_mmap3_name(mm), self) && mm->cookie_kind != JMMAP_COOKIE_NONE)
			m->named++;
		else if (!strcmp(js_mmap3_name(mm), "//unknown"))
			m->unknown++;
		else
			m->other++;
	}
	js_free(&r);
}

/*
 * One mprotect(PROT_EXEC) over NVMAS vmas of a file (every other page
 * mapped read-write before, so that none merge): its MMAP3s given out and
 * counted lost in session @fd.
 */
static int one_call(int fd, int *given, uint64_t *lost)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records r = { 0 };
	uint8_t *base;
	uint64_t lost0;
	int f, i, err = -1;

	f = open(file_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (f < 0 || ftruncate(f, NVMAS * JS_PAGE))
		return -1;
	base = mmap(NULL, NVMAS * JS_PAGE, PROT_READ, MAP_PRIVATE, f, 0);
	close(f);
	if (base == MAP_FAILED)
		return -1;
	for (i = 1; i < NVMAS; i += 2)
		if (mprotect(base + i * JS_PAGE, JS_PAGE, PROT_READ | PROT_WRITE))
			goto out;
	js_drain(fd, &r);
	js_free(&r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	lost0 = st.lost[JMMAP_REC_MMAP3];
	if (mprotect(base, NVMAS * JS_PAGE, PROT_READ | PROT_EXEC))
		goto out;
	js_drain(fd, &r);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	*lost = st.lost[JMMAP_REC_MMAP3] - lost0;
	*given = 0;
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *mm = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && mm->pid == (uint32_t)getpid() &&
		    mm->cause == JMMAP_CAUSE_MPROTECT && (uintptr_t)mm->start >= (uintptr_t)base &&
		    (uintptr_t)mm->start < (uintptr_t)base + NVMAS * JS_PAGE)
			(*given)++;
	}
	js_free(&r);
	err = 0;
out:
	munmap(base, NVMAS * JS_PAGE);
	unlink(file_path);
	return err;
}

int main(void)
{
	struct mapped m;
	char self[256], c;
	int fd, child_fd, given, pipefd[2], held = 0, i, st;
	uint64_t lost;
	ssize_t n;
	pid_t child;

	ktap_begin();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("cannot read /proc/self/exe");
	self[n] = 0;
	fd = js_open_self(4 << 20, 0);

	if (one_call(fd, &given, &lost))
		ktap_skip_all("cannot make the file vmas");
	ktap_ok(given <= PENDING_PER_TASK && given + lost == NVMAS,
		"one_call_holds_its_share: one mprotect(PROT_EXEC) over %d file vmas gives %d "
		"MMAP3 (at most %d) and counts %llu lost",
		NVMAS, given, PENDING_PER_TASK, (unsigned long long)lost);

	/* More tasks blocked with a record pending than there are batches. */
	if (pipe(pipefd))
		ktap_skip_all("pipe");
	child = fork();
	if (child == 0) {
		close(pipefd[0]);
		_exit(child_run(pipefd[1]));
	}
	close(pipefd[1]);
	child_fd = js_open(0, 0);
	if (child_fd < 0 || js_add(child_fd, child, JMMAP_TARGET_NO_SNAPSHOT)) {
		kill(child, SIGKILL);
		ktap_skip_all("cannot follow the child");
	}
	if (read(pipefd[0], &c, 1) != 1) {
		waitpid(child, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
			ktap_skip_all("no userfaultfd with remap events");
		ktap_skip_all("the child could not start its threads");
	}
	for (i = 0; i < 600 && (held = in_mremap(child)) < NTHREADS; i++)
		usleep(100000);
	map_self(fd, self, &m);
	ktap_ok(held == NTHREADS && m.named + m.lost == NMAPS && !m.unknown && !m.other,
		"no_batch_counted_lost: while %d threads are blocked in mremap() with a record "
		"pending, another process's %d executable mappings give %d MMAP3 named with a "
		"cookie and %llu counted lost, %d //unknown, %d other (blocked: %d)",
		NTHREADS, NMAPS, m.named, (unsigned long long)m.lost, m.unknown, m.other, held);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	close(child_fd);
	close(fd);
	return ktap_finish();
}
