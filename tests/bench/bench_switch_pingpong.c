// SPDX-License-Identifier: GPL-2.0
/*
 * bench_switch_pingpong: two threads on one CPU that hand a byte back and
 * forth through two pipes, so that every hand-over is a context switch (one
 * thread blocks in read, the other runs): the workload of jrec record
 * --off-cpu's overhead benchmark (scripts/bench-offcpu).
 *
 *   bench_switch_pingpong ROUND_TRIPS [WORK]
 *
 * WORK (default 0) is the turns of a fixed loop each thread runs after each
 * hand-over before handing back: the work between switches, which sets the
 * switch rate (scripts/bench-offcpu picks it for about 100000 a second).
 *
 * Prints the context switches made (two per round trip), the wall time in
 * seconds, the switches per second and the CPU time both threads used (user
 * and system: what the kernel's work at each switch adds to, less disturbed
 * than wall time by other programs on a busy machine), on one line:
 *
 *   switches 200000 seconds 1.234567 rate 162000 cpu 1.201234
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static long trips, work;

/* WORK turns of a loop the compiler keeps: the computing between hand-overs */
static void compute(void)
{
	for (volatile long i = 0; i < work; i++)
		;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *echo(void *arg)
{
	char c;

	for (long i = 0; i < trips; i++) {
		if (read(ping[0], &c, 1) != 1)
			exit(1);
		compute();
		if (write(pong[1], &c, 1) != 1)
			exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	cpu_set_t one;
	pthread_t t;
	double t0, dt;
	char c = 'x';

	trips = argc > 1 ? atol(argv[1]) : 0;
	work = argc > 2 ? atol(argv[2]) : 0;
	if (trips <= 0 || work < 0) {
		fprintf(stderr, "usage: bench_switch_pingpong ROUND_TRIPS [WORK]\n");
		return 2;
	}
	/* both threads on the CPU this one runs on: each hand-over switches */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one) || pipe(ping) || pipe(pong) ||
	    pthread_create(&t, NULL, echo, NULL))
		return 1;
	t0 = now();
	for (long i = 0; i < trips; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
		compute();
	}
	dt = now() - t0;
	pthread_join(t, NULL);
	getrusage(RUSAGE_SELF, &ru);
	printf("switches %ld seconds %.6f rate %.0f cpu %.6f\n", 2 * trips, dt,
	       2.0 * (double)trips / dt,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return 0;
}
