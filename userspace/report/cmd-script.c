// SPDX-License-Identifier: GPL-2.0
/*
 * jrec script: print a recording's events one per line, like perf script:
 *   COMM  TID [CPU] SEC.USEC: PERIOD EVENT:  IP SYM+0xOFF (DSO)
 * --show-mmap-events adds the kernel's MMAP/MMAP2 records, jmmap's
 * MMAP3/MUNMAP/EXEC records and the JIT loads known from jitdump and perf maps.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "demangle.h"
#include "jmmap-reader.h"
#include "samples.h"
#include "script-switch.h"
#include "session.h"

static const char script_usage[] =
	"usage: jrec script [OPTIONS]\n"
	"\n"
	"  -i, --input FILE        recording to read (default jrec.data; perf.data files too)\n"
	"      --show-mmap-events  also print mapping records: MMAP/MMAP2, jmmap's MMAP3,\n"
	"                          MUNMAP and EXEC, and JIT code loads\n"
	"      --show-task-events  also print COMM/FORK/EXIT records\n"
	"      --no-inline         call chains without the functions inlined into their\n"
	"                          frames (shown by default, from DWARF, as perf prints them)\n"
	"      --show-switch-events\n"
	"                          also print context switch records (PERF_RECORD_SWITCH\n"
	"                          of jrec record --off-cpu); the waits they end are\n"
	"                          printed as offcpu-time samples either way\n"
	"      --symfs DIR         look for the binaries, their debuginfo and the kernel's\n"
	"                          vmlinux and System.map under DIR\n"
	"  -h, --help              this text\n";

enum { OPT_MMAP = 256, OPT_TASK, OPT_SYMFS, OPT_INLINE, OPT_NO_INLINE, OPT_SWITCH };

static const struct option script_opts[] = {
	{ "input", required_argument, NULL, 'i' },
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
	bool mmaps, tasks, inline_frames, switches;
	FILE *out;
};

static void print_time(FILE *out, uint64_t t)
{
	fprintf(out, "%5llu.%06llu", (unsigned long long)(t / 1000000000ULL),
		(unsigned long long)(t % 1000000000ULL / 1000));
}

static void print_sym(struct script *sc, uint64_t ip, const struct resolved *res)
{
	char *dm;

	fprintf(sc->out, "%16llx ", (unsigned long long)ip);
	if (res->sym) {
		dm = jrec_demangle(res->sym, false); /* as perf script: no parameter lists */
		fprintf(sc->out, "%s%s+0x%llx", dm ? dm : res->sym, res->plt ? "@plt" : "",
			(unsigned long long)(res->addr - res->sym_start));
		free(dm);
	} else {
		fputs("[unknown]", sc->out);
	}
	/* an inlined function's frame, as perf prints it: the offset in the function it is in */
	if (res->inlined)
		fputs(" (inlined)", sc->out);
	else
		fprintf(sc->out, " (%s)",
			res->dso ? res->dso->path : (res->anon_name ? res->anon_name : "[unknown]"));
}

/* A sample: its line, then its call chain's frames below it, each on a line of its own. */
static int on_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct script *sc = ctx;
	const struct sample_frames *fr;
	bool skipped = false;
	size_t i;
	int err;

	fprintf(sc->out, "%16s %7u [%03u] ", samples__comm(it), smp->tid, smp->cpu);
	print_time(sc->out, smp->time);
	fprintf(sc->out, ": %10llu %s: ", (unsigned long long)smp->period, smp->event_name);
	print_sym(sc, smp->ev->sample.ip, samples__self(it));
	fputc('\n', sc->out);
	err = samples__frames(it, &fr);
	if (err)
		return err;
	/*
	 * When the chain starts with the sample's own address, its function is
	 * printed above: its frame is left out, the inlined ones before it kept.
	 */
	for (i = 0; i < fr->nr_chain; i++) {
		if (fr->first_is_ip && !fr->res[i].inlined && !skipped) {
			skipped = true;
			continue;
		}
		fputs("\t", sc->out);
		print_sym(sc, fr->ips[i], &fr->res[i]);
		fputc('\n', sc->out);
	}
	return 0;
}

static int on_record(const struct pr_event *ev, void *ctx)
{
	struct script *sc = ctx;
	uint64_t t = session__time(ev);

	if (script_switch__is(ev)) {
		if (!sc->switches)
			return 0;
		fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, ev->id.tid, ev->id.pid, t),
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
		fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, ev->mmap.tid, ev->mmap.pid, t),
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
		fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, ev->task.tid, ev->task.pid, t),
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
		fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, e->tid, e->pid, e->time), e->tid);
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
		fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, e->tid, e->pid, e->time), e->tid);
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

			fprintf(sc->out, "%16s %7u ", session__comm(&sc->s, p->pid, p->pid, s->t_start),
				p->pid);
			print_time(sc->out, s->t_start);
			fprintf(sc->out, ": JIT_LOAD %s %u: [0x%llx(0x%llx)] %s\n",
				s->source == JIT_SRC_JITDUMP ? "jitdump" : "perf-map", p->pid,
				(unsigned long long)s->start, (unsigned long long)(s->end - s->start),
				s->name);
		}
	}
}

int cmd_script(int argc, char **argv)
{
	struct script sc = { .inline_frames = true };
	const char *input = "jrec.data", *symfs = NULL;
	char err[512] = "";
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:h", script_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
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
			return 0;
		default:
			return cmd__bad_option("script", argv);
		}
	}
	sc.out = stdout;
	ret = session__open(&sc.s, input, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "jrec script: %s\n", err[0] ? err : strerror(-ret));
		return 1;
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
	if (sc.mmaps) {
		session__jmmap_walk(&sc.s, on_jmmap, &sc);
		print_jit_loads(&sc);
	}
	ret = samples__init(&sc.it, &sc.s);
	sc.it.inlines = sc.inline_frames;
	if (!ret)
		ret = samples__for_each(&sc.it, on_sample, on_record, &sc);
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
	return ret ? 1 : 0;
}
