// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record's command line: its options, --help, and their checks into
 * struct record_opts (record.h). See Documentation/man/jrec-record.1.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "commands.h"
#include "record.h"
#include "tracefs.h"

#define DEFAULT_OUTPUT "jrec.data"
#define DEFAULT_FREQ 4000
#define DEFAULT_MMAP_PAGES 128
#define DWARF_MMAP_PAGES 1024 /* with --call-graph dwarf: 4 MiB, about 480 samples of 8 KiB */
/*
 * -z: zstd level 6 rather than perf's 1. At a profiler's data rates it costs about
 * 1% of a CPU, and its lazy matching writes a sixth less than levels 1 to 5.
 */
#define DEFAULT_ZSTD_LEVEL 6

enum {
	OPT_NO_JMMAP = 256,
	OPT_NO_BUILDID_CACHE,
	OPT_BUILDID_DIR,
	OPT_ARCHIVE,
	OPT_CALL_GRAPH,
	OPT_COMPRESSION_LEVEL,
	OPT_NO_INHERIT,
	OPT_OFF_CPU,
	OPT_NO_PERFMAP_CODE,
	OPT_DELAY,
	OPT_SWITCH_OUTPUT,
	OPT_SWITCH_MAX_FILES,
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "event", required_argument, NULL, 'e' },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "pid", required_argument, NULL, 'p' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
	{ "tid", required_argument, NULL, 't' },
	{ "uid", required_argument, NULL, 'u' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "delay", required_argument, NULL, 'D' },
	{ "clockid", required_argument, NULL, 'k' },
	{ "switch-output", optional_argument, NULL, OPT_SWITCH_OUTPUT },
	{ "switch-max-files", required_argument, NULL, OPT_SWITCH_MAX_FILES },
	{ "no-jmmap", no_argument, NULL, OPT_NO_JMMAP },
	{ "no-buildid-cache", no_argument, NULL, OPT_NO_BUILDID_CACHE },
	{ "no-perfmap-code", no_argument, NULL, OPT_NO_PERFMAP_CODE },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "archive", no_argument, NULL, OPT_ARCHIVE },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "compression-level", optional_argument, NULL, OPT_COMPRESSION_LEVEL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: jrec record [OPTIONS] -- COMMAND [ARGS]\n"
		"       jrec record [OPTIONS] -p PID[,PID...]|-t TID|-u USER [-- COMMAND [ARGS]]\n"
		"       jrec record [OPTIONS] -a|-C CPUS [-- COMMAND [ARGS]]\n"
		"\n"
		"  -o, --output FILE       write to FILE (default jrec.data; an existing file\n"
		"                          is kept as FILE.old); -: perf's pipe format on\n"
		"                          standard output (not a terminal), the command's\n"
		"                          output going to stderr\n"
		"  -F, --freq HZ           sample at HZ samples per second (default %d; above\n"
		"                          kernel.perf_event_max_sample_rate, lowered to it)\n"
		"  -c, --count N           sample every N events instead\n"
		"  -e, --event EVENTS      the sampled events as perf names them: hardware (cycles,\n"
		"                          the default, instructions, branch-misses...), software\n"
		"                          (cpu-clock, task-clock, page-faults...), cache\n"
		"                          (L1-dcache-load-misses...), raw (rHEX) or tracepoints\n"
		"                          (SYSTEM:NAME, from tracefs), with perf's modifiers\n"
		"                          :u :k :h :G :H :p; several as a,b or repeated -e;\n"
		"                          '{a,b}[:MODS]' a group; cycles falls back to\n"
		"                          cpu-clock without hardware counters\n"
		"  -g                      record call chains: frame pointers (--call-graph fp)\n"
		"      --call-graph MODE   fp: frame pointers; dwarf[,SIZE]: copy the user\n"
		"                          registers and SIZE bytes of user stack (default 8192)\n"
		"                          per sample, unwound with DWARF CFI at report time\n"
		"  -m, --mmap-pages N      ring buffer pages per CPU, a power of two (default %d,\n"
		"                          %d with --call-graph dwarf);\n"
		"                          a size with K or M is rounded up to pages\n"
		"      --off-cpu           also record where threads wait, for jrec report's\n"
		"                          offcpu-time event and wall-clock view: summed in the\n"
		"                          kernel by BPF where allowed, else (or with dwarf)\n"
		"                          every context switch with its call chain and\n"
		"                          PERF_RECORD_SWITCH (JREC_OFFCPU_NO_BPF forces that)\n"
		"  -p, --pid PID[,PID...]  attach to running processes and their threads; with a\n"
		"                          COMMAND, record them while COMMAND runs (not COMMAND)\n"
		"  -t, --tid TID           attach to one thread of a running process\n"
		"  -u, --uid USER          attach to the processes USER (a name or uid) runs\n"
		"  -a, --all-cpus          record the whole system\n"
		"  -C, --cpu CPUS          record the whole system on these CPUs only (0,2-3)\n"
		"  -D, --delay MSECS       enable the events MSECS after the start (the command's\n"
		"                          mappings and comms are recorded from its start)\n"
		"  -k, --clockid CLOCK     the events' clock: jrec's is always CLOCK_MONOTONIC\n"
		"                          (monotonic, mono or 1, as perf takes them), the clock\n"
		"                          of jitdump files and of the module's records\n"
		"      --no-inherit        not the children the command starts, its own threads\n"
		"                          neither (as perf's --no-inherit)\n"
		"  -z, --compression-level[=N]\n"
		"                          compress the records with zstd at level N (1-22,\n"
		"                          default %d), as perf record -z does\n"
		"      --switch-output[=signal|SIZE|TIME]\n"
		"                          write OUTPUT.<timestamp> files, each a whole\n"
		"                          recording, switching on SIGUSR2 (signal, the\n"
		"                          default), when a file's data reaches SIZE (10M) or\n"
		"                          when it is TIME old (30s, 2m)\n"
		"      --switch-max-files N\n"
		"                          with --switch-output: keep the newest N files of\n"
		"                          this recording, removing the oldest\n"
		"  -q, --quiet             print nothing but errors\n"
		"  -v, --verbose           say more about what is recorded\n"
		"      --no-jmmap          do not use the jmmap module even if it is loaded\n"
		"      --no-buildid-cache  do not copy mapped binaries into the build-id cache\n"
		"      --no-perfmap-code   do not copy the code of sampled perf-map JIT symbols\n"
		"                          out of the processes (for jrec annotate)\n"
		"      --buildid-dir DIR   build-id cache directory (default $JREC_BUILDID_DIR,\n"
		"                          else ~/.cache/jrec)\n"
		"      --archive           then store the symbols of the sampled files in the\n"
		"                          recording, as jrec archive does\n"
		"  -h, --help              this help\n"
		"\n"
		"Recording stops when the command exits, the process exits (-p), or on\n"
		"SIGINT/SIGTERM; the exit status is the command's.\n",
		DEFAULT_FREQ, DEFAULT_MMAP_PAGES, DWARF_MMAP_PAGES, DEFAULT_ZSTD_LEVEL);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -EINVAL;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static int parse_pages(const char *s, unsigned int *pages)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t v, mult = 0;
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -EINVAL;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		mult = 1024;
	else if (*end == 'M' || *end == 'm')
		mult = 1024 * 1024;
	else if (*end)
		return -EINVAL;
	if (mult) {
		if (end[1] || v > (1ull << 30) / mult)
			return -EINVAL;
		v = (v * mult + (uint64_t)page - 1) / (uint64_t)page;
		while (v & (v - 1))
			v += v & -v; /* round up to a power of two */
	}
	if (!v || (v & (v - 1)) || v > (1u << 20))
		return -EINVAL;
	*pages = (unsigned int)v;
	return 0;
}

