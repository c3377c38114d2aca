// SPDX-License-Identifier: GPL-2.0
/*
 * rec_latemap: a JIT whose perf-map lines are written at known times.
 *
 *   rec_latemap reuse N SECS   N rounds at one address: map a new page there,
 *                              write its line "reuse_I" to /tmp/perf-PID.map,
 *                              print "write I BEFORE AFTER" (CLOCK_MONOTONIC
 *                              ns around the write), sleep 20 ms, run the code
 *                              for SECS of CPU time, unmap it
 *   rec_latemap exit SECS      run "late_fn" for SECS of CPU time and write its
 *                              line only as the process exits, as a runtime
 *                              that dumps its map at exit does; print "pid PID"
 */
#include "testjit.h"

static void *addr;

static void write_late(void)
{
	tj_perfmap_add((uint64_t)(uintptr_t)addr, "late_fn");
}

int main(int argc, char **argv)
{
	int i, n;

	if (argc == 3 && !strcmp(argv[1], "exit")) {
		addr = tj_gen(NULL);
		printf("pid %d\n", getpid());
		fflush(stdout);
		tj_run(addr, atof(argv[2]));
		write_late();
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "reuse")) {
		fprintf(stderr, "usage: rec_latemap reuse N SECS | rec_latemap exit SECS\n");
		return 2;
	}
	n = atoi(argv[2]);
	for (i = 0; i < n; i++) {
		char name[32];
		uint64_t before, after;

		addr = tj_gen(addr);
		snprintf(name, sizeof(name), "reuse_%d", i);
		before = tj_mono_ns();
		tj_perfmap_add((uint64_t)(uintptr_t)addr, name);
		after = tj_mono_ns();
		printf("write %d %llu %llu\n", i, (unsigned long long)before, (unsigned long long)after);
		fflush(stdout);
		usleep(20000);
		tj_run(addr, atof(argv[3]));
		munmap(addr, 4096);
	}
	printf("pid %d\n", getpid());
	return 0;
}
