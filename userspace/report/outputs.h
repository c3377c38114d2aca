/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outputs of a report, one table with an entry for each format: the
 * table views of the histograms (hist.h), perf's stdio table (out-stdio.c)
 * and JSON (hist-json.c, Documentation/report-json.rst), and the flame graph
 * outputs (Documentation/report-outputs.rst), which take one event's samples
 * as a tree of call chains (calltree.h) whose first frame is the command:
 * FlameGraph's folded stacks (out-folded.c), a self-contained SVG flame graph
 * (out-svg.c), pprof's gzipped profile.proto (out-pprof.c) or speedscope's
 * JSON (out-speedscope.c).
 */
#ifndef JREC_OUTPUTS_H
#define JREC_OUTPUTS_H

#include <stdbool.h>
#include <stdio.h>

#include "calltree.h"
#include "hist.h"

struct browser_source;
struct browser_query;

struct flame_info {
	const char *file;  /* the recording */
	const char *event; /* the event the samples are of */
	bool period_ns;	   /* the event's period is time in nanoseconds (cpu-clock, task-clock) */
	/*
	 * Frames are as wide as their period rather than their samples: time
	 * off CPU (offcpu-time, --wall), where one sample may stand for a second.
	 */
	bool by_period;
};

/* What a report hands its output. */
struct output_view {
	const struct hist *const *hs; /* the events' histograms, sorted, those with samples */
	const char *const *events;    /* their names */
	/* per histogram: a group's leader with members, "of events" in its title, as perf's */
	const bool *leader;
	size_t nr;
	/*
	 * perf report --group: NULL, or for each of hs the number of histograms
	 * from it shown as one group's table (2 or more: the group's members,
	 * named group_names[i]; 1: alone; 0: a member shown with its leader)
	 */
	const size_t *group;
	const char *const *group_names;
	const struct report_meta *meta;
	struct calltree *flame;	    /* the flame graph outputs' tree (hs[0]->flame_root in it) */
	const struct flame_info *fi;
	/* the browser: the histogram's source, for another sort or zoom, and the first query */
	const struct browser_source *live;
	const struct browser_query *query;
};

struct output {
	const char *name;
	bool flame; /* the report builds the flame graph tree for it */
	int (*write)(const struct output_view *v, FILE *out);
};

/* The output called @name, or NULL. */
const struct output *outputs__find(const char *name);
/* @v as output @o; 0 or -errno. */
int outputs__write(const struct output *o, const struct output_view *v, FILE *out);

int out_folded__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_svg__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_pprof__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
int out_speedscope__write(struct calltree *ct, uint32_t root, const struct flame_info *fi,
			  FILE *out);

#endif