/*
 * --switch-output[=signal|SIZE|TIME] as perf takes it: "signal" (the
 * default) switches on SIGUSR2; SIZE with B, K, M or G when the file's
 * data reaches it; TIME with s, m, h or d when the file is that old.
 */
static int parse_switch_output(const char *s, struct record_opts *o)
{
	static const struct {
		char unit;
		uint64_t size, ns;
	} units[] = {
		{ 'B', 1, 0 }, { 'K', 1ull << 10, 0 }, { 'M', 1ull << 20, 0 }, { 'G', 1ull << 30, 0 },
		{ 's', 0, 1000000000ull }, { 'm', 0, 60000000000ull },
		{ 'h', 0, 3600000000000ull }, { 'd', 0, 86400000000000ull },
	};
	uint64_t v;
	char *end;
	size_t i;

	o->switch_output = 1;
	o->switch_size = o->switch_ns = 0;
	if (!s || !strcmp(s, "signal"))
		return 0;
	errno = 0;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	v = strtoull(s, &end, 10);
	if (errno || !v || !*end || end[1])
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t mult = units[i].size ? units[i].size : units[i].ns;

		if ((*end != units[i].unit && !(units[i].size && *end == units[i].unit + 32)) ||
		    v > UINT64_MAX / mult)
			continue;
		if (units[i].size)
			o->switch_size = v * mult;
		else
			o->switch_ns = v * mult;
		return 0;
	}
	return -EINVAL;
}

