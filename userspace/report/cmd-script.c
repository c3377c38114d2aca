// SPDX-License-Identifier: GPL-2.0
/*
 * jrec script: print a recording's samples in perf script's format
 * (script-format.c), with perf's filters; --show-mmap-events adds the
 * kernel's MMAP/MMAP2 records, jmmap's MMAP3/MUNMAP/EXEC records and the JIT
 * loads known from jitdump and perf maps.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "filters.h"
#include "jmmap-reader.h"
#include "samples.h"
#include "script-format.h"
#include "script-switch.h"
#include "session.h"

static const char script_usage[] =
	"usage: jrec script [OPTIONS]\n"
	"\n"
	"  -i, --input FILE        recording to read (default jrec.data; perf.data files too,\n"
	"                          pipe mode too); - reads standard input\n"
	"  -F, --fields LIST       the fields to print, perf's names: comm,tid,pid,time,cpu,\n"
	"                          event,ip,sym,symoff,dso,period,srcline,addr,misc,tod,\n"
	"                          weight,ins_lat,data_src,iregs,uregs,phys_addr,\n"
	"                          data_page_size,code_page_size,flags,callindent,ipc,\n"
	"                          srccode,insn,insnlen,trace,\n"
	"                          brstack,brstacksym,brstackoff,brstackinsn,\n"
	"                          brstackinsnlen,bpf-output,synth,metric;\n"
	"                          \"+f,-f\" add to or remove from the defaults;\n"
	"                          \"TYPE:LIST\" for one event type (hw, sw, trace, raw,\n"
	"                          break, synth)\n"
	"  -G, --hide-call-graph   print the sample's own frame, not its call chain\n"
	"      --max-stack N       print at most N frames of a call chain (default 127)\n"
	"      --ns                times with nanoseconds\n"
	"  -c, --comms LIST        only the samples of these commands\n"
	"      --pid LIST          only the samples of these processes\n"
	"      --tid LIST          only the samples of these threads\n"
	"  -C, --cpu LIST          only the samples of these CPUs (\"0-3,6\")\n"
	"  -S, --symbols LIST      only the samples in these functions\n"
	"      --dsos LIST         only the samples in these files\n"
	"      --time RANGES       only the samples in START,END (seconds; several apart\n"
	"                          by blanks) or in percentages of the recording:\n"
	"                          A%-B% or P%/N (the Nth slice of P%), apart by commas\n"
	"      --show-mmap-events  also print mapping records: MMAP/MMAP2, jmmap's MMAP3,\n"
	"                          MUNMAP and EXEC, and JIT code loads\n"
	"      --show-task-events  also print COMM/FORK/EXIT records\n"
	"      --inline            call chains with the functions inlined into their\n"
	"                          frames, from DWARF, as perf script --inline prints them\n"
	"                          (--no-inline, the default as perf script's, without)\n"
	"      --show-switch-events\n"
	"                          also print context switch records (PERF_RECORD_SWITCH\n"
	"                          of jrec record --off-cpu); the waits they end are\n"
	"                          printed as offcpu-time samples either way\n"
	"      --symfs DIR         look for the binaries, their debuginfo and the kernel's\n"
	"                          vmlinux and System.map under DIR\n"
	"  -h, --help              this text\n";

enum { OPT_MMAP = 256, OPT_TASK, OPT_SYMFS, OPT_MAX_STACK, OPT_NS, OPT_PID, OPT_TID, OPT_DSOS,
       OPT_TIME, OPT_INLINE, OPT_NO_INLINE, OPT_SWITCH };

static const struct option script_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "fields", required_argument, NULL, 'F' },
	{ "hide-call-graph", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "ns", no_argument, NULL, OPT_NS },
	{ "comms", required_argument, NULL, 'c' },
	{ "comm", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "cpu", required_argument, NULL, 'C' },
	{ "symbols", required_argument, NULL, 'S' },
	{ "dsos", required_argument, NULL, OPT_DSOS },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "show-mmap-events", no_argument, NULL, OPT_MMAP },
	{ "show-task-events", no_argument, NULL, OPT_TASK },
	{ "show-switch-events", no_argument, NULL, OPT_SWITCH },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct script {
	struct session s;
	struct samples it;
	struct script_format fmt;
	struct filters f;
	bool mmaps, tasks, inline_frames, switches;
	FILE *out;
};

static void print_time(FILE *out, uint64_t t)
{
	fprintf(out, "%5llu.%06llu", (unsigned long long)(t / 1000000000ULL),
		(unsigned long long)(t % 1000000000ULL / 1000));
}

/* Whether the filters keep the current sample. */
static bool keep(struct script *sc, struct samples *it, const struct sample *smp)
{
	const struct resolved *self;

	if (!filters__task(&sc->f, smp->pid, smp->tid, smp->time) ||
	    !filters__cpu(&sc->f, smp->cpu) || !filters__comm(&sc->f, samples__comm_seen(it)))
		return false;
	if (!sc->f.nr_syms && !sc->f.nr_dsos)
		return true;
	self = samples__self(it);
	return filters__dso(&sc->f, self->dso, self->anon_name) && filters__sym(&sc->f, self->sym);
}

