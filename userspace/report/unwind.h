/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unwind: the user stacks that --call-graph dwarf copies, unwound with
 * elfutils' unwinder (dwfl_getthread_frames over the copied registers and
 * stack). Each process has one Dwfl; the objects its samples run through
 * are reported into it at the addresses they were mapped at, from the copy
 * of each file that carries the recorded cookie (dso__code_file()), so a
 * replaced library unwinds with its own tables. JIT code with jitdump
 * UNWINDING_INFO is reported as a small ELF that holds that CFI; code
 * without CFI is stepped over by frame pointers (libdw's fallback).
 */
#ifndef JREC_UNWIND_H
#define JREC_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct session;
struct unwinder;
struct pr_event;

int unwinder__new(struct session *s, struct unwinder **out);
void unwinder__delete(struct unwinder *u);

/*
 * The user-space frames of sample @ev (which carries REGS_USER and
 * STACK_USER), innermost first: the sample's user pc, then each caller's
 * return address minus one, as perf gives them. At most @max into @ips;
 * how many (0 when the sample has no user registers).
 */
size_t unwinder__frames(struct unwinder *u, const struct pr_event *ev, uint64_t time,
			uint64_t *ips, size_t max);

#endif
