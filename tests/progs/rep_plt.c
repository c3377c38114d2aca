// SPDX-License-Identifier: GPL-2.0
/*
 * rep_plt: spends a good share of its time in one PLT stub, so that samples
 * land in .plt.sec (or .plt) and the report must name them "getpagesize@plt".
 * getpagesize() is a libc function that only returns a cached value, so the
 * stub is a large part of each call. It is declared here under another name
 * bound to the same symbol: libc's header marks it const, and the compiler
 * would call it once.
 *
 *   rep_plt [SECONDS]     (default 1)
 *
 * SECONDS is CPU time: on a loaded machine the run still holds as many
 * samples as the test counts on.
 */
#include <stdlib.h>
#include <time.h>

extern int plt_getpagesize(void) __asm__("getpagesize");

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1);
	volatile unsigned long sink = 0;

	while (now() < end)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)plt_getpagesize();
	return sink == 1;
}