static int on_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct script *sc = ctx;

	if (!keep(sc, it, smp))
		return 0;
	return script_format__sample(&sc->fmt, it, smp, sc->out);
}

static int on_record(const struct pr_event *ev, void *ctx)
{
	struct script *sc = ctx;
	uint64_t t = session__time(ev);
	int err = script_format__record(&sc->fmt, &sc->it, ev);

	if (err)
		return err;

	if (script_switch__is(ev)) {
		if (!sc->switches)
			return 0;
		fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, ev->id.tid, t),
			ev->id.tid);
		print_time(sc->out, t);
		fputs(": ", sc->out);
		script_switch__print(sc->out, ev);
		return 0;
	}
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!sc->mmaps)
			return 0;
		fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, ev->mmap.tid, t),
			ev->mmap.tid);
		print_time(sc->out, t);
		fprintf(sc->out, ": PERF_RECORD_%s %d/%u: [0x%llx(0x%llx) @ 0x%llx]: %c%c%c %s\n",
			ev->type == PERF_RECORD_MMAP ? "MMAP" : "MMAP2", (int)ev->mmap.pid,
			ev->mmap.tid, (unsigned long long)ev->mmap.start,
			(unsigned long long)ev->mmap.len, (unsigned long long)ev->mmap.pgoff,
			ev->mmap.prot & 1 ? 'r' : '-', ev->mmap.prot & 2 ? 'w' : '-',
			ev->mmap.prot & 4 ? 'x' : '-', ev->mmap.filename);
		return 0;
	case PERF_RECORD_COMM:
		if (!sc->tasks)
			return 0;
		fprintf(sc->out, "%16s %7u ", ev->comm.comm, ev->comm.tid);
		print_time(sc->out, t);
		fprintf(sc->out, ": PERF_RECORD_COMM%s: %s:%u/%u\n", ev->comm.exec ? " exec" : "",
			ev->comm.comm, ev->comm.pid, ev->comm.tid);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (!sc->tasks)
			return 0;
		fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, ev->task.tid, t),
			ev->task.tid);
		print_time(sc->out, t);
		fprintf(sc->out, ": PERF_RECORD_%s(%u:%u):(%u:%u)\n",
			ev->type == PERF_RECORD_FORK ? "FORK" : "EXIT", ev->task.pid, ev->task.tid,
			ev->task.ppid, ev->task.ptid);
		return 0;
	default:
		return 0;
	}
}

/* Indexed by enum jmmap_cause. */
static const char *const causes[] = {
	[JMMAP_CAUSE_MMAP] = "mmap",	     [JMMAP_CAUSE_MPROTECT] = "mprotect",
	[JMMAP_CAUSE_EXEC] = "exec",	     [JMMAP_CAUSE_BRK] = "brk",
	[JMMAP_CAUSE_SNAPSHOT] = "snapshot", [JMMAP_CAUSE_MREMAP] = "mremap",
};

static const char *cause_name(unsigned int cause)
{
	if (cause < sizeof(causes) / sizeof(causes[0]) && causes[cause])
		return causes[cause];
	return "?";
}

