// SPDX-License-Identifier: GPL-2.0
/*
 * ann_perfmap: a perf-map JIT whose code is a known byte sequence, for
 * jrec annotate (tests/suites/44-annotate): the loop below is written into
 * an executable page, named "pm_known_loop" in /tmp/perf-PID.map, and run for
 * SECONDS of CPU time; the map is removed at exit. No file holds the code:
 * only the recorder's copy out of the process does.
 *
 *   ann_perfmap SECONDS
 */
#include "testjit.h"

/* mov eax, 0x12345; mov ecx, 0x20000; dec ecx; jne .-2; ret */
static const uint8_t known[] = { 0xb8, 0x45, 0x23, 0x01, 0x00, 0xb9, 0x00, 0x00,
				 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

int main(int argc, char **argv)
{
	char path[64];
	FILE *f;
	void *p;

	if (argc != 2) {
		fprintf(stderr, "usage: ann_perfmap SECONDS\n");
		return 2;
	}
	p = tj_gen(NULL);
	tj_protect(p, PROT_READ | PROT_WRITE);
	memcpy(p, known, sizeof(known));
	tj_protect(p, PROT_READ | PROT_EXEC);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "a");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%llx %zx pm_known_loop\n", (unsigned long long)(uintptr_t)p, sizeof(known));
	fclose(f);
	tj_run(p, atof(argv[1]));
	tj_perfmap_remove();
	return 0;
}
