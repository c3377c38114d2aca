// SPDX-License-Identifier: GPL-2.0
/*
 * rep_inline: call chains through inlined functions, for the frames a
 * report shows for them. il_mid is always inlined into il_top; it calls
 * il_work (a function of its own) and runs il_spin (inlined into it) in
 * turns, so that samples land both in code inlined at the sampled address
 * and below a return address inside inlined code:
 *   main -> il_top -> il_mid (inlined) -> il_work
 *   main -> il_top -> il_mid (inlined) -> il_spin (inlined)
 * Built -O2 -g with frame pointers (tests/Makefile), for -g and for
 * --call-graph dwarf alike.
 *
 *   rep_inline SECONDS       (CPU time of this thread)
 */
#include <stdio.h>
#include <stdlib.h>

#include "testjit.h"

__attribute__((noinline)) unsigned long il_fold(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x ^ x >> 29;
}

/* not a leaf (it calls il_fold), so it has a frame of its own for -g's walk */
__attribute__((noinline)) unsigned long il_work(unsigned long x)
{
	for (int i = 0; i < 100000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return il_fold(x);
}

static inline __attribute__((always_inline)) unsigned long il_spin(unsigned long x)
{
	for (int i = 0; i < 100000; i++) {
		x ^= x >> 7;
		x *= 0x9e3779b97f4a7c15ul;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static inline __attribute__((always_inline)) unsigned long il_mid(unsigned long x)
{
	unsigned long y = il_work(x ^ 0x55);

	__asm__ volatile("" : "+r"(y));
	return il_spin(y) + x;
}

__attribute__((noinline)) unsigned long il_top(unsigned long x)
{
	unsigned long y = il_mid(x + 7);

	__asm__ volatile("" : "+r"(y));
	return y ^ x;
}

int main(int argc, char **argv)
{
	unsigned long x = 1;
	uint64_t end;

	if (argc != 2) {
		fprintf(stderr, "usage: rep_inline SECONDS\n");
		return 2;
	}
	end = tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)(atof(argv[1]) * 1e9);
	while (tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		x = il_top(x);
	printf("%lu\n", x);
	return 0;
}