static int on_jmmap(const struct jm_event *e, void *ctx)
{
	struct script *sc = ctx;
	char hex[JREC_COOKIE_HEX_LEN];
	struct jrec_cookie c = { 0 };

	switch (e->type) {
	case JMMAP_REC_MMAP3:
		c.kind = e->cookie_kind;
		c.len = e->cookie_len;
		memcpy(c.bytes, e->cookie, c.len);
		jrec_cookie_hex(&c, hex);
		fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, e->tid, e->time), e->tid);
		print_time(sc->out, e->time);
		fprintf(sc->out,
			": JMMAP_MMAP3 %u/%u: [0x%llx(0x%llx) @ 0x%llx] vma [0x%llx-0x%llx] %c%c%c %s %s%s%s\n",
			e->pid, e->tid, (unsigned long long)e->start, (unsigned long long)e->len,
			(unsigned long long)e->pgoff, (unsigned long long)e->vma_start,
			(unsigned long long)e->vma_end, e->prot & 1 ? 'r' : '-',
			e->prot & 2 ? 'w' : '-', e->prot & 4 ? 'x' : '-',
			cause_name(e->cause), e->filename, *hex ? " cookie " : "",
			hex);
		return 0;
	case JMMAP_REC_MUNMAP:
		fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, e->tid, e->time), e->tid);
		print_time(sc->out, e->time);
		fprintf(sc->out, ": JMMAP_MUNMAP %u/%u: [0x%llx(0x%llx)]\n", e->pid, e->tid,
			(unsigned long long)e->start, (unsigned long long)e->len);
		return 0;
	case JMMAP_REC_EXEC:
		fprintf(sc->out, "%16s %7u ", e->comm, e->tid);
		print_time(sc->out, e->time);
		fprintf(sc->out, ": JMMAP_EXEC %u/%u: %s\n", e->pid, e->tid, e->filename);
		return 0;
	case JMMAP_REC_LOST:
		print_time(sc->out, e->time);
		fprintf(sc->out, ": JMMAP_LOST %llu records\n", (unsigned long long)e->lost_total);
		return 0;
	default:
		return 0;
	}
}

static void print_jit_loads(struct script *sc)
{
	const struct jit_proc *p;
	size_t it = 0, k;

	while ((p = pidmap__next(&sc->s.jit.procs, &it))) {
		for (k = 0; k < p->nr; k++) {
			const struct jit_sym *s = &p->syms[k];

			fprintf(sc->out, "%16s %7u ", session__comm_seen(&sc->s, p->pid, s->t_start),
				p->pid);
			print_time(sc->out, s->t_start);
			fprintf(sc->out, ": JIT_LOAD %s %u: [0x%llx(0x%llx)] %s\n",
				s->source == JIT_SRC_JITDUMP ? "jitdump" : "perf-map", p->pid,
				(unsigned long long)s->start, (unsigned long long)(s->end - s->start),
				s->name);
		}
	}
}

/* A filter option's argument; 0 or JREC_EXIT_USAGE. */
static int add_filter(struct script *sc, int kind, const char *opt, const char *arg)
{
	if (!filters__parse(&sc->f, kind, arg))
		return 0;
	fprintf(stderr, "jrec script: %s: bad argument '%s'\n", opt, arg);
	return JREC_EXIT_USAGE;
}

