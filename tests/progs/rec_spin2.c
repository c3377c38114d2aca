// SPDX-License-Identifier: GPL-2.0
/*
 * rec_spin2: two threads that each burn a fixed amount of CPU time
 * (argument: seconds of CPU per thread, default 1). Measured on the thread's
 * own CPU clock, not the wall clock, so the number of cpu-clock samples a
 * profiler should take does not depend on how busy the machine is: the
 * recorder suite compares jrec's count with perf's on it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long spin_leaf(unsigned long x)
{
	int i;

	for (i = 0; i < 100000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static unsigned long spin(double secs)
{
	double end = now() + secs;
	unsigned long x = 1;

	while (now() < end)
		x = spin_leaf(x);
	return x;
}

static void *thread_main(void *arg)
{
	*(unsigned long *)arg = spin(*(double *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	union {
		double d;
		unsigned long u;
	} a = { .d = secs };
	pthread_t t;

	if (pthread_create(&t, NULL, thread_main, &a))
		return 1;
	spin(secs);
	pthread_join(t, NULL);
	return 0;
}