/* The process of thread @tid (/proc/TID/status "Tgid:"), or -1. */
static pid_t thread_group(pid_t tid)
{
	char path[64], line[256];
	long tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &tgid) == 1)
			break;
	fclose(f);
	return tgid > 0 && tgid <= INT32_MAX ? (pid_t)tgid : -1;
}

static int add_pid(struct record_opts *o, pid_t pid)
{
	size_t i;

	for (i = 0; i < o->nr_pids; i++)
		if (o->pids[i] == pid)
			return 0;
	if (array_grow(&o->pids, &o->cap_pids, o->nr_pids + 1))
		return -ENOMEM;
	o->pids[o->nr_pids++] = pid;
	o->pid = o->pids[0];
	return 0;
}

/* -p PID[,PID...], as perf takes it. */
static int parse_pids(const char *s, struct record_opts *o)
{
	char one[24];
	uint64_t v;

	while (*s) {
		size_t n = strcspn(s, ",");

		if (!n || n >= sizeof(one))
			return -EINVAL;
		memcpy(one, s, n);
		one[n] = 0;
		if (parse_u64(one, &v) || !v || v > INT32_MAX || add_pid(o, (pid_t)v))
			return -EINVAL;
		s += n;
		if (*s && !*++s)
			return -EINVAL; /* a trailing comma */
	}
	return o->nr_pids ? 0 : -EINVAL;
}

/*
 * -k as perf takes it: a clock's name, with or without CLOCK_ and in any
 * case, perf's short names, or its number. jrec records with
 * CLOCK_MONOTONIC only, the clock jitdump files, perf maps' readers and the
 * module's records are timed by: 0, or -EINVAL after one line.
 */
static int check_clockid(const char *arg)
{
	static const char *const other[] = { "realtime", "real", "monotonic_raw", "raw",
					     "boottime", "boot", "tai" };
	const char *n = strncasecmp(arg, "CLOCK_", 6) ? arg : arg + 6;
	char *end;
	long id = strtol(arg, &end, 10);
	size_t i;

	if ((*arg && !*end && id == CLOCK_MONOTONIC) || !strcasecmp(n, "monotonic") ||
	    !strcasecmp(n, "mono"))
		return 0;
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (!strcasecmp(n, other[i]))
			break;
	if (i < sizeof(other) / sizeof(other[0]) || (*arg && !*end))
		fprintf(stderr, "jrec record: -k %s: jrec records with CLOCK_MONOTONIC only "
				"(-k mono), the clock of jitdump files and the module's records\n", arg);
	else
		fprintf(stderr, "jrec record: -k %s: unknown clock (monotonic, mono or 1)\n", arg);
	return -EINVAL;
}

