// SPDX-License-Identifier: GPL-2.0
/* rep_samename's second sn_work: a local function named as the first (see rep_samename.c). */
unsigned long sn_other(unsigned long x, int rounds);

static __attribute__((noinline)) unsigned long sn_work(unsigned long x, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		x ^= x >> 11;
		x *= 0xff51afd7ed558ccdul;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

unsigned long sn_other(unsigned long x, int rounds)
{
	return sn_work(x, rounds) + 1;
}