int cmd_script(int argc, char **argv)
{
	struct script sc = { .inline_frames = false }; /* perf script's default: no inlined frames */
	const char *input = "jrec.data", *symfs = NULL, *time_arg = NULL;
	char err[512] = "", *end;
	uint64_t first, last;
	unsigned long n;
	int c, ret = 0;

	script_format__init(&sc.fmt);
	optind = 1;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "i:F:Gc:C:S:h", script_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (script_format__parse(&sc.fmt, optarg, err, sizeof(err))) {
				fprintf(stderr, "jrec script: %s\n", err);
				ret = JREC_EXIT_USAGE;
			}
			break;
		case 'G':
			sc.fmt.hide_chain = true;
			break;
		case OPT_MAX_STACK:
			n = strtoul(optarg, &end, 10);
			if (*end || !*optarg || n > 0xffff) {
				fprintf(stderr, "jrec script: --max-stack: bad number '%s'\n", optarg);
				ret = JREC_EXIT_USAGE;
			}
			sc.fmt.max_stack = (unsigned int)n;
			break;
		case OPT_NS:
			sc.fmt.ns = true;
			break;
		case 'c':
			ret = add_filter(&sc, 'c', "--comms", optarg);
			break;
		case OPT_PID:
			ret = add_filter(&sc, 'p', "--pid", optarg);
			break;
		case OPT_TID:
			ret = add_filter(&sc, 't', "--tid", optarg);
			break;
		case 'C':
			ret = add_filter(&sc, 'C', "--cpu", optarg);
			break;
		case 'S':
			ret = add_filter(&sc, 'S', "--symbols", optarg);
			break;
		case OPT_DSOS:
			ret = add_filter(&sc, 'd', "--dsos", optarg);
			break;
		case OPT_TIME:
			time_arg = optarg;
			ret = add_filter(&sc, 'T', "--time", optarg);
			break;
		case OPT_MMAP:
			sc.mmaps = true;
			break;
		case OPT_TASK:
			sc.tasks = true;
			break;
		case OPT_SWITCH:
			sc.switches = true;
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			sc.inline_frames = c == OPT_INLINE;
			break;
		case 'h':
			fputs(script_usage, stdout);
			goto out_args;
		default:
			ret = cmd__bad_option("script", argv);
			goto out_args;
		}
	}
	if (ret)
		goto out_args;
	if (optind < argc) {
		fprintf(stderr, "jrec script: unexpected argument '%s'; see 'jrec script --help'\n",
			argv[optind]);
		ret = JREC_EXIT_USAGE;
		goto out_args;
	}
	sc.out = stdout;
	ret = session__open(&sc.s, input, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "jrec script: %s\n", err[0] ? err : strerror(-ret));
		ret = 1;
		goto out_args;
	}
	if (symfs && (ret = session__set_symfs(&sc.s, symfs))) {
		fprintf(stderr, "jrec script: --symfs %s: %s\n", symfs, strerror(-ret));
		ret = 1;
		goto out;
	}
	ret = session__load(&sc.s);
	if (ret) {
		fprintf(stderr, "jrec script: %s: %s\n", input, strerror(-ret));
		goto out;
	}
	if (filters__time_needs_bounds(&sc.f)) {
		ret = session__sample_span(&sc.s, &first, &last);
		if (!ret && filters__time_bounds(&sc.f, first, last))
			ret = -EINVAL;
		if (ret) {
			fprintf(stderr, "jrec script: --time %s: %s\n", time_arg,
				ret == -ENOENT ? "the samples have no times" : "bad percentages");
			ret = ret == -ENOENT ? -ENOENT : JREC_EXIT_USAGE;
			goto out;
		}
	}
	if (sc.mmaps) {
		session__jmmap_walk(&sc.s, on_jmmap, &sc);
		print_jit_loads(&sc);
	}
	ret = samples__init(&sc.it, &sc.s);
	sc.it.inlines = sc.inline_frames;
	if (!ret && (ret = script_format__setup(&sc.fmt, &sc.it, err, sizeof(err)))) {
		fprintf(stderr, "jrec script: %s: %s\n", input, err);
		goto out;
	}
	if (!ret)
		ret = samples__for_each_ordered(&sc.it, on_sample, on_record, &sc);
	if (ret) {
		fprintf(stderr, "jrec script: %s: %s\n", input, strerror(-ret));
		goto out;
	}
	if (session__cut_short(&sc.s))
		fprintf(stderr, "jrec script: warning: %s was cut short (%s)\n", input,
			session__cut_short(&sc.s));
out:
	samples__release(&sc.it);
	session__close(&sc.s);
	if (ret == JREC_EXIT_USAGE)
		goto out_args;
	ret = ret ? 1 : 0;
out_args:
	script_format__release(&sc.fmt);
	filters__release(&sc.f);
	return ret;
}
