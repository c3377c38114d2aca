/* SPDX-License-Identifier: GPL-2.0 */
/* jrec record: the recorder's private context, shared by the record/ files only. */
#ifndef JREC_RECORD_H
#define JREC_RECORD_H

#include <stdint.h>
#include <time.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "event-spec.h"
#include "perf-writer.h"
#include "bidcache.h"
#include "callgraph.h"
#include "buf.h"
#include "jitdump-copy.h"
#include "jmmap-client.h"
#include "perfmap-watch.h"

struct record_opts {
	const char *output;
	int pipe; /* -o -: perf's pipe format on standard output */
	uint64_t freq;	 /* samples per second, when period is 0 */
	uint64_t period; /* -c */
	struct event_list events; /* -e, in order; default cycles */
	int event_given;
	int freq_given; /* -F given: tracepoints sample by it too, as perf's */
	int no_inherit; /* --no-inherit: not the workload's children */
	enum callgraph_mode callgraph;
	uint32_t dump_size; /* --call-graph dwarf,SIZE */
	unsigned int mmap_pages;
	int mmap_pages_given;
	int quiet, verbose;
	int no_jmmap, no_buildid_cache;
	int no_perfmap_code; /* --no-perfmap-code */
	int comp_level; /* -z: zstd level of the data section, 0 = not compressed */
	const char *buildid_dir;
	int switch_output; /* --switch-output: 1 signal, else size or time as below */
	uint64_t switch_size; /* bytes of data section */
	uint64_t switch_ns;
	unsigned int switch_max_files; /* --switch-max-files: keep this many, 0 all */
	int archive; /* --archive: jrec archive the output when done */
	int off_cpu;  /* --off-cpu: a context-switch event beside the sampling one */
	pid_t pid;   /* the first of pids, 0 without -p/-t/-u */
	pid_t *pids; /* -p PID,PID...; -u's processes; -t's process */
	size_t nr_pids, cap_pids;
	pid_t tid; /* -t: only this thread of process pid */
	const char *user; /* -u as given */
	int system_wide; /* -a, or -C */
	int *cpus; /* -C: the CPUs, ascending; NULL: all */
	size_t nr_cpus, cap_cpus;
	char tracefs[4096]; /* where the tracepoints of -e were found */
	uint64_t delay_ms; /* -D: events enabled this long after the start */
	int argc;
	char **argv;   /* the workload, NULL-terminated */
	int full_argc; /* jrec's own command line, for CMDLINE */
	char **full_argv;
};

struct events_ring {
	int fd;
	int cpu;
	void *base; /* the mmap: control page, then data */
	size_t data_size;
	uint64_t wakeups;
};

/*
 * One event of the recording: -e's in order, then --off-cpu's context
 * switches, then with -D or -C perf's "dummy:HG" that tracks (mappings,
 * comms, tasks) while the sampling events wait for the delay, or on every
 * CPU. Without it the first event tracks, as perf's first does. The
 * tracking event's sample_id layout is every record's that is no sample.
 */
struct record_event {
	struct perf_event_attr attr;
	char name[72];	/* as EVENT_DESC names it */
	size_t leader;	/* its group's leader's index; its own when alone */
	size_t nr_members; /* a leader's events in its group */
	int is_cs;	/* --off-cpu: context-switches with call chains and PERF_RECORD_SWITCH */
	int is_bpf;	/* --off-cpu's offcpu-time, summed in the kernel: never opened */
	int all_cpus;	/* opened on every CPU, -C's or not */
	uint64_t nr_samples;
};

/* An fd's id and the event it is of, sorted by id: whose sample is this. */
struct record_id {
	uint64_t id;
	size_t ev;
};

struct record {
	struct record_opts opts;
	struct record_event *ev;
	size_t nr_ev;
	size_t track; /* the tracking event's index */
	uint64_t track_id; /* the id of its first fd, in synthesized records */
	int *fds;
	uint64_t *ids;
	size_t *fd_ev;	/* the event of the fd of the same index */
	int cs_failed;	/* the error of events__open() is --off-cpu's event's */
	int open_failed_ev; /* the event whose open failed, -1 */
	struct offcpu_skel *offcpu_bpf; /* --off-cpu summed in the kernel (offcpu-bpf.c) */
	uint64_t offcpu_id; /* the id of its offcpu-time event, one no fd has */
	uint64_t offcpu_dropped; /* waits its full map could not sum */
	struct record_id *by_id; /* every fd's id, sorted */
	size_t nr_by_id;
	int *out_fds; /* the ring fd each event writes into, -1 for ring owners */
	size_t nr_fds;
	struct events_ring *rings;
	size_t nr_rings;

	struct perf_writer *w;
	struct bidcache *bid;
	char buildid_dir[4096];
	struct timespec cache_t0; /* cache entries used since are this recording's */
	struct jmmap_client *jm;
	/* perf's mapping records are off: synth__mmap3() writes them (events.c) */
	int mmap2_from_jmmap;
	char jmmap_reason[256];
	int jm_broken; /* the module's stream was malformed: stop reading it */