/* -C CPU[-CPU][,...]: the CPUs, ascending, each once, all below the configured count. */
static int parse_cpus(const char *s, struct record_opts *o)
{
	long max = sysconf(_SC_NPROCESSORS_CONF);
	uint8_t *set = calloc((size_t)(max > 0 ? max : 1), 1);
	long i;
	int err = set ? 0 : -ENOMEM;

	while (!err && *s) {
		char *end;
		long a, b;

		if (*s < '0' || *s > '9')
			break;
		a = b = strtol(s, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				break;
			b = strtol(end + 1, &end, 10);
		}
		if (a > b || b >= max || (*end && *end != ',') || (*end == ',' && !end[1])) {
			err = -EINVAL;
			break;
		}
		for (i = a; i <= b; i++)
			set[i] = 1;
		s = *end ? end + 1 : end;
	}
	if (*s)
		err = -EINVAL;
	free(o->cpus);
	o->cpus = NULL;
	o->nr_cpus = 0;
	for (i = 0; !err && i < max; i++) {
		if (!set[i])
			continue;
		if (array_grow(&o->cpus, &o->cap_cpus, o->nr_cpus + 1))
			err = -ENOMEM;
		else
			o->cpus[o->nr_cpus++] = (int)i;
	}
	free(set);
	if (!err && !o->nr_cpus)
		err = -EINVAL;
	o->system_wide = 1;
	return err;
}

/*
 * -u USER (a name or a uid): the processes that user runs now, as perf's
 * -u takes them (each /proc/PID owned by the uid), jrec itself left out.
 * 0, or -EINVAL after printing the error.
 */
static int user_pids(struct record_opts *o)
{
	struct passwd *pw = getpwnam(o->user);
	struct dirent *de;
	uid_t uid;
	uint64_t v;
	DIR *d;

	if (pw) {
		uid = pw->pw_uid;
	} else if (!parse_u64(o->user, &v) && v < UINT32_MAX) {
		uid = (uid_t)v;
	} else {
		fprintf(stderr, "jrec record: -u %s: no such user\n", o->user);
		return -EINVAL;
	}
	d = opendir("/proc");
	if (!d) {
		fprintf(stderr, "jrec record: -u: cannot read /proc: %s\n", strerror(errno));
		return -EINVAL;
	}
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);
		char path[64];
		struct stat st;

		if (pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		if (add_pid(o, (pid_t)pid)) {
			closedir(d);
			fprintf(stderr, "jrec record: -u: out of memory\n");
			return -EINVAL;
		}
	}
	closedir(d);
	if (!o->nr_pids) {
		fprintf(stderr, "jrec record: -u %s: the user runs no process\n", o->user);
		return -EINVAL;
	}
	return 0;
}

/*
 * -e SYSTEM:NAME with globs: the tracepoints of tracefs that match, in its
 * order, in place of the glob. 0, or -EINVAL after one line.
 */
static int expand_glob(struct record_opts *o, size_t i)
{
	char tps[EVENT_LIST_MAX][2][64];
	const struct event_spec *e = &o->events.ev[i];
	char why[256], glob[64];
	size_t n;
	int err;

	snprintf(glob, sizeof(glob), "%s", e->name);
	err = tracefs__glob(o->tracefs, e->tp_sys, e->tp_name, tps, EVENT_LIST_MAX, &n);
	if (err && err != -E2BIG) {
		fprintf(stderr, "jrec record: -e %s: cannot read %s/events: %s\n", glob,
			o->tracefs, strerror(-err));
		return -EINVAL;
	}
	if (err)
		n = EVENT_LIST_MAX + 1; /* too many, whichever they are */
	if (event_list__expand(&o->events, i, tps, n, why, sizeof(why))) {
		fprintf(stderr, "jrec record: -e %s: %s in %s/events\n", glob, why, o->tracefs);
		return -EINVAL;
	}
	return 0;
}

/*
 * The id of each tracepoint of -e from tracefs. 0, or -EINVAL after one
 * line naming the tracepoint and what is wrong.
 */
static int resolve_tracepoints(struct record_opts *o)
{
	char path[4096];
	size_t i;
	int err;

	for (i = 0; i < o->events.nr; i++) {
		struct event_spec *e = &o->events.ev[i];

		if (!e->tracepoint)
			continue;
		if (!o->tracefs[0] && tracefs__find(o->tracefs, sizeof(o->tracefs))) {
			fprintf(stderr, "jrec record: -e %s: tracefs is not mounted or not readable "
					"(mount -t tracefs nodev /sys/kernel/tracing)\n", e->name);
			return -EINVAL;
		}
		if (event_spec__is_glob(e) && expand_glob(o, i))
			return -EINVAL;
		err = tracefs__tp_id(o->tracefs, e->tp_sys, e->tp_name, &e->config, path,
				     sizeof(path));
		if (err == -ENOENT) {
			fprintf(stderr, "jrec record: -e %s: no such tracepoint (%s does not exist)\n",
				e->name, path);
			return -EINVAL;
		}
		if (err) {
			fprintf(stderr, "jrec record: -e %s: cannot read %s: %s\n", e->name, path,
				strerror(-err));
			return -EINVAL;
		}
	}
	return 0;
}

