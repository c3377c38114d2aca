// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: run a command (or attach to a pid, or the whole system) and
 * record its profile into a perf.data file. See Documentation/man/jrec-record.1.
 */
#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bidcache-dir.h"
#include "buildid-cache.h"
#include "commands.h"
#include "jmmap-reader.h"
#include "map-names.h"
#include "perf-file.h"
#include "procfs.h"
#include "record.h"

#define STOP_GRACE_NS 3000000000ull /* SIGTERM, then SIGKILL after this */

/* A number in a /proc/sys file, or @dflt. */
static long sysctl_long(const char *path, long dflt)
{
	struct buf b = BUF_INIT;
	long v = dflt;

	if (!procfs_read_file(path, &b) && b.len) {
		char tmp[24] = "";

		memcpy(tmp, b.data, b.len < 23 ? b.len : 23);
		v = strtol(tmp, NULL, 10);
	}
	buf__release(&b);
	return v;
}

static int paranoid_level(void)
{
	return (int)sysctl_long("/proc/sys/kernel/perf_event_paranoid", 2);
}

/* -F above what the kernel allows is lowered to its maximum, as perf does. */
static void limit_freq(struct record *r)
{
	long max = sysctl_long("/proc/sys/kernel/perf_event_max_sample_rate", 0);

	if (r->opts.period || max <= 0 || r->opts.freq <= (uint64_t)max)
		return;
	if (!r->opts.quiet)
		fprintf(stderr, "jrec record: info: -F %llu Hz is above the kernel's maximum sample "
				"rate, sampling at %ld Hz (kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)r->opts.freq, max);
	r->opts.freq = (uint64_t)max;
}

static void events_error(struct record *r, int err)
{
	if (r->cs_failed && (err == -EACCES || err == -EPERM))
		fprintf(stderr,
			"jrec record: --off-cpu: context-switch events with kernel call chains are not "
			"permitted (kernel.perf_event_paranoid = %d); run as root, give jrec "
			"CAP_PERFMON, or lower it with: sysctl kernel.perf_event_paranoid=1\n",
			paranoid_level());
	else if (r->cs_failed)
		fprintf(stderr, "jrec record: --off-cpu: cannot open the context-switch event: %s\n",
			strerror(-err));
	else if (err == -EACCES || err == -EPERM)
		fprintf(stderr,
			"jrec record: no permission to open perf events (kernel.perf_event_paranoid"
			" = %d); run as root, give jrec CAP_PERFMON, or lower it with: sysctl "
			"kernel.perf_event_paranoid=%d\n",
			paranoid_level(), r->opts.system_wide ? -1 : 1);
	else if (err == -ESRCH)
		fprintf(stderr, "jrec record: no such process: %d\n", (int)r->opts.pid);
	else if (err == -EINVAL && r->open_failed_ev >= 0 &&
		 r->ev[r->open_failed_ev].leader != (size_t)r->open_failed_ev)
		fprintf(stderr, "jrec record: event %s cannot join its group: %s\n",
			r->ev[r->open_failed_ev].name, strerror(-err));
	else if (err == -EMFILE)
		fprintf(stderr, "jrec record: too many open files for the events; raise "
				"'ulimit -n'\n");
	else if (err == -ENODEV && r->opts.cpus)
		fprintf(stderr, "jrec record: -C: a CPU listed is offline\n");
	else if (err == -ENOENT || err == -EOPNOTSUPP)
		fprintf(stderr, "jrec record: event %s is not supported on this machine\n",
			r->open_failed_ev >= 0 ? r->ev[r->open_failed_ev].name : "?");
	else
		fprintf(stderr, "jrec record: cannot open perf events: %s\n", strerror(-err));
}

static int keep_old_output(const char *path)
{
	char old[4096];
	struct stat st;

	if (stat(path, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return 0; /* a device, a fifo, an empty file: nothing to keep */
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return -ENAMETOOLONG;
	if (rename(path, old))
		return -errno;
	return 0;
}

static int setup_signals(struct record *r, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGHUP);
	if (r->opts.switch_output)
		sigaddset(&set, SIGUSR2); /* --switch-output: the next file */
	if (sigprocmask(SIG_BLOCK, &set, old))
		return -errno;
	r->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sig_fd < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, old, NULL);
		return err;
	}
	return 0;
}