	struct jitdump_copy **jitdumps;
	size_t nr_jitdumps;
	struct perfmap_watch **perfmaps;
	size_t nr_perfmaps;
	int inotify_fd; /* perf maps and their /tmp, -1: polled */
	struct buf perfmap_lines; /* JREC_FEAT_PERFMAP entries */
	struct perfmap_code *pmcode; /* perf-map symbols' code read from the processes */

	uint64_t t0; /* CLOCK_MONOTONIC before the events were enabled */
	uint64_t delay_until; /* -D: when the events are to be enabled, 0 once they are */
	/* --switch-output: this file's start and first sample, the files written */
	uint64_t file_t0, file_first_sample;
	unsigned int nr_switches;
	int switch_pending; /* SIGUSR2 */
	char switched_name[4200];
	/* --switch-max-files: the names of the files kept, a ring; the newest at kept_cur */
	char **kept;
	unsigned int kept_cur;
	uint64_t last_tick;
	uint64_t nr_samples, nr_lost, nr_lost_records;
	uint64_t nr_switch_samples; /* --off-cpu: the samples that are switch-outs */
	uint64_t nr_rounds, last_round;
	int round_written; /* records written since the last FINISHED_ROUND */
	/*
	 * The MMAP2 of an anonymous code mapping as synth__mmap3() last encoded
	 * it, sample_id included: the next one changes only its numbers.
	 */
	uint8_t anon_mmap2[128];
	uint16_t anon_mmap2_size;
	uint8_t anon_mmap2_idlen; /* its sample_id's bytes, at the end */
	/*
	 * The process of the last "//anon" code synth__mmap3() wrote, not yet
	 * given to watch__pid() (0: none), and that mapping's time: a JIT's run
	 * of mappings asks once a read of the module's records, not once each
	 * (synth__anon_watch()).
	 */
	uint32_t anon_watch_pid;
	uint64_t anon_watch_time;
	/*
	 * What could change stock perf's maps, counted as it is seen: records
	 * of the perf rings but samples, of the module's but MMAP3 and MUNMAP
	 * (jmmap_reader__scan()), and records jrec writes but "//anon" MMAP2s.
	 */
	uint64_t map_events;
	/*
	 * The last "//anon" MMAP2 written (pid 0: none) and map_events then:
	 * one of the same process with the same numbers, its tid and time
	 * aside, is not written again while map_events has not moved (a W^X
	 * JIT making the same pages executable over and over), since stock
	 * perf's maps are the same with it or without it (jrec-data.rst,
	 * "MMAP2 records in jmmap mode").
	 */
	struct {
		uint32_t pid, prot, flags;
		uint64_t start, len, pgoff, map_events;
	} anon_last;
	uint64_t kernel_text;
	int kernel_text_err;
	uint64_t *kaddrs; /* kernel addresses in the samples (ksamples.c) */
	size_t nr_kaddrs, cap_kaddrs, kaddrs_compact;

	pid_t child;
	int go_fd, err_fd; /* workload start and exec-error pipes */
	int child_exited;
	int child_status;
	int sig_fd;
	int *pid_fds;	 /* -p targets' pidfds */
	size_t nr_pid_fds;
	int stop_signal; /* SIGINT/SIGTERM received */
};

/*
 * The sample_id trailer every record carries: {pid, tid}, time, the id with
 * several events (PERF_SAMPLE_ID), {cpu, res} with -a, and the id again
 * with PERF_SAMPLE_IDENTIFIER (several events of different sample layouts,
 * or --off-cpu). The tracking event's: the records that are no samples are
 * its.
 */
static inline size_t record__trailer_size(const struct record *r)
{
	uint64_t st = r->ev[r->track].attr.sample_type;

	return 16 + (st & PERF_SAMPLE_ID ? 8 : 0) + (st & PERF_SAMPLE_CPU ? 8 : 0) +
	       (st & PERF_SAMPLE_IDENTIFIER ? 8 : 0);
}

#define RECORDER_TICK_NS 10000000ull /* jitdump polling, and perf maps inotify does not cover */
#define ROUND_NS 100000000ull /* a FINISHED_ROUND at most this often */

/* The recorder's clock: CLOCK_MONOTONIC in nanoseconds, the records' own. */
static inline uint64_t recorder__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* options.c: 0 to record, 1 after --help, -EINVAL after printing the error */
int record_opts__parse(int argc, char **argv, struct record_opts *o);
void record_opts__free(struct record_opts *o);

/* events.c */
int events__open(struct record *r);
/* The event sample @h is of (by its id; the first without ids). */
const struct record_event *events__of_sample(const struct record *r,
					     const struct perf_event_header *h);
int events__mmap(struct record *r);
int events__enable(struct record *r);
/* The tracking event's alone (-D: it tracks while the others wait). */
int events__enable_tracking(struct record *r);
int events__disable(struct record *r);
/* Move every ring's records to the file and look at them. 0 or -errno. */
int events__drain(struct record *r);
/*
 * End the round of records written since the last one (FINISHED_ROUND; perf
 * sorts a round's records by time) and flush. The MMAP2s written from the
 * module's records read after a drain belong to the drain's round.
 */
