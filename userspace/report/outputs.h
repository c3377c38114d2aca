/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flame graph outputs of a report (Documentation/report-outputs.rst):
 * one event's samples as a tree of call chains (calltree.h) whose first
 * frame is the command, written as FlameGraph's folded stacks
 * (out-folded.c), a self-contained SVG flame graph (out-svg.c), pprof's
 * gzipped profile.proto (out-pprof.c) or speedscope's JSON (out-speedscope.c).
 */
#ifndef JREC_OUTPUTS_H
#define JREC_OUTPUTS_H

#include <stdbool.h>
#include <stdio.h>

#include "calltree.h"
#include "hist.h"

struct flame_info {
	const char *file;  /* the recording */
	const char *event; /* the event the samples are of */
	bool period_ns;	   /* the event's period is time in nanoseconds (cpu-clock, task-clock) */
};

/* Whether @format is one of these outputs. */
bool outputs__known(const char *format);
/* @h's samples (its flame_root in @ct) as @format; 0 or -errno. */
int outputs__write(const char *format, struct calltree *ct, const struct hist *h,
		   const struct flame_info *fi, FILE *out);

int out_folded__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_svg__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_pprof__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_speedscope__write(struct calltree *ct, uint32_t root, const struct flame_info *fi,
			  FILE *out);

#endif
