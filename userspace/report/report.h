/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report: one jrec report run's state, shared by the command's files:
 * cmd-report.c (the recording opened, the histograms made for its events,
 * the browser's queries, the outputs), report-args.c (the command line) and
 * report-count.c (each sample counted into the histograms).
 */
#ifndef JREC_REPORT_REPORT_H
#define JREC_REPORT_REPORT_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "branch-ipc.h"
#include "browser.h"
#include "calltree.h"
#include "filters.h"
#include "hist.h"
#include "presum.h"
#include "samples.h"
#include "session.h"

struct chain_memo;
struct self_memo;

struct report {
	struct session s;
	bool opened; /* s is open */
	struct samples it;
	struct hist *hs; /* one per event (attr) of the recording */
	size_t nr_hs;
	struct filters f;
	bool need_srcline, need_srcfile, need_comm, need_parent, need_state;
	regex_t parent_re; /* -p */
	bool have_parent_re;
	bool exclude_other; /* -x */
	bool children;
	bool wall; /* --wall: every event's samples as time, in hs[0] */
	const char *event; /* -e: only this event's samples, NULL: all */
	int group; /* --group 1, --no-group 0, -1: the recording's groups side by side */
	int branch;	  /* -b 1, --no-branch-stack 0, -1: as the recording has branch stacks */
	bool branch_mode; /* each sample's branches counted, not the sample (branch-view.h) */
	struct branch_ipc ipc; /* the branch view's IPC column, when a hist shows it */
	struct hist_fields fields; /* -F */
	const char *parent;	/* the current sample's parent (-p), NULL for [other] */
	bool relative;		/* --percentage relative: shares of the samples the filters keep */
	bool have_cpu;		/* the samples carry their CPU */
	unsigned int max_stack; /* frames of a chain used, 0: all */
	struct graph_opts graph; /* -g */
	struct calltree ct;      /* -g: the entries' call trees */
	struct calltree flame;   /* the flame graph outputs' tree, outermost frame first */
	bool want_flame;
	bool flat; /* this pass counts by the address memo (report__count()) */
	const char *comm_frame_of; /* the flame graph's process frame of that comm */
	uint32_t comm_frame;
	bool comm_frame_set;
	uint32_t *frames;
	size_t cap_frames;
	struct chain_memo *memo; /* add_frame() */
	struct self_memo *self_memo; /* the flat report's entries by address */
	struct presum presum;	     /* the samples summed in the first pass (report__presum()) */
	bool progress;
	uint64_t done;
	struct timespec t0;
	/* the browser */
	struct browser_zoom zoom;     /* only the samples and frames it keeps */
	struct browser_query built;   /* what the histograms were counted for */
	struct report_meta tui_meta;  /* the shown event's */
	struct report_meta *meta;
	const struct report_args *args;
	bool trees_later; /* the browser's call trees: counted when first opened */
	bool sort_later;  /* the histograms not sorted yet: the browser's first screen first */
};

/* What the command line asks for, beyond what it sets in the report and its meta. */
struct report_args {
	const char *input, *sort, *format, *output, *symfs;
	bool plimit_set, quiet, no_pager, graph_set, inline_frames;
	int children; /* -1: as perf, on when there are call chains */
	bool graph_given; /* -g or -G; else as perf, the table's call trees when there are chains */
	bool sort_given;
	const char *sort_typed; /* -s as typed: one naming "symbol" gets perf's IPC column */
	const char *fields; /* -F */
	int header;	  /* 1: --header, 2: --header-only */
	const char *parent; /* -p's pattern, NULL: not given */
	char sort_buf[256]; /* --sort with parent added */
	char fields_sort[256]; /* -F's keys, the sort without --sort */
};

/* The command line into @r, @a and @meta: 0, 1 after --help, or -EINVAL after the error is printed. */
int report_args__parse(struct report *r, struct report_args *a, struct report_meta *meta, int argc,
		       char **argv);

/* Seconds since @t0 (CLOCK_MONOTONIC). */
double report__elapsed(const struct timespec *t0);
/*
 * Before session__load(): sum the samples in its pass (presum.h) when the
 * report asked for can be counted from the sums.
 */
void report__presum(struct report *r);
/*
 * The samples, each counted into r->hs: from the first pass's sums when
 * they hold, else in a pass over them. 0 or what a sample's counting returned.
 */
int report__count(struct report *r);
/* Forget the entries remembered for frames and addresses (the histograms are made again). */
void report__forget_frames(struct report *r);
/* What counting held: the memos of frames and addresses. */
void report__count_release(struct report *r);

#endif
