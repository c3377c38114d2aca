/* SPDX-License-Identifier: GPL-2.0 */
/* jrec record: the recorder's private context, shared by the record/ files only. */
#ifndef JREC_RECORD_H
#define JREC_RECORD_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "perf-writer.h"
#include "bidcache.h"
#include "buf.h"
#include "jitdump-copy.h"
#include "jmmap-client.h"
#include "perfmap-watch.h"

enum record_event {
	REC_EV_CYCLES,
	REC_EV_INSTRUCTIONS,
	REC_EV_CPU_CLOCK,
	REC_EV_TASK_CLOCK,
};

struct record_opts {
	const char *output;
	uint64_t freq;	 /* samples per second, when period is 0 */
	uint64_t period; /* -c */
	enum record_event event;
	int event_given;
	int callchain;
	unsigned int mmap_pages;
	int quiet, verbose;
	int no_jmmap, no_buildid_cache;
	const char *buildid_dir;
	pid_t pid;
	int system_wide;
	int argc;
	char **argv;   /* the workload, NULL-terminated */
	int full_argc; /* jrec's own command line, for CMDLINE */
	char **full_argv;
};

struct rec_ring {
	int fd;
	int cpu;
	void *base; /* the mmap: control page, then data */
	size_t data_size;
	uint64_t wakeups;
};

struct record {
	struct record_opts opts;
	struct perf_event_attr attr;
	const char *event_name;
	int *fds;
	uint64_t *ids;
	int *out_fds; /* the ring fd each event writes into, -1 for ring owners */
	size_t nr_fds;
	struct rec_ring *rings;
	size_t nr_rings;

	struct perf_writer *w;
	struct bidcache *bid;
	char buildid_dir[4096];
	struct jmmap_client *jm;
	char jmmap_reason[256];
	int jm_broken; /* the module's stream was malformed: stop reading it */

	struct jitdump_copy **jitdumps;
	size_t nr_jitdumps;
	struct perfmap_watch **perfmaps;
	size_t nr_perfmaps;
	struct buf perfmap_lines; /* JREC_FEAT_PERFMAP entries */

	uint64_t t0; /* CLOCK_MONOTONIC before the events were enabled */
	uint64_t last_tick;
	uint64_t nr_samples, nr_lost, nr_lost_records;
	uint64_t nr_rounds;
	uint64_t kernel_text;
	int kernel_text_err;

	pid_t child;
	int go_fd, err_fd; /* workload start and exec-error pipes */
	int child_exited;
	int child_status;
	int sig_fd;
	int pid_fd;	 /* -p target */
	int stop_signal; /* SIGINT/SIGTERM received */
};

#define REC_TICK_NS 10000000ull /* perf-map and jitdump polling interval */

uint64_t rec_now(void);

/* events.c */
int rec_events_open(struct record *r);
int rec_events_mmap(struct record *r);
int rec_events_enable(struct record *r);
int rec_events_disable(struct record *r);
/* Move every ring's records to the file and look at them. 0 or -errno. */
int rec_events_drain(struct record *r);
void rec_events_close(struct record *r);

/* workload.c */
int rec_workload_prepare(struct record *r);
int rec_workload_start(struct record *r);
/* Reap the child if it exited. 1 if it has, 0 if not, -errno. */
int rec_workload_reap(struct record *r);

/* synth.c: records for what existed before the events were enabled. */
int rec_synth_kernel(struct record *r);
int rec_synth_process(struct record *r, pid_t pid);
int rec_synth_all(struct record *r);

/* watch.c: side files and binaries, driven by the records seen. */
int rec_watch_record(struct record *r, const struct perf_event_header *h);
int rec_watch_pid(struct record *r, uint32_t pid);
/* Whole jmmap records just read: file-backed executable MMAP3s go to the cache. */
int rec_watch_jmmap(struct record *r, const uint8_t *bytes, size_t len);
int rec_watch_tick(struct record *r, int final);
void rec_watch_free(struct record *r);

/* features.c */
int rec_features_write(struct record *r);

#endif
