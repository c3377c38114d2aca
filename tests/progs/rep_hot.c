// SPDX-License-Identifier: GPL-2.0
/*
 * rep_hot: a CPU-bound program with a known profile shape, for comparing
 * jrec report with perf report. Each function spins for a share of the work
 * proportional to its weight; two threads run the same mix.
 *
 *   rep_hot [SECONDS]     (default 1)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

#define SPIN(name, weight)                                                                 \
	__attribute__((noinline)) static void name(void)                                   \
	{                                                                                  \
		uint64_t x = sink;                                                         \
		for (int i = 0; i < (weight) * 20000; i++)                                 \
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;           \
		sink = x;                                                                  \
	}

SPIN(hot_alpha, 40)
SPIN(hot_beta, 25)
SPIN(hot_gamma, 15)
SPIN(hot_delta, 10)
SPIN(hot_epsilon, 6)
SPIN(hot_zeta, 3)
SPIN(hot_eta, 1)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double seconds = 1;

static void *worker(void *arg)
{
	double end = now() + seconds;

	while (now() < end) {
		hot_alpha();
		hot_beta();
		hot_gamma();
		hot_delta();
		hot_epsilon();
		hot_zeta();
		hot_eta();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		seconds = atof(argv[1]);
	pthread_create(&t, NULL, worker, NULL);
	worker(NULL);
	pthread_join(t, NULL);
	return 0;
}