/* 0 to record, 1 when --help was printed, -EINVAL after printing the error. */
int record_opts__parse(int argc, char **argv, struct record_opts *o)
{
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->output = DEFAULT_OUTPUT;
	o->freq = DEFAULT_FREQ;
	o->mmap_pages = DEFAULT_MMAP_PAGES;
	o->full_argc = argc;
	o->full_argv = argv;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:F:c:e:gm:qvp:t:u:C:D:k:azh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'F':
			if (parse_u64(optarg, &v) || !v || v > 1000000) {
				fprintf(stderr, "jrec record: invalid frequency '%s'\n", optarg);
				return -EINVAL;
			}
			o->freq = v;
			o->freq_given = 1;
			break;
		case 'c':
			if (parse_u64(optarg, &v) || !v) {
				fprintf(stderr, "jrec record: invalid period '%s'\n", optarg);
				return -EINVAL;
			}
			o->period = v;
			break;
		case 'e': {
			char why[200];

			if (event_list__parse(&o->events, optarg, why, sizeof(why))) {
				fprintf(stderr, "jrec record: -e: %s\n", why);
				return -EINVAL;
			}
			o->event_given = 1;
			break;
		}
		case OPT_NO_INHERIT:
			o->no_inherit = 1;
			break;
		case 'g':
			if (o->callgraph == CALLGRAPH_NONE)
				o->callgraph = CALLGRAPH_FP;
			break;
		case OPT_CALL_GRAPH: {
			const char *why;

			if (callgraph__parse(optarg, &o->callgraph, &o->dump_size, &why)) {
				fprintf(stderr, "jrec record: --call-graph '%s': %s\n", optarg, why);
				return -EINVAL;
			}
			break;
		}
		case 'm':
			if (parse_pages(optarg, &o->mmap_pages)) {
				fprintf(stderr, "jrec record: invalid buffer size '%s' (pages, a "
						"power of two, or a size with K or M)\n", optarg);
				return -EINVAL;
			}
			o->mmap_pages_given = 1;
			break;
		case 'q':
			o->quiet = 1;
			o->verbose = 0;
			break;
		case 'v':
			o->verbose = 1;
			o->quiet = 0;
			break;
		case 'p':
			if (parse_pids(optarg, o)) {
				fprintf(stderr, "jrec record: invalid pid list '%s' (PID[,PID...])\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'u':
			o->user = optarg;
			break;
		case 'C':
			if (parse_cpus(optarg, o)) {
				fprintf(stderr, "jrec record: invalid CPU list '%s' (like 0,2-3, CPUs "
						"this machine has)\n", optarg);
				return -EINVAL;
			}
			break;
		case 'D':
			if (parse_u64(optarg, &v) || !v || v > 86400000) {
				fprintf(stderr, "jrec record: invalid delay '%s' (milliseconds, 1 or "
						"more)\n", optarg);
				return -EINVAL;
			}
			o->delay_ms = v;
			break;
		case 'k':
			if (check_clockid(optarg))
				return -EINVAL;
			break;
		case 't':
			if (parse_u64(optarg, &v) || !v || v > INT32_MAX) {
				fprintf(stderr, "jrec record: invalid thread id '%s'\n", optarg);
				return -EINVAL;
			}
			o->tid = (pid_t)v;
			break;
		case 'a':
			o->system_wide = 1;
			break;
		case 'z':
			o->comp_level = DEFAULT_ZSTD_LEVEL;
			break;
		case OPT_COMPRESSION_LEVEL:
			o->comp_level = DEFAULT_ZSTD_LEVEL;
			if (optarg && (parse_u64(optarg, &v) || !v || v > 22)) {
				fprintf(stderr, "jrec record: invalid compression level '%s' (1-22)\n",
					optarg);
				return -EINVAL;
			}
			if (optarg)
				o->comp_level = (int)v;
			break;
		case OPT_NO_JMMAP:
			o->no_jmmap = 1;
			break;
		case OPT_NO_BUILDID_CACHE:
			o->no_buildid_cache = 1;
			break;
		case OPT_NO_PERFMAP_CODE:
			o->no_perfmap_code = 1;
			break;
		case OPT_BUILDID_DIR:
			o->buildid_dir = optarg;
			break;
		case OPT_ARCHIVE:
			o->archive = 1;
			break;
		case OPT_SWITCH_OUTPUT:
			if (parse_switch_output(optarg, o)) {
				fprintf(stderr, "jrec record: invalid --switch-output '%s' (signal, a "
						"size like 10M or a time like 30s)\n", optarg);
				return -EINVAL;
			}
			break;
		case OPT_SWITCH_MAX_FILES:
			if (parse_u64(optarg, &v) || !v || v > 1000000) {
				fprintf(stderr, "jrec record: invalid --switch-max-files '%s' (a number "
						"of files, 1 or more)\n", optarg);
				return -EINVAL;
			}
			o->switch_max_files = (unsigned int)v;
			break;
		case OPT_OFF_CPU:
			o->off_cpu = 1;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			cmd__bad_option("record", argv);
			return -EINVAL;
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	if (!o->events.nr)
		event_list__parse(&o->events, "cycles", NULL, 0);
	o->pipe = !strcmp(o->output, "-");
	if (o->pipe && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "jrec record: -o -: standard output is a terminal; send the "
				"recording into a pipe or a file\n");
		return -EINVAL;
	}
	if (o->pipe && (o->switch_output || o->archive)) {
		fprintf(stderr, "jrec record: -o - cannot be combined with %s\n",
			o->switch_output ? "--switch-output" : "--archive");
		return -EINVAL;
	}
	if (o->switch_max_files && !o->switch_output) {
		fprintf(stderr, "jrec record: --switch-max-files needs --switch-output\n");
		return -EINVAL;
	}
	if (resolve_tracepoints(o))
		return -EINVAL;
	if (o->user && (o->nr_pids || o->tid || o->system_wide)) {
		fprintf(stderr, "jrec record: -u cannot be combined with -p, -t, -a or -C\n");
		return -EINVAL;
	}
	if (o->user && user_pids(o))
		return -EINVAL;
	if (o->tid) {
		/* -t TID: its process is the target, its one thread sampled */
		pid_t tgid = thread_group(o->tid);

		if (tgid <= 0) {
			fprintf(stderr, "jrec record: -t %d: no such thread\n", (int)o->tid);
			return -EINVAL;
		}
		if (o->nr_pids && (o->nr_pids > 1 || o->pid != tgid)) {
			fprintf(stderr, "jrec record: -t %d is not a thread of -p %d\n", (int)o->tid,
				(int)o->pid);
			return -EINVAL;
		}
		if (!o->nr_pids && add_pid(o, tgid))
			return -EINVAL;
		o->pid = tgid;
	}
	/* -p PID -- COMMAND: PID is recorded while COMMAND runs, as perf's */
	if (o->nr_pids && o->system_wide) {
		fprintf(stderr, "jrec record: -p cannot be combined with -a or -C\n");
		return -EINVAL;
	}
	if (!o->pid && !o->argc && !o->system_wide) {
		fprintf(stderr, "jrec record: no command to run; usage: jrec record [OPTIONS] -- "
				"COMMAND [ARGS] (or -p PID, -u USER, -a or -C CPUS)\n");
		return -EINVAL;
	}
	/* stack copies make samples of 8 KiB or more: a bigger ring, as a quarter wakes the reader */
	if (o->callgraph == CALLGRAPH_DWARF && !o->mmap_pages_given)
		o->mmap_pages = DWARF_MMAP_PAGES;
	if (o->period && o->freq != DEFAULT_FREQ) {
		fprintf(stderr, "jrec record: -F and -c exclude each other\n");
		return -EINVAL;
	}
	return 0;
}

void record_opts__free(struct record_opts *o)
{
	free(o->pids);
	free(o->cpus);
	o->pids = NULL;
	o->cpus = NULL;
	o->nr_pids = o->cap_pids = o->nr_cpus = o->cap_cpus = 0;
}
