/* SPDX-License-Identifier: GPL-2.0 */
/*
 * samples: the report's one pass over a recording's samples, each resolved
 * once for every view that consumes it (the report's table, call trees and
 * flame graphs, script, archive). A sample comes with its process, thread,
 * CPU, time, period and event; its command, its own address's function and
 * its call chain's frames are resolved when first asked for, once per
 * sample, and a frame's source line on demand.
 */
#ifndef JREC_SAMPLES_H
#define JREC_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offcpu.h"
#include "resolve.h"

struct pr_attr;
struct pr_event;
struct unwinder;

struct sample {
	const struct pr_event *ev; /* the record, for what only one view shows */
	uint32_t pid, tid, cpu;
	uint64_t time; /* its time, or its file offset when the recording has no times */
	uint64_t period;
	size_t event;		/* the index of its event (attr) in the recording */
	const char *event_name; /* "?" when the recording names none */
	/*
	 * An offcpu-time sample (offcpu.h): a switch-out, its period the
	 * nanoseconds until the thread's next switch-in; preempted when it was
	 * still runnable.
	 */
	bool offcpu, preempted;
};

/*
 * A sample's frames, the sampled function first, the outermost caller last:
 * the call chain the kernel recorded (-g), or for a sample that carries a
 * copy of its user stack (--call-graph dwarf), the recorded kernel part and
 * the user frames unwound from the copy (unwind.c); hypervisor and guest
 * addresses are left out. A sample without a chain has its own frame only.
 * A user frame whose address is in code inlined from other functions comes
 * after a frame for each of them, innermost first, at the same address, with
 * `inlined` set (unless it->inlines was cleared).
 */
struct sample_frames {
	const struct resolved *res;
	const uint64_t *ips; /* each frame's address */
	size_t nr;
	size_t nr_chain;  /* frames that came from a chain: 0 when the sample has none */
	bool first_is_ip; /* the chain starts with the sample's own address, as res[0] */
};

struct samples {
	struct session *s;
	struct sample cur;
	const struct pr_attr *attr0; /* the recording's attrs, an array */
	bool inlines; /* chains show inlined functions as frames (the default; --no-inline) */
	size_t nr_events;
	/* the current sample's, each valid once made */
	const char *comm;
	struct resolved self;
	bool have_comm, have_self, have_frames;
	struct resolved *res;
	uint64_t *ips;
	size_t cap_res, cap_ips;
	struct sample_frames frames;
	/* off-CPU: the context-switches event, SIZE_MAX when the recording has none to convert (the pass's) */
	size_t cs_event;
	bool wall; /* samples__set_wall() */
	size_t wall_event; /* --wall: the on-CPU event counted with the off-CPU one */
	struct wall_clock wall_clock;
	/*
	 * PERF_SAMPLE_READ: each counter's last value by its id, for the
	 * periods of the samples a read is split into (open addressing)
	 */
	struct read_last *read_last;
	size_t read_cap, read_nr;
	/* call chains */
	struct unwinder *unwinder; /* made for the first sample with a user stack copy */
	uint64_t *chain;
	size_t chain_cap;
};

/* @s loaded (session__load()). 0 or -errno. */
int samples__init(struct samples *it, struct session *s);
void samples__release(struct samples *it);

typedef int (*sample_fn)(struct samples *it, const struct sample *smp, void *ctx);
typedef int (*record_fn)(const struct pr_event *ev, void *ctx);

/*
 * @on_sample for each sample in the recording's order, and @on_record
 * (when not NULL) for every other record between them. Stops at the first
 * non-zero return, which it returns; else 0 or -errno.
 */
int samples__for_each(struct samples *it, sample_fn on_sample, record_fn on_record, void *ctx);
/*
 * @on_sample for @ev as the current sample, a record the caller made (a
 * group of presum.h): no off-CPU or --wall turn of its period.
 */
int samples__feed(struct samples *it, const struct pr_event *ev, sample_fn on_sample, void *ctx);
/*
 * The same in time order, as perf sorts a recording's records before it
 * hands them on (its rings are written one after the other): records of
 * the same time in file order, a record without a time after the one
 * before it. Holds a copy of the data section while it runs.
 */
int samples__for_each_ordered(struct samples *it, sample_fn on_sample, record_fn on_record,
			      void *ctx);

/* The current sample's command at its time (interned), never NULL. */
const char *samples__comm(struct samples *it);
/* The current sample's thread's name as perf script gives it: ":TID" before it has one. */
const char *samples__comm_seen(struct samples *it);
/* The current sample's own address, resolved. */
const struct resolved *samples__self(struct samples *it);
/* The current sample's frames; valid until the next sample. 0 or -ENOMEM. */
int samples__frames(struct samples *it, const struct sample_frames **out);
/* "file.c:12" for a frame of the current sample (interned), or a "dso[+addr]" fallback. */
const char *samples__srcline(struct samples *it, const struct resolved *res);

/* "file.c:12" for a frame of the current sample (interned), or NULL when no line table has it. */
const char *samples__srcline_found(struct samples *it, const struct resolved *res);

/* The recording's events: how many, and each (NULL past the end). */
size_t samples__nr_events(const struct samples *it);
const struct pr_attr *samples__event(const struct samples *it, size_t i);
/* Event @i's name as its samples have it ("offcpu-time" for switch-outs made into time). */
const char *samples__event_name(const struct samples *it, size_t i);
/* Whether event @i's samples' periods are nanoseconds. */
bool samples__event_ns(const struct samples *it, size_t i);
/* Whether the recording's switch-outs become offcpu-time samples (record --off-cpu). */
bool samples__have_offcpu(const struct samples *it);
/*
 * --wall: every sample's period in nanoseconds, on-CPU samples of the first
 * sampling event and the offcpu-time ones; the others are left out.
 * -ENOENT when the recording has no off-CPU samples.
 */
int samples__set_wall(struct samples *it);
/* The current sample's task state (offcpu__state(); "running" on CPU). */
const char *samples__state(struct samples *it);
/* Whether any event's samples carry call chains (or user stacks to unwind). */
bool samples__have_chains(const struct samples *it);
/* How far the pass is, 0 to 1. */
double samples__progress(const struct samples *it);

#endif
