/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-brinsn: perf script's brstackinsn and brstackinsnlen fields, the
 * instructions that ran between a sample's recorded branches, read from
 * the files and decoded, in perf's layout.
 */
#ifndef JREC_SCRIPT_BRINSN_H
#define JREC_SCRIPT_BRINSN_H

#include <stdbool.h>
#include <stdio.h>

struct script_code;
struct script_srccode;
struct samples;
struct sample;

/*
 * The blocks of @smp's branch stack, oldest first, as perf prints them
 * after the sample's line: the oldest branch's instruction, each block from
 * a branch's target to the next branch's source (a function's name where
 * the code enters it, the branch's flags, its cycles and the block's
 * instructions per cycle), then the code from the newest branch's target to
 * the sample's address; @ilen: each instruction's length too; @srcline: the
 * source line beside a function's name; @srccode (srccode's state, or
 * NULL): the source lines among the instructions, as perf prints them.
 * Nothing for a
 * sample without branches; a block whose code is not in a file jrec has
 * (the kernel's) is left out, as perf 6.1 leaves it out here.
 */
void script_brinsn__print(struct script_code *code, struct samples *it, const struct sample *smp,
			  bool ilen, bool srcline, struct script_srccode **srccode, FILE *out);

#endif
