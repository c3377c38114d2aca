// SPDX-License-Identifier: GPL-2.0
/*
 * rep_jitreuse: JIT address reuse. Generates a function "reuse_A" into an
 * executable page, announces it in a jitdump (jit-PID.dump in DIR) and runs
 * it; then unmaps the page, maps a new one at the same address, generates
 * "reuse_B" there, announces it and runs it. Prints "switch NS"
 * (CLOCK_MONOTONIC of the second load) and the code address, so a test can
 * check that every sample before the switch went to reuse_A and every one
 * after to reuse_B.
 *
 *   rep_jitreuse DIR SECONDS_EACH     (CPU seconds for each function)
 */
#include "testjit.h"

int main(int argc, char **argv)
{
	double secs;
	FILE *f;
	void *p;
	uint64_t sw;

	if (argc != 3) {
		fprintf(stderr, "usage: rep_jitreuse DIR SECONDS_EACH\n");
		return 2;
	}
	secs = atof(argv[2]);
	f = tj_jitdump_open(argv[1]);
	p = tj_gen(NULL);
	tj_jitdump_load(f, (uint64_t)(uintptr_t)p, "reuse_A", 1);
	tj_run(p, secs);
	munmap(p, 4096);
	p = tj_gen(p);
	sw = tj_mono_ns();
	tj_jitdump_load(f, (uint64_t)(uintptr_t)p, "reuse_B", 2);
	tj_run(p, secs);
	printf("switch %llu addr %llx\n", (unsigned long long)sw, (unsigned long long)(uintptr_t)p);
	fclose(f);
	return 0;
}
