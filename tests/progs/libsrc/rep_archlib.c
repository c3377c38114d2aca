// SPDX-License-Identifier: GPL-2.0
/* librep_archlib.so: rep_archive's own shared library, with a hot function of its own. */
#include <time.h>

double archlib_spin(double secs);

double archlib_spin(double secs)
{
	struct timespec ts;
	double end, now, acc = 1.0;
	int i;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + secs;
	do {
		for (i = 0; i < 200000; i++)
			acc = acc * 1.0000001 + 1e-9;
		for (i = 0; i < 100000; i++)
			acc = acc / 1.0000001 - 1e-9;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		now = ts.tv_sec + ts.tv_nsec / 1e9;
	} while (now < end);
	return acc;
}