int events__end_round(struct record *r);
void events__close(struct record *r);

/* workload.c */
int workload__prepare(struct record *r);
int workload__start(struct record *r);
/* Reap the child if it exited. 1 if it has, 0 if not, -errno. */
int workload__reap(struct record *r);

/* synth.c: records for what existed before the events were enabled. */
int synth__kernel(struct record *r);
int synth__process(struct record *r, pid_t pid);
int synth__all(struct record *r);
/*
 * The MMAP2 of one of the module's MMAP3s (@name its filename), when perf
 * would write one. 1 for a JIT's "//anon" code, which has no file for the
 * watches to look at (watch__jmmap()); else 0, or -errno.
 */
int synth__mmap3(struct record *r, const struct jmmap_rec_mmap3 *m, const char *name);
/*
 * The recorder's callback for each MMAP3 it reads with perf's mapping
 * records off (@ctx the record): synth__mmap3(), then the watches of what
 * is not a JIT's "//anon" (watch__jmmap()). 0 or -errno.
 */
int synth__on_mmap3(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx);
/* watch__pid() for the process synth__mmap3() left (r->anon_watch_pid), if any. 0 or -errno. */
int synth__anon_watch(struct record *r);

/* watch.c: side files and binaries, driven by the records seen. */
int watch__init(struct record *r);
/* Read the perf maps inotify says were written (r->inotify_fd is readable). */
int watch__inotify(struct record *r);
int watch__record(struct record *r, const struct perf_event_header *h);
/* The same for a mapping jrec writes itself as MMAP2 (@mm, timed @time), not read back. */
struct pr_mmap;
int watch__mapping(struct record *r, const struct pr_mmap *mm, uint64_t time);
/*
 * Watch @pid's perf map from here on, or look again whether its process
 * moved to another root (at most once a tick). @time is now or the time of
 * the mapping that asks (CLOCK_MONOTONIC, as recorder__now()): a mapping's
 * own time spares a clock read per mapping.
 */
int watch__pid(struct record *r, uint32_t pid, uint64_t time);
/*
 * One of the module's MMAP3s as it is read (@name its filename), after its
 * MMAP2 (synth__mmap3()): a file-backed executable one goes to the cache.
 */
int watch__jmmap(struct record *r, const struct jmmap_rec_mmap3 *m, const char *name);
int watch__tick(struct record *r, int final);
void watch__free(struct record *r);

/*
 * offcpu-bpf.c: --off-cpu summed in the kernel by a BPF program. start()
 * loads and attaches it, or says in @why why not (the per-switch
 * context-switches event is used then); follow() adds a process (its
 * children follow it); write() writes the sums as offcpu-time samples at
 * the end.
 */
struct offcpu_skel;
int offcpu_bpf__start(struct record *r, char *why, size_t len);
int offcpu_bpf__follow(struct record *r, pid_t pid);
void offcpu_bpf__init_attr(struct perf_event_attr *a);
int offcpu_bpf__write(struct record *r);
void offcpu_bpf__free(struct record *r);

/* ksamples.c: the kernel addresses the samples hold. */
/* Sample @h of event @e. */
int ksamples__add(struct record *r, const struct perf_event_header *h,
		  const struct record_event *e);
/* Sorted, each once. */
size_t ksamples__sorted(struct record *r, const uint64_t **addrs);
void ksamples__free(struct record *r);

/*
 * perfmap-code.c: the code of the perf-map symbols that samples hit, read
 * out of the processes as their lines are seen (JREC_FEAT_CODE).
 */
struct perfmap_code;
/* Read the code the perf-map lines at r->perfmap_lines[@from..] name. 0 or -ENOMEM. */
int perfmap_code__lines(struct record *r, size_t from);
/* Note a user address of sample @h of event @e. 0 or -ENOMEM. */
int perfmap_code__sample(struct record *r, const struct perf_event_header *h,
			 const struct record_event *e);
/* The entries of the code of the symbols that samples hit, into @b. 0 or -errno. */
int perfmap_code__emit(struct record *r, struct buf *b, size_t *nr);
void perfmap_code__free(struct record *r);

/*
 * output.c: the writer of r->opts.output with the events' attributes; then
 * (--switch-output) finish it, rename it OUTPUT.<timestamp>
 * (r->switched_name) and, unless @at_exit, open the next with the records
 * of what exists. 0 or -errno (output__open() prints its error).
 */
int output__open(struct record *r);
int output__switch(struct record *r, int at_exit);

/*
 * features.c: the feature sections, at the end or (@so_far, the build-id
 * cache's thread still running) at a --switch-output.
 */
int features__write(struct record *r, int so_far);
/* The ones known at the start, which features__write() includes but in a pipe. */
int features__write_start(struct record *r);

#endif
