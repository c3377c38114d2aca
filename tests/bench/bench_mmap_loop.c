// SPDX-License-Identifier: GPL-2.0
/*
 * bench_mmap_loop: the mapping pattern of a JIT that commits code one page at
 * a time. N iterations of: mmap one page read-write, write a tiny function
 * into it (mov eax, imm32; ret), mprotect it read-execute, call it, munmap.
 * Prints the mean wall time of one iteration in microseconds
 * (CLOCK_MONOTONIC), after a short unmeasured warm-up, then the median of
 * the iterations' own times: on a shared host, the time a virtual CPU spends
 * preempted lands in a few iterations, which move the mean, not the median.
 *
 *   bench_mmap_loop N [--jmmap-session] [--settle MS]
 *
 * prints "MEAN MEDIAN", both in microseconds. With --jmmap-session it opens a
 * jmmap session of its own first (itself as target, no snapshot, woken at a
 * quarter of the ring as jrec asks) and drains
 * the records from a second thread, as a recorder would, with no perf
 * events: what the module costs without a recorder's other work. With
 * --settle it sleeps MS milliseconds first, so that a recorder that started
 * it has done its own start-up work (reading the mapped files, its first
 * records) before the loop is timed: the loop's steady cost. The timed
 * loop runs between profile_window_open() and profile_window_close(),
 * which scripts/guest-profile's instruction counter knows.
 *
 * Exit 0, or 1 with a message when a call fails or the code returns the
 * wrong value.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "jmmap.h"

#define BENCH_PAGE   4096UL
#define BENCH_WARMUP 50

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The profiling window around the timed loop: each runs one instruction
 * that scripts/guest-profile's instruction counter (qemu/profile/
 * insn-window.c) knows by its immediate, "JMPROF<<" and "JMPROF>>"; rax is
 * clobbered, nothing else changes. Anywhere else they cost one instruction.
 */
static __attribute__((noinline)) void profile_window_open(void)
{
	__asm__ volatile("movabs $0x3c3c464f52504d4a, %%rax" ::: "rax", "memory");
}

static __attribute__((noinline)) void profile_window_close(void)
{
	__asm__ volatile("movabs $0x3e3e464f52504d4a, %%rax" ::: "rax", "memory");
}

/* mov eax, value; ret */
static void write_code(uint8_t *p, uint32_t value)
{
	p[0] = 0xb8;
	memcpy(p + 1, &value, 4);
	p[5] = 0xc3;
}

/* One iteration; 0 or a negative errno. */
static int one(uint32_t value)
{
	uint32_t (*fn)(void);
	void *page;
	int err = 0;

	page = mmap(NULL, BENCH_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -errno;
	write_code(page, value);
	if (mprotect(page, BENCH_PAGE, PROT_READ | PROT_EXEC)) {
		err = -errno;
		goto out_unmap;
	}
	fn = (uint32_t(*)(void))page;
	if (fn() != value)
		err = -EPROTO;
out_unmap:
	if (munmap(page, BENCH_PAGE) && !err)
		err = -errno;
	return err;
}

/* N iterations; each one's time in ns into T[] when T is not NULL. */
static int loop(unsigned long n, uint64_t *t)
{
	for (unsigned long i = 0; i < n; i++) {
		uint64_t t0 = t ? mono_ns() : 0;
		int err = one((uint32_t)(i * 2654435761u));

		if (err)
			return err;
		if (t)
			t[i] = mono_ns() - t0;
	}
	return 0;
}

/* A jmmap session on this process, drained by a thread. */
struct drain {
	int fd;
	pthread_t thread;
	atomic_bool stop;
	uint64_t bytes;
};

static void drain_read(struct drain *d)
{
	static uint8_t buf[64 * 1024];
	ssize_t n;

	while ((n = read(d->fd, buf, sizeof(buf))) > 0)
		d->bytes += (uint64_t)n;
}

static void *drain_thread(void *arg)
{
	struct drain *d = arg;

	/* As jrec reads: woken at a quarter of the ring, else every 10 ms. */
	while (!atomic_load(&d->stop)) {
		struct pollfd p = {.fd = d->fd, .events = POLLIN};

		poll(&p, 1, 10);
		drain_read(d);
	}
	return NULL;
}

/* 0 or a negative errno. */
static int drain_start(struct drain *d)
{
	struct jmmap_target t = {.size = sizeof(t), .flags = JMMAP_TARGET_NO_SNAPSHOT};
	struct jmmap_config cfg = {.size = sizeof(cfg), .wakeup_bytes = 256 * 1024};
	int err;

	d->fd = open("/dev/" JMMAP_DEVICE_NAME, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	t.pid = (uint32_t)getpid();
	if (ioctl(d->fd, JMMAP_IOC_CONFIG, &cfg) || ioctl(d->fd, JMMAP_IOC_ADD_TARGET, &t)) {
		err = -errno;
		goto out_close;
	}
	atomic_init(&d->stop, false);
	err = -pthread_create(&d->thread, NULL, drain_thread, d);
	if (err)
		goto out_close;
	return 0;

out_close:
	close(d->fd);
	return err;
}

/* The bytes of records read in all. */
static uint64_t drain_stop(struct drain *d)
{
	atomic_store(&d->stop, true);
	pthread_join(d->thread, NULL);
	drain_read(d);
	close(d->fd);
	return d->bytes;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct drain d = {.fd = -1};
	bool session = false;
	unsigned long n, settle_ms = 0;
	uint64_t t0 = 0, t1 = 0, *t;
	double median;
	char *end;
	int err;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--jmmap-session")) {
			session = true;
		} else if (!strcmp(argv[i], "--settle") && i + 1 < argc) {
			errno = 0;
			settle_ms = strtoul(argv[++i], &end, 10);
			if (errno || *end || settle_ms > 60000) {
				fprintf(stderr, "bench_mmap_loop: --settle takes 0 to 60000 ms, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: %s N [--jmmap-session] [--settle MS]\n", argv[0]);
			return 2;
		}
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s N [--jmmap-session] [--settle MS]\n", argv[0]);
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || !n) {
		fprintf(stderr, "bench_mmap_loop: N must be a positive number, not '%s'\n",
			argv[1]);
		return 2;
	}
	t = calloc(n, sizeof(*t));
	if (!t) {
		fprintf(stderr, "bench_mmap_loop: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (session) {
		err = drain_start(&d);
		if (err) {
			fprintf(stderr, "bench_mmap_loop: a jmmap session: %s\n", strerror(-err));
			free(t);
			return 1;
		}
	}
	if (settle_ms) {
		struct timespec ts = {(time_t)(settle_ms / 1000), (long)(settle_ms % 1000) * 1000000L};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	err = loop(BENCH_WARMUP, NULL);
	if (!err) {
		profile_window_open();
		t0 = mono_ns();
		err = loop(n, t);
		t1 = mono_ns();
		profile_window_close();
	}
	if (session && !drain_stop(&d) && !err) {
		fprintf(stderr, "bench_mmap_loop: the jmmap session gave no records\n");
		err = -ENODATA;
	}
	if (err) {
		fprintf(stderr, "bench_mmap_loop: %s\n", strerror(-err));
		free(t);
		return 1;
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	median = n % 2 ? (double)t[n / 2] : ((double)t[n / 2 - 1] + (double)t[n / 2]) / 2;
	printf("%.3f %.3f\n", (double)(t1 - t0) / 1e3 / (double)n, median / 1e3);
	free(t);
	return 0;
}
