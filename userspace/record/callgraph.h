/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callgraph: the recorder's --call-graph modes, spelled as perf spells them:
 * "fp" (frame pointers, what -g records) and "dwarf[,SIZE]" (the user
 * registers and SIZE bytes of user stack per sample, unwound at report time).
 */
#ifndef JREC_RECORD_CALLGRAPH_H
#define JREC_RECORD_CALLGRAPH_H

#include <stdint.h>
#include <linux/perf_event.h>

enum callgraph_mode {
	CALLGRAPH_NONE = 0,
	CALLGRAPH_FP,
	CALLGRAPH_DWARF,
};

#define CALLGRAPH_DWARF_DEFAULT_SIZE 8192u
#define CALLGRAPH_DWARF_MAX_SIZE 65528u /* the kernel's u16 limit, 8-byte aligned */

/*
 * The user registers perf records for DWARF unwinding on x86_64: every
 * general register, the flags and the segment registers but DS, ES, FS, GS.
 */
#define CALLGRAPH_X86_64_REGS 0xff0fffull

/* Parse "fp", "dwarf" or "dwarf,SIZE". 0 or -EINVAL (*@why says what was wrong). */
int callgraph__parse(const char *arg, enum callgraph_mode *mode, uint32_t *dump_size,
		     const char **why);
/* Set @a's sample bits for @mode. */
void callgraph__config_attr(enum callgraph_mode mode, uint32_t dump_size,
			    struct perf_event_attr *a);

#endif
