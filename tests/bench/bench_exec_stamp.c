// SPDX-License-Identifier: GPL-2.0
/*
 * bench_exec_stamp: run a command with the time it was started in its
 * environment, so that it can tell how long it took from its exec:
 *
 *   bench_exec_stamp COMMAND [ARG]...
 *
 * sets BENCH_EXEC_NS to CLOCK_MONOTONIC in nanoseconds (the clock node's
 * process.hrtime reads) and execs COMMAND in place, so that what a recorder
 * sees is COMMAND's own exec. Exit 127 when the exec fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts;
	char ns[32];

	if (argc < 2) {
		fprintf(stderr, "usage: %s COMMAND [ARG]...\n", argv[0]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(ns, sizeof(ns), "%" PRIu64,
		 (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec);
	if (setenv("BENCH_EXEC_NS", ns, 1)) {
		perror("bench_exec_stamp: setenv");
		return 127;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "bench_exec_stamp: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