static void read_signals(struct record *r)
{
	struct signalfd_siginfo si;

	while (read(r->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP)
			r->stop_signal = (int)si.ssi_signo;
		else if (si.ssi_signo == SIGUSR2)
			r->switch_pending = 1;
	}
}

/*
 * The module's records go to an unlinked file beside the output once they
 * pass a megabyte: a long recording of a JIT that maps code all the time
 * does not hold them all in memory. Without such a file they stay there.
 */
static void spool_jmmap(struct record *r)
{
	char *dir = strdup(r->opts.output);
	int err;

	if (!dir)
		return;
	err = jmmap_client__spool_in(r->jm, dirname(dir));
	if (err && r->opts.verbose)
		fprintf(stderr, "jrec record: module records kept in memory (no file in %s: %s)\n",
			dir, strerror(-err));
	free(dir);
}

static int setup_jmmap(struct record *r)
{
	int err;

	if (r->opts.no_jmmap) {
		snprintf(r->jmmap_reason, sizeof(r->jmmap_reason), "--no-jmmap given");
	} else {
		err = jmmap_client__open(NULL, &r->jm, r->jmmap_reason, sizeof(r->jmmap_reason));
		if (!err && !r->opts.nr_pids) {
			/* a workload not yet exec'ed only has jrec's own mappings */
			err = jmmap_client__add_target(r->jm, (uint32_t)r->child,
						       r->opts.system_wide, r->opts.argc == 0);
		}
		for (size_t i = 0; !err && i < r->opts.nr_pids; i++)
			err = jmmap_client__add_target(r->jm, (uint32_t)r->opts.pids[i], 0, 1);
		if (r->jm) {
			if (err) {
				snprintf(r->jmmap_reason, sizeof(r->jmmap_reason),
					 "cannot target the workload: %s", strerror(-err));
				jmmap_client__free(r->jm);
				r->jm = NULL;
			}
		}
	}
	if (r->jm)
		spool_jmmap(r);
	if (!r->jm && !r->opts.quiet)
		fprintf(stderr, "jrec record: running without the jmmap module: %s\n",
			r->jmmap_reason);
	else if (r->jm && r->opts.verbose)
		fprintf(stderr, "jrec record: using jmmap %s (ABI %u)\n",
			r->jm->version.module_version, r->jm->version.abi_version);
	return 0;
}

static void kernel_text(struct record *r)
{
	struct buf b = BUF_INIT;

	r->kernel_text_err = procfs_read_file("/proc/kallsyms", &b);
	if (!r->kernel_text_err)
		r->kernel_text_err = procfs_parse_kallsyms_sym((const char *)b.data, b.len,
							       "_text", &r->kernel_text);
	buf__release(&b);
	if (r->kernel_text_err && r->opts.verbose)
		fprintf(stderr, "jrec record: no kernel _text address (%s)\n",
			strerror(-r->kernel_text_err));
}

/* Stop the workload: SIGTERM, then SIGKILL if it lingers. */
static void stop_child(struct record *r, uint64_t *term_at)
{
	if (r->child <= 0 || r->child_exited)
		return;
	if (!*term_at) {
		kill(r->child, SIGTERM);
		*term_at = recorder__now();
	} else if (recorder__now() - *term_at > STOP_GRACE_NS) {
		kill(r->child, SIGKILL);
	}
}

/* Whether every -p process has exited (each pidfd readable). */
static int target_gone(struct record *r)
{
	size_t i;

	if (!r->nr_pid_fds)
		return 0;
	for (i = 0; i < r->nr_pid_fds; i++) {
		struct pollfd p = { r->pid_fds[i], POLLIN, 0 };

		if (poll(&p, 1, 0) <= 0)
			return 0;
	}
	return 1;
}

/*
 * One of the module's MMAP3s as it is read (@name its filename), with
 * perf's own mapping records on: what the watches do with it, nothing for a
 * JIT's "//anon", the most common of all, which has no file for them. With
 * perf's off, synth__on_mmap3() writes its MMAP2 first.
 */
static int on_mmap3(const struct jmmap_rec_mmap3 *m, const char *name, void *ctx)
{
	if (map_name__is_slash_anon(name))
		return 0;
	return watch__jmmap(ctx, m, name);
}

