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
 * With --replace, the code is named "pm_code_a" and run, then replaced at
 * the same address by other known code (its first mov loads edx, not eax),
 * named "pm_code_b" in a new line, and run: the recorder read each
 * symbol's bytes when its line appeared. With --replace-unread, the page is
 * inaccessible while pm_code_a's line appears (the recorder cannot read it
 * then; the program waits half a second for it to try), and the only copy
 * of that range is the one read after pm_code_b's line: B's bytes.
 *
 *   ann_perfmap [--jitdump DIR | --replace | --replace-unread] SECONDS
 */
#include <stdbool.h>

#include "testjit.h"

/* mov eax, 0x12345; mov ecx, 0x20000; dec ecx; jne .-2; ret */
static const uint8_t known[] = { 0xb8, 0x45, 0x23, 0x01, 0x00, 0xb9, 0x00, 0x00,
				 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

/* the same loop, its first mov loading edx: mov edx, 0x54321 */
static const uint8_t other[] = { 0xba, 0x21, 0x43, 0x05, 0x00, 0xb9, 0x00, 0x00,
				 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static void perfmap_line(void *p, const char *name)
{
	tj_perfmap_add_size((uint64_t)(uintptr_t)p, sizeof(known), name);
}

/* A, named and run; then B over it, named and run. */
static int replace(void *p, bool unread, double secs)
{
	if (unread) {
		tj_protect(p, PROT_NONE);
		perfmap_line(p, "pm_code_a");
		usleep(500000);
		tj_protect(p, PROT_READ | PROT_EXEC);
	} else {
		perfmap_line(p, "pm_code_a");
	}
	tj_run(p, secs);
	tj_protect(p, PROT_READ | PROT_WRITE);
	memcpy(p, other, sizeof(other));
	tj_protect(p, PROT_READ | PROT_EXEC);
	perfmap_line(p, "pm_code_b");
	tj_run(p, secs);
	tj_perfmap_remove();
	return 0;
}

int main(int argc, char **argv)
{
	static const uint32_t offs[] = { 0, 10 }, lines[] = { 10, 11 };
	FILE *f;
	void *p;
	bool repl = argc == 3 && (!strcmp(argv[1], "--replace") ||
				  !strcmp(argv[1], "--replace-unread"));

	if (argc != 2 && !repl && !(argc == 4 && !strcmp(argv[1], "--jitdump"))) {
		fprintf(stderr, "usage: ann_perfmap [--jitdump DIR | --replace | --replace-unread] "
				"SECONDS\n");
		return 2;
	}
	p = tj_gen(NULL);
	tj_protect(p, PROT_READ | PROT_WRITE);
	memcpy(p, known, sizeof(known));
	tj_protect(p, PROT_READ | PROT_EXEC);
	if (repl)
		return replace(p, !strcmp(argv[1], "--replace-unread"), atof(argv[2]));
	if (argc == 4) {
		f = tj_jitdump_open(argv[2]);
		tj_jitdump_debug(f, (uint64_t)(uintptr_t)p, "known.js", 2, offs, lines);
		tj_jitdump_load_code(f, (uint64_t)(uintptr_t)p, "jd_known_loop", 1, known,
				     sizeof(known));
		tj_run(p, atof(argv[3]));
		return 0;
	}
	perfmap_line(p, "pm_known_loop");
	tj_run(p, atof(argv[1]));
	tj_perfmap_remove();
	return 0;
}
