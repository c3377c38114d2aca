// SPDX-License-Identifier: GPL-2.0
/*
 * rep_dwarf_chain: a known call chain in a program built without frame
 * pointers (tests/Makefile: -O2 -fomit-frame-pointer), for DWARF unwinding:
 * main -> dc_top -> dc_mid -> dc_leaf, where dc_leaf does all the work.
 * Each caller keeps a value live across its call, so the calls are not
 * tail calls and each function has a frame of its own.
 *
 *   rep_dwarf_chain SECONDS       (CPU time of this thread)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) unsigned long dc_leaf(unsigned long x)
{
	for (int i = 0; i < 200000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) unsigned long dc_mid(unsigned long x)
{
	unsigned long y = dc_leaf(x ^ 0x55);

	__asm__ volatile("" : "+r"(y));
	return y + x;
}

__attribute__((noinline)) unsigned long dc_top(unsigned long x)
{
	unsigned long y = dc_mid(x + 7);

	__asm__ volatile("" : "+r"(y));
	return y ^ x;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end;
	unsigned long x = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: rep_dwarf_chain SECONDS\n");
		return 2;
	}
	end = cpu_now() + atof(argv[1]);
	while (cpu_now() < end)
		x = dc_top(x);
	printf("%lu\n", x);
	return 0;
}
