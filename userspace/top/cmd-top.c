// SPDX-License-Identifier: GPL-2.0
/*
 * jrec top: live hot spots. The recorder (jrec record, this program run
 * again) writes a recording into a private directory; at every refresh the
 * report's session opens what it holds so far (a recording not yet finished
 * is reportable up to its last whole record) and its samples are counted
 * through the report's pass (samples.h) into a histogram, each weighing 7/8
 * less for every refresh interval since it was taken, as perf top's decay.
 * The JIT side files of the processes shown are copied as they are written
 * (side-files.c) and given to each session as the recording's own sections,
 * so JIT functions keep their names after their process and files are gone.
 * The histogram goes to the report's browser, or with --stdio, a table per
 * refresh.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "report/browser.h"
#include "report/hist.h"
#include "report/samples.h"
#include "report/session.h"
#include "side-files.h"

static const char top_usage[] =
	"usage: jrec top [OPTIONS] [-- COMMAND [ARGS]]\n"
	"\n"
	"Live hot spots of the whole system (the default), of one process (-p) or of a\n"
	"command run for it, refreshed in the report's browser (? lists its keys) or,\n"
	"with --stdio, printed as a table at every refresh.\n"
	"\n"
	"  -p, --pid PID           only this process\n"
	"  -a, --all-cpus          the whole system (the default without -p or COMMAND)\n"
	"  -d, --delay SECONDS     refresh every SECONDS (default 2; fractions too)\n"
	"  -E, --entries N         show at most N entries (default: all in the browser, 20\n"
	"                          with --stdio)\n"
	"  -F, --freq HZ           samples per second (default as jrec record: 4000)\n"
	"  -s, --sort KEYS         comma-separated: comm,pid,tid,dso,sym,srcline,buildid,\n"
	"                          state\n"
	"                          (default comm,dso,sym)\n"
	"      --tui               the browser (the default on a terminal)\n"
	"      --stdio             a table on standard output at every refresh, until\n"
	"                          interrupted or COMMAND exits\n"
	"  -h, --help              this text\n";

enum { OPT_STDIO = 256, OPT_TUI };

static const struct option top_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "delay", required_argument, NULL, 'd' },
	{ "entries", required_argument, NULL, 'E' },
	{ "freq", required_argument, NULL, 'F' },
	{ "sort", required_argument, NULL, 's' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define DECAY_STEPS 64 /* (7/8)^64 < 2e-4: a sample that old no longer counts */
#define SIDE_POLL_MS 100 /* the side files are read this often */
#define STDIO_ROWS 20

struct top {
	/* options */
	pid_t pid;
	double delay;
	size_t entries;
	const char *freq;
	const char *sort;
	int tui; /* -1: on a terminal */
	char **argv; /* -- COMMAND */
	/* the run */
	char dir[64], data[96], log[96];
	pid_t recorder, workload;
	int workload_status;
	int go, exec_err; /* start_workload()'s pipes until release_workload(), else -1 */
	uint32_t last_pid; /* the last process given to side_files__add() */
	struct side_files side;
	uint64_t next_refresh, delay_ns;
	/* the current refresh: its session, pass and histogram */
	struct session s;
	bool open;
	struct kernel_carry kernel; /* the kernel's symbols, read once for all refreshes */
	struct samples it;
	struct hist h;
	struct report_meta meta;
	struct browser_query built; /* what h was counted for */
	uint64_t now;		    /* the refresh's time: samples decay from it */
	double decay[DECAY_STEPS];
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* 0, 1 after --help, or JREC_EXIT_USAGE after the error is printed. */
static int parse_args(struct top *t, int argc, char **argv)
{
	char *end;
	long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+p:ad:E:F:s:h", top_opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > 0x7fffffff) {
				fprintf(stderr, "jrec top: bad pid '%s'\n", optarg);
				return JREC_EXIT_USAGE;
			}
			t->pid = (pid_t)v;
			break;
		case 'a':
			break;
		case 'd':
			t->delay = strtod(optarg, &end);
			if (*end || !(t->delay >= 0.05 && t->delay <= 3600)) {
				fprintf(stderr, "jrec top: bad delay '%s' (seconds, 0.05 to 3600)\n",
					optarg);
				return JREC_EXIT_USAGE;
			}
			break;
		case 'E':
			v = strtol(optarg, &end, 10);
			if (*end || v <= 0) {
				fprintf(stderr, "jrec top: bad number of entries '%s'\n", optarg);
				return JREC_EXIT_USAGE;
			}
			t->entries = (size_t)v;
			break;
		case 'F':
			v = strtol(optarg, &end, 10);
			if (*end || v <= 0 || v > 1000000) {
				fprintf(stderr, "jrec top: bad frequency '%s'\n", optarg);
				return JREC_EXIT_USAGE;
			}
			t->freq = optarg;
			break;
		case 's':
			t->sort = optarg;
			break;
		case OPT_STDIO:
			t->tui = 0;
			break;
		case OPT_TUI:
			t->tui = 1;
			break;
		case 'h':
			fputs(top_usage, stdout);
			return 1;
		default:
			return cmd__bad_option("top", argv);
		}
	}
	if (optind < argc)
		t->argv = argv + optind;
	if (t->pid && t->argv) {
		fprintf(stderr, "jrec top: -p and a COMMAND exclude each other\n");
		return JREC_EXIT_USAGE;
	}
	return 0;
}