/* Read the module's records and look at the new ones. */
static int read_jmmap(struct record *r)
{
	struct jm_scan_mmap3 each = { r->mmap2_from_jmmap ? synth__on_mmap3 : on_mmap3, r, 0,
				      &r->map_events };
	int err, watched;

	if (r->jm_broken)
		return 0;
	err = jmmap_client__read(r->jm, &each);
	/* the perf map of the process whose JIT code came last (synth__mmap3()) */
	watched = synth__anon_watch(r);
	if (!err)
		err = watched;
	if (err == -EINVAL) {
		/* keep sampling; the records read so far are kept */
		if (!r->opts.quiet)
			fprintf(stderr, "jrec record: warning: malformed record from /dev/jmmap; "
					"module records stop here\n");
		r->jm_broken = 1;
		return 0;
	}
	return err;
}

/*
 * -D: the events were opened disabled (no enable_on_exec); they are enabled
 * once the delay has passed since the workload started (or the recording,
 * without one), as perf's --delay does.
 */
static int enable_after_delay(struct record *r)
{
	int err;

	if (!r->delay_until || recorder__now() < r->delay_until)
		return 0;
	r->delay_until = 0;
	err = events__enable(r);
	if (!err && !r->opts.quiet)
		fprintf(stderr, "jrec record: events enabled after %llu ms\n",
			(unsigned long long)r->opts.delay_ms);
	return err;
}

/* --switch-output: SIGUSR2 came, or the file reached its size or age. */
static int switch_due(const struct record *r)
{
	const struct record_opts *o = &r->opts;

	return o->switch_output &&
	       (r->switch_pending ||
		(o->switch_size && perf_writer__data_size(r->w) >= o->switch_size) ||
		(o->switch_ns && recorder__now() - r->file_t0 >= o->switch_ns));
}

/* The records so far end a round, the file is finished and the next one begun. */
static int switch_output(struct record *r)
{
	int err;

	r->switch_pending = 0;
	r->last_round = 0;
	r->round_written = 1;
	r->anon_last.pid = 0; /* the next file has its own MMAP2s */
	err = events__end_round(r);
	return err ? err : output__switch(r, 0);
}

