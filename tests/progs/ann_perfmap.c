// SPDX-License-Identifier: GPL-2.0
/*
 * ann_perfmap: a JIT whose code is a known byte sequence, for jrec annotate
 * (tests/suites/44-annotate): the loop below is written into an executable
 * page and run for SECONDS of CPU time. By default it is named
 * "pm_known_loop" in /tmp/perf-PID.map, removed at exit: no file holds the
 * code, only the recorder's copy out of the process does. With --jitdump DIR
 * it is "jd_known_loop" in DIR/jit-PID.dump, with a DEBUG_INFO record that
 * puts its two movs on line 10 of known.js and the rest on line 11.
 *
 *   ann_perfmap [--jitdump DIR] SECONDS
 */
#include "testjit.h"

/* mov eax, 0x12345; mov ecx, 0x20000; dec ecx; jne .-2; ret */
static const uint8_t known[] = { 0xb8, 0x45, 0x23, 0x01, 0x00, 0xb9, 0x00, 0x00,
				 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

int main(int argc, char **argv)
{
	static const uint32_t offs[] = { 0, 10 }, lines[] = { 10, 11 };
	char path[64];
	FILE *f;
	void *p;

	if (argc != 2 && !(argc == 4 && !strcmp(argv[1], "--jitdump"))) {
		fprintf(stderr, "usage: ann_perfmap [--jitdump DIR] SECONDS\n");
		return 2;
	}
	p = tj_gen(NULL);
	tj_protect(p, PROT_READ | PROT_WRITE);
	memcpy(p, known, sizeof(known));
	tj_protect(p, PROT_READ | PROT_EXEC);
	if (argc == 4) {
		f = tj_jitdump_open(argv[2]);
		tj_jitdump_debug(f, (uint64_t)(uintptr_t)p, "known.js", 2, offs, lines);
		tj_jitdump_load_code(f, (uint64_t)(uintptr_t)p, "jd_known_loop", 1, known,
				     sizeof(known));
		tj_run(p, atof(argv[3]));
		return 0;
	}
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
