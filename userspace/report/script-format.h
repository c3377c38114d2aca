/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-format: perf script's sample format, the one FlameGraph,
 * speedscope and the Firefox Profiler parse. The fields each event type
 * prints (perf's defaults, or -F with perf's names, its "type:" prefix and
 * its +field/-field forms), checked against what the recording's samples
 * carry, and a sample's lines in perf's layout: a header line, the call
 * chain's frames indented below it, innermost first, and a blank line after
 * a sample with a chain.
 */
#ifndef JREC_SCRIPT_FORMAT_H
#define JREC_SCRIPT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "script-code.h"

struct samples;
struct sample;
struct script_trace;
struct script_srccode;

/* The fields jrec prints, by perf's names (script-format.c's table). */
enum sf_field {
	SF_COMM = 1u << 0,
	SF_TID = 1u << 1,
	SF_PID = 1u << 2,
	SF_TIME = 1u << 3,
	SF_CPU = 1u << 4,
	SF_EVENT = 1u << 5,
	SF_IP = 1u << 6,
	SF_SYM = 1u << 7,
	SF_SYMOFF = 1u << 8,
	SF_DSO = 1u << 9,
	SF_PERIOD = 1u << 10,
	SF_SRCLINE = 1u << 11,
	SF_ADDR = 1u << 12,
	SF_TRACE = 1u << 13, /* a tracepoint's fields, as its format prints them */
	SF_BRSTACK = 1u << 14,	  /* the branch stack: from/to addresses and flags */
	SF_BRSTACKSYM = 1u << 15, /* the same as sym+off and dso */
	SF_BRSTACKOFF = 1u << 16, /* the same with map-relative addresses */
	SF_MISC = 1u << 17,	  /* the record's cpumode: K, U, H, G, g */
	SF_TOD = 1u << 18,	  /* the wall-clock time, from the recording's CLOCK_DATA */
	SF_WEIGHT = 1u << 19,	  /* the sample's weight (perf record -W) */
	SF_INSN = 1u << 20,	  /* the bytes of the instruction at the sample's ip */
	SF_INSNLEN = 1u << 21,	  /* its length */
	SF_DATA_SRC = 1u << 22,	  /* the data source, decoded (script-hw.h) */
	SF_IREGS = 1u << 23,	  /* the registers at the interrupt */
	SF_UREGS = 1u << 24,	  /* the user registers */
	SF_PHYS_ADDR = 1u << 25,  /* the physical address of the sample's data */
	SF_DATA_PAGE_SIZE = 1u << 26, /* the page size of that data */
	SF_CODE_PAGE_SIZE = 1u << 27, /* the page size of the sample's code */
	SF_INS_LAT = 1u << 28,	  /* the instruction latency (WEIGHT_STRUCT) */
	/*
	 * perf's fields that only instruction-trace decoding fills (a
	 * branch's kind, the call depth, cycle counts): blank or nothing in
	 * the samples of a recording
	 */
	SF_FLAGS = 1u << 29,
	SF_CALLINDENT = 1u << 30,
	SF_IPC = 1u << 31,
};
/* (the fields past 32 bits) */
enum sf_field_hi {
	SF_SRCCODE = 1ULL << 32, /* the source line of the sample's address, below its line */
	SF_BRSTACKINSN = 1ULL << 33,	/* the instructions of the branch stack's blocks */
	SF_BRSTACKINSNLEN = 1ULL << 34, /* the same, each with its length */
	SF_BPF_OUTPUT = 1ULL << 35,	/* a BPF-output event's raw data, dumped (script-hw.h) */
	SF_SYNTH = 1ULL << 36,		/* a synthesized event's payload (script-synth.h) */
	SF_METRIC = 1ULL << 37,		/* a group's derived figures, after it (script-metric.h) */
};

/* perf's output types: attr.type below PERF_TYPE_MAX, then synthesized and any other PMU. */
enum sf_type { SF_T_HW, SF_T_SW, SF_T_TRACE, SF_T_CACHE, SF_T_RAW, SF_T_BREAK, SF_T_SYNTH,
	       SF_T_OTHER, SF_T_MAX };

struct script_format {
	uint64_t fields[SF_T_MAX];
	uint64_t user_fields[SF_T_MAX]; /* asked for by -F without a type: an error if missing */
	bool user_set[SF_T_MAX];
	bool hide_chain; /* -G */
	bool ns;	 /* --ns: nanoseconds */
	unsigned int max_stack;
	/* per event of the recording, made by script_format__setup() */
	uint64_t *ev_fields;
	bool *ev_chain;
	bool brstackoff; /* an event prints brstackoff: mark_used() follows the files perf read */
	struct script_trace *trace; /* the tracepoints' formats, when a trace field is printed */
	/* CLOCK_DATA: the wall-clock time (ns) at the sample clock's clockid_ns, for tod */
	uint64_t tod_ns, clockid_ns;
	struct script_code code; /* insn, insnlen, brstackinsn: the files' code */
	size_t nr_events;
	int name_width;
	int data_src_width;
	struct script_metric *metric;	/* the groups' counts for the metric lines */
	struct script_srccode *srccode; /* each thread's last source line printed */ /* the widest data_src printed so far: perf pads to it */
};

/*
 * A record of the recording other than a sample, for what the fields take
 * from it: an EVENT_UPDATE's scale, for the metric field. 0 or -ENOMEM.
 */
int script_format__record(struct script_format *f, const struct samples *it,
			  const struct pr_event *ev);
/* perf's default fields. */
void script_format__init(struct script_format *f);
/*
 * One -F argument, "[type:][+-]field,...". 0, or -EINVAL with the reason in
 * @err (bad usage).
 */
int script_format__parse(struct script_format *f, const char *arg, char *err, size_t errlen);
/*
 * The fields of each event of @it's recording: a field -F asked for that
 * the samples lack is an error (-EINVAL, @err names the event and field), a
 * default one is dropped. 0, -EINVAL or -ENOMEM.
 */
int script_format__setup(struct script_format *f, const struct samples *it, char *err,
			 size_t errlen);
/* The current sample's lines. 0 or -errno. */
int script_format__sample(struct script_format *f, struct samples *it, const struct sample *smp,
			  FILE *out);
void script_format__release(struct script_format *f);

#endif
