// SPDX-License-Identifier: GPL-2.0
/* callgraph: the --call-graph modes and the sample bits each one sets. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"

int callgraph__parse(const char *arg, enum callgraph_mode *mode, uint32_t *dump_size,
		     const char **why)
{
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	unsigned long long v;
	char *end;

	*why = "unknown mode (fp or dwarf[,SIZE])";
	if (n == 2 && !strncmp(arg, "fp", 2) && !comma) {
		*mode = CALLGRAPH_FP;
		return 0;
	}
	if (n != 5 || strncmp(arg, "dwarf", 5))
		return -EINVAL;
#ifndef __x86_64__
	*why = "dwarf: only x86_64's user registers are known here";
	return -EINVAL;
#endif
	*mode = CALLGRAPH_DWARF;
	*dump_size = CALLGRAPH_DWARF_DEFAULT_SIZE;
	if (!comma)
		return 0;
	*why = "bad stack dump size (bytes, at most 65528)";
	errno = 0;
	if (!comma[1] || comma[1] == '-')
		return -EINVAL;
	v = strtoull(comma + 1, &end, 0);
	if (errno || *end || !v)
		return -EINVAL;
	v = (v + 7) & ~7ull; /* the kernel wants it 8-byte aligned, as perf rounds it */
	if (v > CALLGRAPH_DWARF_MAX_SIZE)
		return -EINVAL;
	*dump_size = (uint32_t)v;
	return 0;
}

void callgraph__config_attr(enum callgraph_mode mode, uint32_t dump_size,
			    struct perf_event_attr *a)
{
	if (mode == CALLGRAPH_NONE)
		return;
	/* the kernel's chain: in dwarf mode only its kernel part, user space is unwound later */
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (mode != CALLGRAPH_DWARF)
		return;
	a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a->sample_regs_user = CALLGRAPH_X86_64_REGS;
	a->sample_stack_user = dump_size;
	a->exclude_callchain_user = 1;
	/*
	 * The mappings that are not executable too, as perf records them in
	 * this mode: its unwinder reads .eh_frame_hdr through the read-only
	 * segment's mapping. (jrec's reporter reads the files and skips them.)
	 */
	a->mmap_data = 1;
}
