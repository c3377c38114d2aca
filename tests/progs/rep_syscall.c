// SPDX-License-Identifier: GPL-2.0
/*
 * rep_syscall: a loop of a cheap system call (getppid) for SECONDS, so that
 * most samples land in the kernel's system-call path.
 *
 *   rep_syscall [SECONDS]
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;
	unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++)
			n += (unsigned long)syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return n == 0;
}