static int main_loop(struct record *r)
{
	struct pollfd *pfd;
	uint64_t term_at = 0;
	size_t i, n = 0;
	int err = 0;

	pfd = calloc(r->nr_rings + 4, sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	for (i = 0; i < r->nr_rings; i++)
		pfd[n++] = (struct pollfd){ r->rings[i].fd, POLLIN, 0 };
	pfd[n++] = (struct pollfd){ r->sig_fd, POLLIN, 0 };
	if (r->jm)
		pfd[n++] = (struct pollfd){ r->jm->fd, POLLIN, 0 };
	if (r->inotify_fd >= 0)
		pfd[n++] = (struct pollfd){ r->inotify_fd, POLLIN, 0 };
	for (;;) {
		int done;

		if (poll(pfd, n, (int)(RECORDER_TICK_NS / 1000000)) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		/*
		 * A ring whose events ended (their task exited: POLLHUP, as
		 * long as the descriptor is open) is still drained each pass
		 * but no longer polled, as perf does: between the workload's
		 * exit and its reaping it would wake every poll at once.
		 */
		for (i = 0; i < r->nr_rings; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				pfd[i].fd = -1;
		/* first, so that a perf-map line is timed as close to its write as can be */
		err = watch__inotify(r);
		if (err)
			break;
		read_signals(r);
		err = enable_after_delay(r);
		if (!err)
			err = events__drain(r);
		if (!err && r->jm)
			err = read_jmmap(r);
		if (!err)
			err = events__end_round(r);
		if (!err)
			err = watch__tick(r, 0);
		if (!err && switch_due(r))
			err = switch_output(r);
		if (err)
			break;
		if (r->child > 0 && workload__reap(r) < 0)
			break;
		done = (r->child > 0 && r->child_exited) || target_gone(r);
		if (r->stop_signal) {
			if (r->child > 0 && !r->child_exited)
				stop_child(r, &term_at);
			else
				done = 1;
		}
		if (done)
			break;
	}
	free(pfd);
	return err;
}

/*
 * Keep the cache within its limit ($JREC_BUILDID_CACHE_SIZE): the least
 * recently used entries go, never one this recording used. Best effort.
 */
static void prune_buildid_cache(struct record *r)
{
	uint64_t limit, bytes;
	size_t n;
	int err;

	if (!r->buildid_dir[0])
		return;
	if (buildid_cache__default_limit(&limit)) {
		if (!r->opts.quiet)
			fprintf(stderr, "jrec record: warning: invalid JREC_BUILDID_CACHE_SIZE; "
					"the cache is not pruned\n");
		return;
	}
	if (!limit)
		return;
	err = bidcache_dir__prune(r->buildid_dir, limit, &r->cache_t0, &n, &bytes);
	if (err && !r->opts.quiet)
		fprintf(stderr, "jrec record: warning: cannot prune the build-id cache: %s\n",
			strerror(-err));
	else if (n && r->opts.verbose)
		fprintf(stderr, "jrec record: build-id cache over its limit: %zu least recently "
				"used entries (%.3f MB) removed\n",
			n, (double)bytes / (1024.0 * 1024.0));
}

static int finish(struct record *r)
{
	int err;

	events__disable(r);
	err = events__drain(r);
	if (!err && r->jm)
		err = read_jmmap(r);
	if (!err)
		err = events__end_round(r);
	if (!err && r->jm && !r->jm_broken)
		jmmap_client__sync_lost(r->jm); /* best effort: the stream's LOST counts stand */
	if (!err)
		err = watch__inotify(r);
	if (!err)
		err = watch__tick(r, 1);
	if (r->bid) {
		if (r->opts.verbose)
			fprintf(stderr, "jrec record: waiting for the build-id cache\n");
		bidcache__stop(r->bid);
		prune_buildid_cache(r);
	}
	if (!err)
		err = offcpu_bpf__write(r);
	if (r->opts.switch_output)
		return err ? err : output__switch(r, 1);
	if (!err)
		err = features__write(r, 0);
	if (!err)
		err = perf_writer__finish(r->w);
	return err;
}

static void closing_line(struct record *r)
{
	double mb = (double)perf_writer__file_size(r->w) / (1024.0 * 1024.0);
	uint64_t lost = r->nr_lost + (r->jm ? r->jm->lost : 0);
	char zinfo[96] = "", switches[128] = "", unsummed[64] = "";

	if (r->opts.verbose && r->bid) {
		unsigned int c[8], linked, cloned;

		bidcache__counts(r->bid, c);
		bidcache__saved_by(r->bid, &linked, &cloned);
		fprintf(stderr, "[ jrec record: build-id cache: %u saved (%u hard links, %u "
				"reflinks, %u copies), %u already cached, %u mismatched, %u "
				"vanished ]\n",
			c[JREC_FILE_SAVED], linked, cloned, c[JREC_FILE_SAVED] - linked - cloned,
			c[JREC_FILE_CACHED], c[JREC_FILE_MISMATCH], c[JREC_FILE_VANISHED]);
	}
	if (r->opts.quiet)
		return;
	if (r->opts.comp_level) {
		uint64_t raw, comp;

		perf_writer__compression(r->w, &raw, &comp);
		snprintf(zinfo, sizeof(zinfo), ", compressed (original %.3f MB, ratio is %.3f)",
			 (double)raw / (1024.0 * 1024.0), comp ? (double)raw / (double)comp : 0.0);
	}
	if (r->offcpu_dropped)
		snprintf(unsummed, sizeof(unsummed), ", %llu more not summed: the map was full",
			 (unsigned long long)r->offcpu_dropped);
	if (r->opts.off_cpu)
		snprintf(switches, sizeof(switches), " and %llu context switches%s",
			 (unsigned long long)r->nr_switch_samples, unsummed);
	if (r->opts.switch_output) {
		fprintf(stderr, "[ jrec record: Captured and wrote %u files %s.<timestamp> (%llu "
				"samples, %llu lost) ]\n", r->nr_switches, r->opts.output,
			(unsigned long long)r->nr_samples, (unsigned long long)lost);
		return;
	}
	fprintf(stderr, "[ jrec record: Captured and wrote %.3f MB %s%s (%llu samples%s, %llu module "
			"records, %llu lost) ]\n",
		mb, r->opts.pipe ? "to standard output" : r->opts.output, zinfo,
		(unsigned long long)r->nr_samples, switches,
		(unsigned long long)(r->jm ? r->jm->nr_records : 0), (unsigned long long)lost);
}

static void cleanup(struct record *r)
{
	if (r->go_fd >= 0)
		close(r->go_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
	if (r->child > 0 && !r->child_exited) {
		kill(r->child, SIGKILL);
		workload__reap(r);
	}
	events__close(r);
	offcpu_bpf__free(r);
	watch__free(r);
	ksamples__free(r);
	perfmap_code__free(r);
	bidcache__free(r->bid);
	jmmap_client__free(r->jm);
	perf_writer__free(r->w);
	if (r->sig_fd >= 0)
		close(r->sig_fd);
	for (size_t i = 0; i < r->nr_pid_fds; i++)
		close(r->pid_fds[i]);
	free(r->pid_fds);
	for (unsigned int i = 0; r->kept && i < r->opts.switch_max_files; i++)
		free(r->kept[i]);
	free(r->kept);
}

/*
 * A pidfd of each -p process, so that the recording ends when all have
 * exited; one that exited already is left out, all of them is an error.
 * 0, or -ESRCH after printing it.
 */
static int open_pids(struct record *r)
{
	size_t i, gone = 0;

	r->pid_fds = calloc(r->opts.nr_pids, sizeof(*r->pid_fds));
	if (!r->pid_fds)
		return -ENOMEM;
	for (i = 0; i < r->opts.nr_pids; i++) {
		int fd = (int)syscall(SYS_pidfd_open, r->opts.pids[i], 0);

		if (fd >= 0)
			r->pid_fds[r->nr_pid_fds++] = fd;
		gone += fd < 0 && errno == ESRCH;
	}
	if (gone == r->opts.nr_pids) {
		fprintf(stderr, "jrec record: no such process: %d\n", (int)r->opts.pid);
		return -ESRCH;
	}
	return 0;
}

static int setup_output(struct record *r)
{
	int err = r->opts.pipe ? 0 : keep_old_output(r->opts.output);

	if (err) {
		fprintf(stderr, "jrec record: cannot create %s: %s\n", r->opts.output,
			strerror(-err));
		return err;
	}
	return output__open(r);
}

static int setup_buildid_cache(struct record *r)
{
	const char *dir = NULL;
	int err;

	if (!r->opts.no_buildid_cache) {
		if (r->opts.buildid_dir)
			snprintf(r->buildid_dir, sizeof(r->buildid_dir), "%s", r->opts.buildid_dir);
		else if (buildid_cache__default_dir(r->buildid_dir, sizeof(r->buildid_dir)))
			r->buildid_dir[0] = '\0';
		if (r->buildid_dir[0])
			dir = r->buildid_dir;
	}
	clock_gettime(CLOCK_REALTIME, &r->cache_t0); /* entries used from now on are this run's */
	r->cache_t0.tv_sec -= 1; /* directory times may be coarser than the clock */
	err = bidcache__new(dir, &r->bid);
	if (err == -EACCES || err == -EROFS || err == -ENOTDIR || err == -EEXIST) {
		if (!r->opts.quiet)
			fprintf(stderr, "jrec record: warning: build-id cache %s unusable (%s); "
					"binaries will not be saved\n", dir, strerror(-err));
		r->buildid_dir[0] = '\0';
		err = bidcache__new(NULL, &r->bid);
	}
	if (err)
		fprintf(stderr, "jrec record: cannot start the build-id cache: %s\n",
			strerror(-err));
	return err;
}

int cmd_record(int argc, char **argv)
{
	struct record r;
	sigset_t old_mask;
	int err, status = 1, masked = 0;

	memset(&r, 0, sizeof(r));
	r.go_fd = r.err_fd = r.sig_fd = r.inotify_fd = -1;
	err = record_opts__parse(argc, argv, &r.opts);
	if (err) {
		record_opts__free(&r.opts);
		return err > 0 ? 0 : 2;
	}
	limit_freq(&r);

	err = setup_signals(&r, &old_mask);
	masked = !err;
	if (err) {
		fprintf(stderr, "jrec record: cannot set up signals: %s\n", strerror(-err));
		goto out;
	}
	kernel_text(&r);
	if (r.opts.nr_pids && open_pids(&r))
		goto out;
	if (r.opts.argc) {
		err = workload__prepare(&r);
		if (err) {
			fprintf(stderr, "jrec record: cannot start the workload: %s\n",
				strerror(-err));
			goto out;
		}
	}
	err = setup_buildid_cache(&r);
	if (err)
		goto out;
	if (r.opts.off_cpu) {
		char why[160];

		/* before the events: which event --off-cpu adds depends on it */
		if (offcpu_bpf__start(&r, why, sizeof(why)) && !r.opts.quiet)
			fprintf(stderr, "jrec record: --off-cpu samples each context switch, not "
					"summed in the kernel: %s\n", why);
	}
	/* before the events: with the module, perf's mapping records are off */
	setup_jmmap(&r);
	r.mmap2_from_jmmap = r.jm != NULL;
	err = events__open(&r);
	if (err) {
		events_error(&r, err);
		goto out;
	}
	err = events__mmap(&r);
	if (err) {
		fprintf(stderr, "jrec record: cannot map the ring buffers (%s); try a smaller "
				"-m or raise kernel.perf_event_mlock_kb\n", strerror(-err));
		goto out;
	}
	err = setup_output(&r);
	if (!err)
		err = watch__init(&r);
	if (err)
		goto out;

	r.t0 = r.file_t0 = recorder__now();
	err = synth__kernel(&r);
	/* a workload's events start at its exec (enable_on_exec), -D's after it; others now */
	if (!err && !r.ev[0].attr.enable_on_exec && !r.opts.delay_ms)
		err = events__enable(&r);
	else if (!err && r.opts.delay_ms && !r.ev[r.track].attr.enable_on_exec)
		err = events__enable_tracking(&r);
	for (size_t i = 0; !err && i < r.opts.nr_pids; i++)
		err = synth__process(&r, r.opts.pids[i]);
	if (!err && !r.opts.nr_pids && r.opts.system_wide)
		err = synth__all(&r);
	if (!err && r.child > 0 && !r.opts.nr_pids)
		err = watch__pid(&r, (uint32_t)r.child, recorder__now());
	for (size_t i = 0; !err && i < r.opts.nr_pids; i++)
		err = watch__pid(&r, (uint32_t)r.opts.pids[i], recorder__now());
	for (size_t i = 0; !err && i < r.opts.nr_pids; i++)
		err = offcpu_bpf__follow(&r, r.opts.pids[i]);
	/* the workload's waits count from here: it waits for the go before its exec */
	if (!err && r.child > 0 && !r.opts.nr_pids && !r.opts.system_wide)
		err = offcpu_bpf__follow(&r, r.child);
	if (!err)
		err = perf_writer__finished_init(r.w);
	if (!err)
		err = perf_writer__flush(r.w);
	if (err) {
		fprintf(stderr, "jrec record: cannot write %s: %s\n", r.opts.output,
			strerror(-err));
		goto out;
	}
	if (r.opts.argc) {
		err = workload__start(&r);
		if (err) {
			fprintf(stderr, "jrec record: cannot run '%s': %s\n", r.opts.argv[0],
				strerror(-err));
			workload__reap(&r);
			status = 127;
			if (!r.opts.pipe)
				unlink(r.opts.output);
			goto out;
		}
	}
	if (r.opts.delay_ms) {
		r.delay_until = recorder__now() + r.opts.delay_ms * 1000000ull;
		if (!r.opts.quiet)
			fprintf(stderr, "jrec record: events disabled for %llu ms (-D)\n",
				(unsigned long long)r.opts.delay_ms);
	}
	err = main_loop(&r);
	if (!err)
		err = finish(&r);
	if (err) {
		fprintf(stderr, "jrec record: error while recording to %s: %s\n", r.opts.output,
			strerror(-err));
		goto out;
	}
	closing_line(&r);
	if (r.child > 0)
		status = r.child_status;
	else
		status = 0;
	/* a failed archive (its error on stderr) fails the run only if the workload did not */
	if (r.opts.archive &&
	    archive__file(r.opts.switch_output ? r.switched_name : r.opts.output, r.opts.quiet) &&
	    !status)
		status = 1;
out:
	cleanup(&r);
	if (masked)
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	record_opts__free(&r.opts);
	return status;
}
