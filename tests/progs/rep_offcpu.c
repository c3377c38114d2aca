// SPDX-License-Identifier: GPL-2.0
/*
 * rep_offcpu: threads that compute and wait in known proportions, for jrec
 * record --off-cpu and jrec report --wall. Each round of thread A:
 *
 *   offcpu_compute    spins                        30%
 *   offcpu_sleep      nanosleep                    20%
 *   offcpu_pipe_a     blocks reading a pipe        33.3%  } the pipe's two
 *   offcpu_pipe_b     blocks reading the same pipe 16.7%  } call chains, 2:1
 *
 * The main thread answers each pipe read after the time asked for; thread B
 * waits on a futex (offcpu_futex) until thread A is done. Both measure
 * their phases with CLOCK_MONOTONIC and print them as shares of their own
 * run, with their thread ids:
 *
 *   tid_a 1234
 *   tid_b 1235
 *   a offcpu_compute 30.02
 *   ...
 *   b offcpu_futex 99.91
 *
 * The waits are system calls made from the program's own functions (no libc
 * wrapper between), and it is built with frame pointers in every function
 * (tests/Makefile), so that a frame-pointer call chain taken at the switch
 * names each phase's function.
 *
 *   rep_offcpu [ROUNDS]     (of 100 ms each, default 10)
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUND_NS 100000000ull

enum phase { COMPUTE, SLEEP, PIPE_A, PIPE_B, NR_PHASES };
static const char *const names[NR_PHASES] = { "offcpu_compute", "offcpu_sleep", "offcpu_pipe_a",
					      "offcpu_pipe_b" };
static const uint64_t shares_permille[NR_PHASES] = { 300, 200, 333, 167 };

static int req_pipe[2], data_pipe[2];
static volatile uint32_t futex_word;
static volatile uint64_t sink;
static uint64_t a_ns[NR_PHASES], a_total, b_wait, b_total;
static int rounds = 10;
static pid_t tid_a, tid_b;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* not a leaf itself: gcc may give leaf functions no frame pointer */
__attribute__((noipa)) static void store(long x)
{
	sink = (uint64_t)x;
}

/*
 * The system calls, made here rather than in libc, whose wrappers have no
 * frame pointers; each calls store() so that it has one itself.
 */
__attribute__((noipa)) static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	store(ret);
	return ret;
}

__attribute__((noipa)) static long sys4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	store(ret);
	return ret;
}

/*
 * About 100 us of arithmetic between two looks at the clock: the clock is
 * read through libc and the vDSO, which have no frame pointers, so a thread
 * preempted there has a stack without this function; it must be rare.
 */
__attribute__((noipa)) static void offcpu_compute(uint64_t ns)
{
	uint64_t end = now_ns() + ns, x = 1;

	while (now_ns() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noipa)) static void offcpu_sleep(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (sys4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (long)&ts, (long)&ts) == -4)
		; /* EINTR: the rest of it */
}

/* Ask the main thread for a byte @ns from now, and wait for it. */
static void pipe_wait(uint64_t ns)
{
	char c;

	if (write(req_pipe[1], &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
		exit(1);
	while (sys3(SYS_read, data_pipe[0], (long)&c, 1) != 1)
		;
}

__attribute__((noipa)) static void offcpu_pipe_a(uint64_t ns)
{
	pipe_wait(ns);
	sink++;
}

__attribute__((noipa)) static void offcpu_pipe_b(uint64_t ns)
{
	pipe_wait(ns);
	sink++;
}

static void timed(enum phase p, void (*fn)(uint64_t), uint64_t ns)
{
	uint64_t t0 = now_ns();

	fn(ns);
	a_ns[p] += now_ns() - t0;
}

static void *thread_a(void *arg)
{
	uint64_t t0 = now_ns();
	uint64_t stop = 1;

	tid_a = (pid_t)syscall(SYS_gettid);
	for (int r = 0; r < rounds; r++) {
		timed(COMPUTE, offcpu_compute, ROUND_NS * shares_permille[COMPUTE] / 1000);
		timed(SLEEP, offcpu_sleep, ROUND_NS * shares_permille[SLEEP] / 1000);
		timed(PIPE_A, offcpu_pipe_a, ROUND_NS * shares_permille[PIPE_A] / 1000);
		timed(PIPE_B, offcpu_pipe_b, ROUND_NS * shares_permille[PIPE_B] / 1000);
	}
	a_total = now_ns() - t0;
	stop = 0; /* 0 ns: the main thread's sign to stop */
	if (write(req_pipe[1], &stop, sizeof(stop)) != (ssize_t)sizeof(stop))
		exit(1);
	return NULL;
}

__attribute__((noipa)) static void offcpu_futex(void)
{
	while (!__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE))
		sys4(SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0, 0);
}

static void *thread_b(void *arg)
{
	uint64_t t0 = now_ns(), t1;

	tid_b = (pid_t)syscall(SYS_gettid);
	t1 = now_ns();
	offcpu_futex();
	b_wait = now_ns() - t1;
	b_total = now_ns() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	uint64_t ns;

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (rounds <= 0 || pipe(req_pipe) || pipe(data_pipe))
		return 2;
	if (pthread_create(&b, NULL, thread_b, NULL) || pthread_create(&a, NULL, thread_a, NULL))
		return 1;
	/* serve thread A's pipe reads: a byte after the time it asked for */
	while (read(req_pipe[0], &ns, sizeof(ns)) == (ssize_t)sizeof(ns) && ns) {
		struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		if (write(data_pipe[1], "x", 1) != 1)
			return 1;
	}
	pthread_join(a, NULL);
	__atomic_store_n(&futex_word, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL);
	pthread_join(b, NULL);
	printf("tid_a %d\ntid_b %d\n", (int)tid_a, (int)tid_b);
	for (int p = 0; p < NR_PHASES; p++)
		printf("a %s %.2f\n", names[p], 100.0 * (double)a_ns[p] / (double)a_total);
	printf("b offcpu_futex %.2f\n", 100.0 * (double)b_wait / (double)b_total);
	return 0;
}
