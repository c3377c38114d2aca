// SPDX-License-Identifier: GPL-2.0
/*
 * rep_samename: two local functions with one name, sn_work, one in this file
 * and one in libsrc/samename-b.c (linked into the same program), which the
 * linker's string table gives one name: a report must keep them apart, as
 * perf does, by where each starts. This file's runs a third of the time, the
 * other's two thirds.
 *
 *   rep_samename SECONDS       (CPU time of this thread)
 */
#include <stdio.h>
#include <stdlib.h>

#include "testjit.h"

unsigned long sn_other(unsigned long x, int rounds);
static volatile int sn_rounds = 100000; /* not a constant the compiler could fold in */

static __attribute__((noinline)) unsigned long sn_work(unsigned long x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long x = 1;
	uint64_t end;

	if (argc != 2) {
		fprintf(stderr, "usage: rep_samename SECONDS\n");
		return 2;
	}
	end = tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)(atof(argv[1]) * 1e9);
	while (tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		x = sn_work(x, sn_rounds) ^ sn_other(x, 2 * sn_rounds);
	printf("%lu\n", x);
	return 0;
}