/*
 * COMMAND's process, held before its exec until the recorder follows it
 * (release_workload()), so that nothing it starts is missed; it is the
 * process shown. 0 or -errno.
 */
static int start_workload(struct top *t)
{
	int fds[2], go[2], err;
	ssize_t n;
	char c;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	t->workload = fork();
	if (t->workload < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		close(go[0]);
		close(go[1]);
		return err;
	}
	if (!t->workload) {
		close(fds[0]);
		close(go[1]);
		/* the browser owns the terminal: the command reads and writes none of it */
		if (t->tui) {
			int null = open("/dev/null", O_RDWR | O_CLOEXEC);

			if (null >= 0) {
				dup2(null, STDIN_FILENO);
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
		}
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127); /* top gave up before the recorder followed */
		execvp(t->argv[0], t->argv);
		err = errno;
		n = write(fds[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(fds[1]);
	close(go[0]);
	t->exec_err = fds[0];
	t->go = go[1];
	t->pid = t->workload;
	return 0;
}

/* COMMAND let go, once the recorder follows its process: 0, or -errno after its exec's error is printed. */
static int release_workload(struct top *t)
{
	ssize_t n;
	int err = 0;

	n = write(t->go, "g", 1);
	close(t->go);
	t->go = -1;
	if (n == 1)
		n = read(t->exec_err, &err, sizeof(err));
	close(t->exec_err);
	t->exec_err = -1;
	if (n == sizeof(err)) {
		fprintf(stderr, "jrec top: %s: %s\n", t->argv[0], strerror(err));
		waitpid(t->workload, NULL, 0);
		t->workload = 0;
		return -err;
	}
	return 0;
}

/*
 * The recorder, into the private directory, until its recording has its
 * header. 0 or -errno after the error is printed.
 */
static int start_recorder(struct top *t)
{
	char pid[16];
	const char *args[16];
	struct stat st;
	int n = 0, i, fd;

	args[n++] = "jrec";
	args[n++] = "record";
	args[n++] = "-q";
	args[n++] = "--no-buildid-cache";
	args[n++] = "-o";
	args[n++] = t->data;
	if (t->freq) {
		args[n++] = "-F";
		args[n++] = t->freq;
	}
	if (t->pid) {
		snprintf(pid, sizeof(pid), "%d", (int)t->pid);
		args[n++] = "-p";
		args[n++] = pid;
	} else {
		args[n++] = "-a";
	}
	args[n] = NULL;
	t->recorder = fork();
	if (t->recorder < 0) {
		fprintf(stderr, "jrec top: %s\n", strerror(errno));
		return -errno;
	}
	if (!t->recorder) {
		fd = open(t->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		execv("/proc/self/exe", (char *const *)args);
		_exit(127);
	}
	/* up to 10 s for the recording to start */
	for (i = 0; i < 1000; i++) {
		if (waitpid(t->recorder, NULL, WNOHANG) == t->recorder) {
			char line[512] = "";
			FILE *f = fopen(t->log, "r");

			if (f) {
				if (fgets(line, sizeof(line), f))
					line[strcspn(line, "\n")] = '\0';
				fclose(f);
			}
			fprintf(stderr, "jrec top: the recorder stopped: %s\n",
				*line ? line : "no message");
			t->recorder = 0;
			return -ECHILD;
		}
		if (!stat(t->data, &st) && st.st_size > 1024)
			return 0;
		usleep(10000);
	}
	fprintf(stderr, "jrec top: the recorder did not start in 10 s (%s)\n", t->log);
	return -ETIMEDOUT;
}

/* A sample's period, decayed by 7/8 for each refresh interval of its age. */
static int count_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct top *t = ctx;
	uint64_t age = t->now > smp->time ? (t->now - smp->time) / t->delay_ns : 0;
	const struct resolved *res;
	struct hist_key k;
	uint64_t w;

	if (age >= DECAY_STEPS)
		return 0;
	w = (uint64_t)((double)smp->period * t->decay[age]);
	if (!w)
		return 0;
	/* the whole system: each process's side files are followed from its first sample */
	if (!t->pid && smp->pid && smp->pid != t->last_pid) {
		if (side_files__add(&t->side, smp->pid))
			return -ENOMEM;
		t->last_pid = smp->pid;
	}
	res = samples__self(it);
	if (!browser_zoom__keeps_task(&t->built.zoom, smp->pid, smp->tid) ||
	    !browser_zoom__keeps_dso(&t->built.zoom, res))
		return 0;
	hist_key__set(&k, t->h.has[SK_COMM] || t->h.has[SK_PID] ? samples__comm(it) : NULL, smp->pid, smp->tid, res);
	if (t->h.has[SK_SRCLINE])
		k.srcline = samples__srcline(it, res);
	if (t->h.has[SK_STATE])
		k.state = samples__state(it);
	return hist__add(&t->h, &k, w);
}

/* The current session's samples counted for @q. 0 or -errno. */
static int count(struct top *t, const struct browser_query *q)
{
	char bad[64];
	int err;

	hist__release(&t->h);
	if (hist__set_sort(&t->h, q->sort, bad, sizeof(bad)))
		return -EINVAL;
	t->h.flame_root = CT_NONE;
	t->built = *q;
	err = samples__for_each(&t->it, count_sample, NULL, t);
	if (!err)
		hist__sort(&t->h);
	return err;
}

/* A new refresh: the recording as it is now, with the side files copied so far. 0 or -errno. */
static int refresh(struct top *t)
{
	const void *jd, *pm;
	size_t jlen, plen;
	char err_msg[256];
	int err;

	t->now = mono_ns();
	side_files__update(&t->side, t->now);
	if (t->open) {
		samples__release(&t->it);
		session__kernel_keep(&t->s, &t->kernel);
		session__close(&t->s);
		t->open = false;
	}
	err = session__open(&t->s, t->data, err_msg, sizeof(err_msg));
	if (err)
		return err;
	t->open = true;
	session__kernel_from(&t->s, &t->kernel);
	err = side_files__payloads(&t->side, &jd, &jlen, &pm, &plen);
	if (err)
		return err;
	session__add_side_files(&t->s, jd, jlen, pm, plen);
	session__set_live(&t->s);
	err = session__load(&t->s);
	if (!err)
		err = samples__init(&t->it, &t->s);
	if (!err)
		err = count(t, &t->built);
	if (err)
		return err;
	t->meta.file = "jrec top";
	t->meta.event = samples__nr_events(&t->it) ? samples__event(&t->it, 0)->name : "";
	t->meta.lost = t->s.nr_lost;
	return 0;
}

/* The browser's source: the refresh's histogram, counted again for another sort or zoom. */
static int top_build(void *ctx, const struct browser_query *q, struct browser_data *d)
{
	struct top *t = ctx;
	int err;

	if (strcmp(q->sort, t->built.sort) || !browser_zoom__equal(&q->zoom, &t->built.zoom)) {
		err = count(t, q);
		if (err)
			return err;
	}
	d->h = &t->h;
	d->m = &t->meta;
	return 0;
}

/* Side files every tick; a new refresh every delay. */
static int top_tick(void *ctx)
{
	struct top *t = ctx;
	uint64_t now = mono_ns();

	if (stop_signal)
		return -EINTR; /* SIGTERM, SIGHUP (the terminal went away): end as q does */
	if (now < t->next_refresh) {
		side_files__update(&t->side, now);
		return 0;
	}
	t->next_refresh = now + t->delay_ns;
	return refresh(t) ? -EIO : 1;
}

/* One table; -EPIPE when its reader has gone. */
static int print_table(struct top *t)
{
	struct hist shown = t->h;
	size_t width[SK_MAX], i;

	printf("jrec top: Samples: %llu of event '%s', Event count (approx.): %llu\n",
	       (unsigned long long)t->h.total_samples, t->meta.event,
	       (unsigned long long)t->h.total_period);
	/* the columns as wide as the rows shown need */
	if (shown.nr > t->entries)
		shown.nr = t->entries;
	hist__stdio_widths(&shown, &t->meta, width);
	hist__print_columns(&shown, &t->meta, width, stdout);
	for (i = 0; i < shown.nr; i++)
		hist__print_row(&shown, &shown.e[i], &t->meta, width, stdout);
	putchar('\n');
	return fflush(stdout) || ferror(stdout) ? -EPIPE : 0;
}

/* Whether COMMAND (when there is one) has exited. */
static bool workload_done(struct top *t)
{
	if (t->workload && waitpid(t->workload, &t->workload_status, WNOHANG) == t->workload)
		t->workload = 0;
	return t->argv && !t->workload;
}

/* --stdio: a table every delay, until a signal or COMMAND's end. */
static int run_stdio(struct top *t)
{
	int err = 0;

	while (!stop_signal && !err) {
		bool last = workload_done(t);
		uint64_t now = mono_ns();

		if (now < t->next_refresh) {
			side_files__update(&t->side, now);
			usleep(SIDE_POLL_MS * 1000);
			continue;
		}
		t->next_refresh = now + t->delay_ns;
		err = refresh(t);
		if (!err)
			err = print_table(t);
		if (last)
			break;
	}
	return err;
}

static void cleanup(struct top *t)
{
	if (t->go >= 0)
		close(t->go); /* a command never let go ends before its exec */
	if (t->exec_err >= 0)
		close(t->exec_err);
	if (t->workload) {
		kill(t->workload, SIGTERM);
		waitpid(t->workload, NULL, 0);
	}
	if (t->recorder) {
		kill(t->recorder, SIGINT);
		waitpid(t->recorder, NULL, 0);
	}
	if (t->open) {
		samples__release(&t->it);
		session__close(&t->s);
	}
	kernel_carry__release(&t->kernel);
	hist__release(&t->h);
	side_files__release(&t->side);
	if (t->dir[0]) {
		unlink(t->data);
		unlink(t->log);
		rmdir(t->dir);
	}
}

int cmd_top(int argc, char **argv)
{
	struct top t = { .delay = 2.0, .sort = "comm,dso,sym", .tui = -1, .go = -1, .exec_err = -1 };
	struct browser_source src = { .name = "jrec top", .build = top_build, .tick = top_tick,
				      .interval_ms = SIDE_POLL_MS, .ctx = &t };
	struct sigaction sa = { .sa_handler = on_stop };
	const char *tmpdir = getenv("TMPDIR");
	char bad[64];
	size_t i;
	int ret = parse_args(&t, argc, argv);

	if (ret)
		return ret == 1 ? 0 : ret;
	if (hist__set_sort(&t.h, t.sort, bad, sizeof(bad))) {
		fprintf(stderr, "jrec top: unknown sort key '%s' "
				"(comm,pid,tid,dso,sym,srcline,buildid,state)\n", bad);
		return JREC_EXIT_USAGE;
	}
	if (t.tui < 0)
		t.tui = browser__usable();
	else if (t.tui && !browser__usable()) {
		fprintf(stderr, "jrec top: --tui: the browser needs a terminal that TERM names on "
				"standard input and output\n");
		return JREC_EXIT_USAGE;
	}
	if (!t.tui && !t.entries)
		t.entries = STDIO_ROWS;
	snprintf(t.built.sort, sizeof(t.built.sort), "%s", t.sort);
	t.delay_ns = (uint64_t)(t.delay * 1e9);
	t.decay[0] = 1.0;
	for (i = 1; i < DECAY_STEPS; i++)
		t.decay[i] = t.decay[i - 1] * 7.0 / 8.0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	snprintf(t.dir, sizeof(t.dir), "%s/jrec-top.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (strlen(t.dir) + 16 > sizeof(t.data) || !mkdtemp(t.dir)) {
		fprintf(stderr, "jrec top: cannot make a directory for the recording: %s\n",
			strerror(errno));
		t.dir[0] = '\0';
		return 1;
	}
	snprintf(t.data, sizeof(t.data), "%s/top.data", t.dir);
	snprintf(t.log, sizeof(t.log), "%s/record.log", t.dir);
	ret = t.argv ? start_workload(&t) : 0;
	if (!ret && t.pid)
		ret = side_files__add(&t.side, (uint32_t)t.pid);
	if (!ret)
		ret = start_recorder(&t);
	if (!ret && t.argv)
		ret = release_workload(&t);
	if (!ret) {
		/* after the children started: they keep the default */
		signal(SIGPIPE, SIG_IGN);
		t.next_refresh = mono_ns() + t.delay_ns;
		if (t.tui) {
			/* the first screen at once, from what the recording holds already */
			ret = refresh(&t);
			src.max_rows = t.entries;
			if (!ret)
				ret = browser__run(&src, &t.built);
		} else {
			ret = run_stdio(&t);
		}
		if (ret == -EPIPE || ret == -EINTR)
			ret = 0; /* the reader of the tables quit, or a signal ended the run */
		if (ret && ret != -ECHILD && ret != -ETIMEDOUT)
			fprintf(stderr, "jrec top: %s\n", strerror(-ret));
	}
	cleanup(&t);
	return ret ? 1 : 0;
}
