// SPDX-License-Identifier: GPL-2.0
/*
 * rep_archive: samples in three places a report names, for the tests of
 * jrec archive and --symfs: main_spin() in this program, archlib_spin() in
 * its own shared library (librep_archlib.so, found beside it through
 * $ORIGIN), "archive_jit_fn", JIT code announced in a jitdump in DIR, and
 * "archive_pm_fn", announced in /tmp/perf-PID.map, which is left for the
 * caller to remove. Each runs for SECONDS of CPU time.
 *
 *   rep_archive DIR SECONDS
 */
#include "testjit.h"

double archlib_spin(double secs);

static double __attribute__((noinline)) main_spin(double secs)
{
	double end = tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) / 1e9 + secs, acc = 2.0;
	int i;

	do {
		for (i = 0; i < 100000; i++)
			acc = acc * 0.9999999 + 1e-9;
		for (i = 0; i < 100000; i++)
			acc = acc / 0.9999999 - 1e-9;
	} while (tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) / 1e9 < end);
	return acc;
}

int main(int argc, char **argv)
{
	double secs;
	void *code, *pm;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: rep_archive DIR SECONDS\n");
		return 2;
	}
	secs = atof(argv[2]);
	f = tj_jitdump_open(argv[1]);
	code = tj_gen(NULL);
	tj_jitdump_load(f, (uint64_t)(uintptr_t)code, "archive_jit_fn", 1);
	fflush(f);
	tj_run(code, secs);
	pm = tj_gen(NULL);
	tj_perfmap_add((uint64_t)(uintptr_t)pm, "archive_pm_fn");
	tj_run(pm, secs);
	if (main_spin(secs) < 0 || archlib_spin(secs) < 0)
		return 1;
	fclose(f);
	return 0;
}
