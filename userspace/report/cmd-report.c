// SPDX-License-Identifier: GPL-2.0
/* jrec report: read a recording and show where the samples went. */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "branch-view.h"
#include "browser.h"
#include "commands.h"
#include "event-groups.h"
#include "filters.h"
#include "header-info.h"
#include "hist.h"
#include "outputs.h"
#include "pager.h"
#include "samples.h"
#include "session.h"

static const char report_usage[] =
	"usage: jrec report [OPTIONS]\n"
	"\n"
	"  -i, --input FILE        recording to read (default jrec.data; perf.data files too,\n"
	"                          pipe mode too); - reads standard input\n"
	"      --tui               the interactive browser (the default when standard input\n"
	"                          and output are a terminal; ? in it lists its keys)\n"
	"      --stdio             the text table on standard output (the default when it is\n"
	"                          not a terminal); on a terminal through $PAGER (default\n"
	"                          less -FRSX)\n"
	"      --no-pager          never through a pager (PAGER=cat does the same)\n"
	"      --format FMT        tui, stdio, json (schema: Documentation/report-json.rst), or a\n"
	"                          flame graph: folded, svg, pprof, speedscope\n"
	"                          (Documentation/report-outputs.rst)\n"
	"  -o, --output FILE       write to FILE instead of standard output\n"
	"  -g, --call-graph[=MODE,ORDER,MIN]  the call tree under each entry, as perf's:\n"
	"                          MODE graph (default), flat, folded or none; ORDER caller\n"
	"                          or callee; MIN the smallest share of all samples shown.\n"
	"                          A bare -g is graph,0.5,caller; without ORDER, caller\n"
	"                          with --children, else callee\n"
	"  -n, --show-nr-samples   add a column with the number of samples\n"
	"  -F, --fields FIELDS     the columns, in this order: overhead, overhead_children,\n"
	"                          sample, period and sort keys; the rows ranked by them\n"
	"                          in that order; without -s the sort is their keys\n"
	"  -s, --sort KEYS         comma-separated: comm,pid,tid,dso,sym (or symbol),\n"
	"                          srcline,srcfile,cpu,parent,buildid,state (default\n"
	"                          comm,dso,sym); with -b also dso_from,symbol_from,\n"
	"                          dso_to,symbol_to,cycles\n"
	"  -e, --event NAME        only the samples of event NAME as the report names it\n"
	"                          (cpu-clock, offcpu-time...); a flame graph shows the\n"
	"                          first event's unless one is chosen so\n"
	"      --group             the events of a group (-e '{a,b}') in one table, each\n"
	"                          member's share side by side (the default when the\n"
	"                          recording has groups); without groups, all events\n"
	"      --no-group          each event in its own table\n"
	"  -b, --branch-stack      the branch view: each entry of the samples' branch\n"
	"                          stacks (perf record -b) by source and target, sort\n"
	"                          keys dso_from, symbol_from, dso_to, symbol_to, cycles\n"
	"                          (the default when the recording has branch stacks)\n"
	"      --no-branch-stack   the samples, not their branches\n"
	"      --wall              wall-clock time: on-CPU samples as time and the\n"
	"                          offcpu-time of a jrec record --off-cpu recording, in\n"
	"                          one table that adds up to the threads' wall time\n"
	"      --percentage MODE   with filters, shares of all samples (absolute, the\n"
	"                          default) or of those the filters keep (relative)\n"
	"  -t, --field-separator S columns apart by S, unaligned, no rule lines\n"
	"  -G, --inverted          the call tree with the outermost caller first (-g caller)\n"
	"      --max-stack N       use at most N frames of each call chain\n"
	"      --no-demangle       C++ symbols as recorded (mangled)\n"
	"  -p, --parent REGEX      the parent key (added to --sort): the first frame of\n"
	"                          the chain matching REGEX (default ^sys_|^do_page_fault)\n"
	"  -x, --exclude-other     only samples with such a parent\n"
	"      --header            first what the recording says of itself, as perf's\n"
	"      --header-only       only that\n"
	"      --pid PIDS          only these processes (comma-separated)\n"
	"      --tid TIDS          only these threads\n"
	"  -c, --comm COMMS        only these commands\n"
	"  -d, --dsos DSOS         only these shared objects (base name or path)\n"
	"  -S, --symbols SYMS      only these symbols (percentages stay the whole\n"
	"                          profile's; with call chains, their Children too)\n"
	"      --time RANGES       only samples in START,END (seconds; either end may be\n"
	"                          empty; the end exact to the ns), several apart by\n"
	"                          blanks, or percentages of the recording: A%-B% or\n"
	"                          P%/N (the Nth slice of P%), apart by commas\n"
	"      --percent-limit PCT hide entries (and with -g, branches) below PCT percent\n"
	"      --children          rank by the samples whose call chain passes through each\n"
	"                          entry (Children column), the default when the recording\n"
	"                          has call chains (-g)\n"
	"      --no-children       self time only\n"
	"      --no-inline         call chains without the functions inlined into their\n"
	"                          frames (shown by default, from DWARF, as 'name (inlined)')\n"
	"      --symfs DIR         look for the binaries, their debuginfo and the kernel's\n"
	"                          vmlinux and System.map under DIR\n"
	"  -v, --verbose           C++ names with their parameter lists (as perf report -v)\n"
	"  -q, --quiet             no warnings on stderr\n"
	"  -h, --help              this text\n";

enum { OPT_STDIO = 256, OPT_TUI, OPT_FORMAT, OPT_PID, OPT_TID, OPT_TIME, OPT_PLIMIT, OPT_NOCHILD,
       OPT_CHILD, OPT_SYMFS, OPT_NO_PAGER, OPT_INLINE, OPT_NO_INLINE, OPT_WALL, OPT_PERCENTAGE,
       OPT_MAX_STACK, OPT_NO_DEMANGLE, OPT_HEADER, OPT_HEADER_ONLY, OPT_GROUP, OPT_NO_GROUP, OPT_NO_BRANCH };

static const struct option report_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "tui", no_argument, NULL, OPT_TUI },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "call-graph", optional_argument, NULL, 'g' },
	{ "show-nr-samples", no_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, 's' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, 'c' },
	{ "dsos", required_argument, NULL, 'd' },
	{ "symbols", required_argument, NULL, 'S' },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "percent-limit", required_argument, NULL, OPT_PLIMIT },
	{ "children", no_argument, NULL, OPT_CHILD },
	{ "no-children", no_argument, NULL, OPT_NOCHILD },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "inline", no_argument, NULL, OPT_INLINE },
	{ "no-inline", no_argument, NULL, OPT_NO_INLINE },
	{ "wall", no_argument, NULL, OPT_WALL },
	{ "event", required_argument, NULL, 'e' },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "field-separator", required_argument, NULL, 't' },
	{ "inverted", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "parent", required_argument, NULL, 'p' },
	{ "exclude-other", no_argument, NULL, 'x' },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-group", no_argument, NULL, OPT_NO_GROUP },
	{ "branch-stack", no_argument, NULL, 'b' },
	{ "fields", required_argument, NULL, 'F' },
	{ "no-branch-stack", no_argument, NULL, OPT_NO_BRANCH },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
	struct hist_fields fields; /* -F */
	const char *parent;	/* the current sample's parent (-p), NULL for [other] */
	bool relative;		/* --percentage relative: shares of the samples the filters keep */
	bool have_cpu;		/* the samples carry their CPU */
	unsigned int max_stack; /* frames of a chain used, 0: all */
	struct graph_opts graph; /* -g */
	struct calltree ct;      /* -g: the entries' call trees */
	struct calltree flame;   /* the flame graph outputs' tree, outermost frame first */
	bool want_flame;
	const char *comm_frame_of; /* the flame graph's process frame of that comm */
	uint32_t comm_frame;
	bool comm_frame_set;
	uint32_t *frames;
	size_t cap_frames;
	struct chain_memo *memo; /* add_frame() */
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
};

static double elapsed(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The first frame of the chain whose function matches -p's pattern (perf's parent), or NULL. */
static const char *find_parent(struct report *r, const struct sample_frames *fr)
{
	size_t i;

	for (i = 0; i < fr->nr; i++)
		if (fr->res[i].sym && !regexec(&r->parent_re, fr->res[i].sym, 0, NULL, 0))
			return fr->res[i].sym;
	return NULL;
}

static void fill_key(struct report *r, const struct sample *smp, const char *comm,
		     const struct resolved *res, struct hist_key *k)
{
	hist_key__set(k, comm, smp->pid, smp->tid, res);
	k->cpu = r->have_cpu ? (int32_t)smp->cpu : -1;
	k->parent = r->parent;
	if (r->need_srcline)
		k->srcline = samples__srcline(&r->it, res);
	if (r->need_srcfile) {
		const char *line = samples__srcline_found(&r->it, res), *colon;
		char file[512];

		/* perf's srcfile: the file of the line, empty when no line table has it */
		colon = line ? strrchr(line, ':') : NULL;
		snprintf(file, sizeof(file), "%.*s", colon ? (int)(colon - line) : 0, line ? line : "");
		k->srcfile = strpool__str(&r->s.strings, file);
	}
	if (r->need_state)
		k->state = samples__state(&r->it);
}

/* The entry of frame @res of the current sample into @k, when the filters keep it. */
static bool frame_key(struct report *r, const struct sample *smp, const char *comm,
		      const struct resolved *res, struct hist_key *k)
{
	if (!filters__dso(&r->f, res->dso, res->anon_name) || !filters__sym(&r->f, res->sym) ||
	    !browser_zoom__keeps_dso(&r->zoom, res))
		return false;
	fill_key(r, smp, comm, res, k);
	return true;
}

/*
 * --children: the entry of each frame, remembered per (process, thread,
 * comm, event, address, level) for as long as the address resolves the same
 * (its validity span), so that a frame seen before costs one look here
 * instead of a key and a lookup. What the memo holds is what frame_key() and
 * the lookup would give; a slot taken by another frame is only computed again.
 */
#define CHAIN_MEMO_SIZE 4096 /* a power of two */
#define MEMO_SKIP UINT32_MAX /* the frame's entry is filtered out */

struct chain_memo {
	uint64_t ip, from, until; /* until 0: empty */
	const char *comm;
	const char *sym; /* an address's inlined functions are frames of their own */
	const struct hist *h;
	uint32_t pid, tid;
	uint32_t idx; /* the hist entry, or MEMO_SKIP */
	char level;
};

static int add_frame(struct report *r, struct hist *h, const struct sample *smp, const char *comm,
		     uint64_t ip, const struct resolved *res)
{
	uint64_t hash = (ip ^ (uint64_t)smp->tid << 32 ^ (uint64_t)res->level) * 0x9e3779b97f4a7c15ULL;
	struct chain_memo *m = &r->memo[hash >> 52 & (CHAIN_MEMO_SIZE - 1)];
	struct hist_key k;
	uint32_t idx = MEMO_SKIP;
	int err = 0;

	if (m->ip == ip && m->sym == res->sym && m->level == res->level && m->h == h &&
	    m->pid == smp->pid &&
	    m->tid == smp->tid && m->comm == comm && m->from <= smp->time && smp->time < m->until) {
		if (m->idx != MEMO_SKIP)
			hist__add_chain_idx(h, m->idx, smp->period);
		return 0;
	}
	if (frame_key(r, smp, comm, res, &k))
		err = hist__add_chain_at(h, &k, smp->period, &idx);
	if (!err && res->valid_until > smp->time) {
		m->ip = ip;
		m->sym = res->sym;
		m->level = res->level;
		m->h = h;
		m->pid = smp->pid;
		m->tid = smp->tid;
		m->comm = comm;
		m->from = res->valid_from;
		m->until = res->valid_until;
		m->idx = idx;
	}
	return err;
}

/*
 * --children: every entry the sample's frames pass through, the sample's
 * own (@self, NULL when -S left it out) included, gets its period once.
 */
static int add_children(struct report *r, struct hist *h, const struct sample *smp,
			const char *comm, const struct hist_key *self,
			const struct sample_frames *fr)
{
	size_t i;
	int err = self ? hist__add_chain(h, self, smp->period) : 0;

	if (!r->memo && !(r->memo = calloc(CHAIN_MEMO_SIZE, sizeof(*r->memo))))
		return -ENOMEM;
	for (i = 0; i < fr->nr && !err; i++)
		err = add_frame(r, h, smp, comm, fr->ips[i], &fr->res[i]);
	return err;
}

/* The frames' ids in @t, outermost first when @caller, into r->frames after @skip slots. */
static int chain_frames(struct report *r, struct calltree *t, const struct sample_frames *fr,
			bool caller, size_t skip)
{
	size_t i, n = fr->nr;
	int err;

	if (array_grow(&r->frames, &r->cap_frames, n + skip))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = calltree__frame(t, &fr->res[caller ? n - 1 - i : i], &r->frames[skip + i]);
		if (err)
			return err;
	}
	return 0;
}

/*
 * -g: the sample's entry gets the whole chain; with --children, every entry
 * the chain passes through gets the part from its first place in the chain's
 * order on (as perf's: from the entry to the sampled function when callers
 * come first).
 */
static int add_graph(struct report *r, struct hist *h, const struct sample *smp,
		     const char *comm, const struct hist_key *self, const struct sample_frames *fr)
{
	bool caller = r->graph.caller;
	size_t i, n = fr->nr;
	struct hist_key k;
	int err = chain_frames(r, &r->ct, fr, caller, 0);

	if (!err)
		err = hist__add_tree(h, self, &r->ct, r->frames, n, smp->period);
	for (i = 0; i < n && h->children && !err; i++)
		if (frame_key(r, smp, comm, &fr->res[caller ? n - 1 - i : i], &k))
			err = hist__add_tree(h, &k, &r->ct, r->frames + i, n - i, smp->period);
	return err;
}

/*
 * The flame graph outputs: the command (its frame remembered for the last
 * comm seen), then the frames from the outermost caller, under @h's root.
 */
static int add_flame(struct report *r, struct hist *h, const char *comm,
		     const struct sample_frames *fr, uint64_t period)
{
	int err = chain_frames(r, &r->flame, fr, true, 1);

	if (!err && (!r->comm_frame_set || r->comm_frame_of != comm)) {
		err = calltree__process(&r->flame, comm, &r->comm_frame);
		r->comm_frame_of = comm;
		r->comm_frame_set = !err;
	}
	if (err)
		return err;
	r->frames[0] = r->comm_frame;
	if (h->flame_root == CT_NONE)
		err = calltree__new_root(&r->flame, &h->flame_root);
	return err ? err : calltree__add(&r->flame, h->flame_root, r->frames, fr->nr + 1, period);
}

static int on_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct report *r = ctx;
	const struct sample_frames *fr;
	struct sample_frames lim;
	const struct resolved *res;
	struct hist_key k, *self = NULL;
	const char *comm;
	struct hist *h;
	int err = 0;

	if (r->progress && !(++r->done & 0xffff) && elapsed(&r->t0) > 1.0)
		fprintf(stderr, "\rjrec report: %3.0f%% of the samples", 100.0 * samples__progress(it));
	h = &r->hs[smp->event < r->nr_hs && !r->wall ? smp->event : 0];
	/* --time selects the samples the report is of, as perf's; the other filters hide */
	if (!filters__task(&r->f, smp->pid, smp->tid, smp->time) ||
	    !browser_zoom__keeps_task(&r->zoom, smp->pid, smp->tid))
		return 0;
	if (r->event && strcmp(smp->event_name, r->event))
		return 0;
	comm = r->need_comm ? samples__comm(it) : NULL;
	res = samples__self(it);
	if (!filters__comm(&r->f, comm) || !filters__dso(&r->f, res->dso, res->anon_name) ||
	    !browser_zoom__keeps_dso(&r->zoom, res)) {
		/* as perf's --percentage absolute: shares stay those of all samples */
		if (!r->relative)
			hist__count(h, smp->period);
		return 0;
	}
	if (r->relative && !filters__sym(&r->f, res->sym))
		return 0;
	if (r->need_parent || r->exclude_other) {
		err = samples__frames(it, &fr);
		if (err)
			return err;
		r->parent = find_parent(r, fr);
		if (r->exclude_other && !r->parent) {
			/* -x: a sample without a parent is left out, its share kept (absolute) */
			if (!r->relative)
				hist__count(h, smp->period);
			return 0;
		}
	}
	if (r->branch_mode) {
		fill_key(r, smp, comm, res, &k);
		return branch_view__add(it, smp, &k, h);
	}
	if (filters__sym(&r->f, res->sym)) {
		self = &k;
		fill_key(r, smp, comm, res, self);
		err = hist__add(h, self, smp->period);
		if (!err && !res->sym)
			err = hist__add_unresolved(h, res->dso, self->anon, res->why, smp->period);
		else if (!err && res->jit && res->dso)
			err = hist__add_image(h, res->dso, smp->period);
	} else {
		/* -S as perf's --symbols: percentages stay the whole profile's */
		hist__count(h, smp->period);
	}
	if (err || !(r->children || (self && (r->graph.mode != GRAPH_NONE || r->want_flame))))
		return err;
	err = samples__frames(it, &fr);
	if (!err && r->max_stack && (fr->nr > r->max_stack || fr->nr_chain > r->max_stack)) {
		/* --max-stack: the innermost frames only */
		lim = *fr;
		lim.nr = lim.nr > r->max_stack ? r->max_stack : lim.nr;
		lim.nr_chain = lim.nr_chain > r->max_stack ? r->max_stack : lim.nr_chain;
		fr = &lim;
	}
	if (!err && r->children)
		err = add_children(r, h, smp, comm, self, fr);
	if (!err && self && r->graph.mode != GRAPH_NONE)
		err = add_graph(r, h, smp, comm, self, fr);
	if (!err && self && r->want_flame)
		err = add_flame(r, h, comm, fr, smp->period);
	return err;
}

/* What the command line asks for, beyond what it sets in the report and its meta. */
struct report_args {
	const char *input, *sort, *format, *output, *symfs;
	bool plimit_set, quiet, no_pager, graph_set, inline_frames;
	int children; /* -1: as perf, on when there are call chains */
	bool graph_given; /* -g or -G; else as perf, the table's call trees when there are chains */
	bool sort_given;
	const char *fields; /* -F */
	int header;	  /* 1: --header, 2: --header-only */
	const char *parent; /* -p's pattern, NULL: not given */
	char sort_buf[256]; /* --sort with parent added */
	char fields_sort[256]; /* -F's keys, the sort without --sort */
};

/* 0, 1 after --help, or -EINVAL after the error is printed. */
static int parse_args(struct report *r, struct report_args *a, struct report_meta *meta, int argc,
		      char **argv)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:ns:c:d:S:qvhg::o:e:t:Gp:xbF:", report_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_STDIO:
			a->format = "stdio";
			break;
		case OPT_TUI:
			a->format = "tui";
			break;
		case OPT_FORMAT:
			a->format = optarg;
			break;
		case 'n':
			meta->show_nr_samples = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'g': {
			/* as perf's: "-g caller" takes the next word when it is not an option */
			const char *spec = optarg;

			a->graph_set = true;
			if (!spec && optind < argc && argv[optind][0] != '-')
				spec = argv[optind++];
			a->graph_given = true;
			/* a bare -g is perf's default: graph,0.5,caller */
			if (graph_opts__parse(&r->graph, spec ? spec : "graph,0.5,caller")) {
				fprintf(stderr, "jrec report: bad call graph '%s' "
						"(graph|flat|folded|none, caller|callee, MIN%%)\n", spec);
				return -EINVAL;
			}
			break;
		}
		case 's':
			a->sort = optarg;
			a->sort_given = true;
			break;
		case 'F':
			a->fields = optarg;
			break;
		case 'b':
		case OPT_NO_BRANCH:
			r->branch = c == 'b';
			break;
		case OPT_NOCHILD:
			a->children = 0;
			break;
		case OPT_CHILD:
			a->children = 1;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'v':
			meta->sym_params = SYM_PARAMS;
			r->ct.sym_params = r->flame.sym_params = SYM_PARAMS;
			break;
		case OPT_HEADER:
			if (!a->header)
				a->header = 1;
			break;
		case 'p':
			a->parent = optarg;
			break;
		case 'x':
			r->exclude_other = true;
			break;
		case OPT_GROUP:
		case OPT_NO_GROUP:
			r->group = c == OPT_GROUP;
			break;
		case OPT_HEADER_ONLY:
			a->header = 2;
			break;
		case OPT_NO_DEMANGLE:
			meta->sym_params = SYM_RAW;
			r->ct.sym_params = r->flame.sym_params = SYM_RAW;
			break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute")) {
				fprintf(stderr, "jrec report: --percentage: '%s' is neither relative "
						"nor absolute\n",
					optarg);
				return -EINVAL;
			}
			r->relative = !strcmp(optarg, "relative");
			break;
		case 't':
			meta->field_sep = optarg;
			break;
		case 'G':
			/* perf's --inverted: the call graph, outermost caller first */
			a->graph_given = a->graph_set = true;
			graph_opts__parse(&r->graph, "graph,0.5,caller");
			break;
		case OPT_MAX_STACK: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || n > 0xffff) {
				fprintf(stderr, "jrec report: --max-stack: bad number '%s'\n", optarg);
				return -EINVAL;
			}
			r->max_stack = (unsigned int)n;
			break;
		}
		case OPT_SYMFS:
			a->symfs = optarg;
			break;
		case OPT_NO_PAGER:
			a->no_pager = true;
			break;
		case OPT_INLINE:
		case OPT_NO_INLINE:
			a->inline_frames = c == OPT_INLINE;
			break;
		case OPT_WALL:
			r->wall = true;
			break;
		case 'e':
			r->event = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 1;
		case OPT_PLIMIT:
			meta->percent_limit = strtod(optarg, NULL);
			a->plimit_set = true;
			break;
		case OPT_PID:
		case OPT_TID:
		case 'c':
		case 'd':
		case 'S':
		case OPT_TIME:
			if (filters__parse(&r->f, c == OPT_PID ? 'p' : c == OPT_TID ? 't' : c == OPT_TIME ? 'T' : c,
					   optarg)) {
				fprintf(stderr, "jrec report: bad filter argument '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		default:
			cmd__bad_option("report", argv);
			return -EINVAL;
		}
	}
	return 0;
}

static void graph_setup(struct report *r, const struct report_args *a, struct report_meta *meta,
			const char *sort);

/* What each sample's key needs resolved for the sort keys of @h. */
static void set_needs(struct report *r, const struct hist *h)
{
	r->need_srcline = h->has[SK_SRCLINE];
	r->need_srcfile = h->has[SK_SRCFILE];
	r->need_parent = h->has[SK_PARENT];
	r->need_state = h->has[SK_STATE];
	r->need_comm = h->has[SK_COMM] || r->f.nr_comms || r->want_flame;
}

/*
 * -F: perf's output fields. Without --sort, the sort is the fields' keys
 * (the default's when they name none); the sort's keys they leave out are
 * shown after them; a Children column only when overhead_children is
 * named (entries that only call chains pass through are rows all the same,
 * as perf's). 0, or -EINVAL after the error is printed.
 */
static int fields_setup(struct report *r, struct report_args *a, struct report_meta *meta)
{
	bool user_sort = a->sort_given;
	char bad[64];

	if (hist_fields__parse(&r->fields, a->fields, NULL, bad, sizeof(bad)))
		goto bad;
	/* the histogram is keyed by the fields' keys, then --sort's */
	hist_fields__keys(&r->fields, a->fields_sort, sizeof(a->fields_sort));
	if (a->fields_sort[0] && user_sort) {
		size_t n = strlen(a->fields_sort);

		snprintf(a->fields_sort + n, sizeof(a->fields_sort) - n, ",%s", a->sort);
	}
	if (a->fields_sort[0]) {
		a->sort = a->fields_sort;
		a->sort_given = true;
	}
	/* --sort's keys that -F leaves out follow; the default sort's do not, as in perf */
	if (hist_fields__parse(&r->fields, a->fields, user_sort ? a->sort : NULL, bad, sizeof(bad)))
		goto bad;
	r->fields.rank_numbers = !user_sort;
	meta->fields = &r->fields;
	return 0;
bad:
	fprintf(stderr, "jrec report: -F: unknown field '%s' (overhead, overhead_children, sample, "
			"period or a sort key)\n", bad);
	return -EINVAL;
}

/*
 * perf's branch mode: the default when the samples have branch stacks (not
 * for the flame graphs and --wall, which are of samples), with perf's sort
 * unless --sort says otherwise; no Children column. 0, or -EINVAL after the
 * error is printed.
 */
static int branch_setup(struct report *r, struct report_args *a)
{
	bool have = branch_view__available(&r->it);
	struct hist one = { 0 };
	char bad[64];
	int err = 0;

	if (r->branch > 0 && !have) {
		fprintf(stderr, "jrec report: -b: %s has no branch stacks (record with -b)\n",
			a->input);
		return -EINVAL;
	}
	r->branch_mode = have && r->branch != 0 && !r->want_flame && !r->wall;
	if (r->branch_mode && !a->sort_given)
		a->sort = BRANCH_VIEW_SORT;
	hist__set_sort(&one, a->sort, bad, sizeof(bad));
	if (!r->branch_mode && branch_view__keyed(&one)) {
		fprintf(stderr, "jrec report: --sort %s: branch keys need a recording with branch "
				"stacks (-b)\n", a->sort);
		err = -EINVAL;
	} else if (r->branch_mode) {
		set_needs(r, &one);
		a->children = 0;
		a->graph_given = true; /* no call trees under the branches */
	}
	hist__release(&one);
	return err;
}

/*
 * The recording opened and the histograms made for its events, as the
 * arguments ask: 0, or -errno after the error is printed.
 */
static int prepare(struct report *r, struct report_args *a, struct report_meta *meta)
{
	char err[512] = "", bad[64];
	struct hist one = { 0 };
	size_t i, nattr;
	int ret;

	if (a->fields && (ret = fields_setup(r, a, meta)))
		return ret;
	if (a->parent && !strstr(a->sort, "parent")) {
		/* as perf's -p: the parent key joins the sort */
		snprintf(a->sort_buf, sizeof(a->sort_buf), "%s,parent", a->sort);
		a->sort = a->sort_buf;
	}
	if (hist__set_sort(&one, a->sort, bad, sizeof(bad))) {
		fprintf(stderr, "jrec report: unknown sort key '%s' "
				"(comm,pid,tid,dso,sym,srcline,srcfile,cpu,parent,buildid,state; "
				"with -b dso_from,symbol_from,dso_to,symbol_to,cycles)\n",
			bad);
		return -EINVAL;
	}
	set_needs(r, &one);
	if (r->need_parent || r->exclude_other) {
		int rc = regcomp(&r->parent_re, a->parent ? a->parent : "^sys_|^do_page_fault",
				 REG_EXTENDED | REG_NOSUB);

		if (rc) {
			fprintf(stderr, "jrec report: -p '%s': not a regular expression\n", a->parent);
			return -EINVAL;
		}
		r->have_parent_re = true;
	}
	hist__release(&one);
	ret = session__open(&r->s, a->input, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "jrec report: %s\n", err[0] ? err : strerror(-ret));
		return ret;
	}
	r->opened = true;
	samples__init(&r->it, &r->s);
	r->it.inlines = a->inline_frames;
	ret = branch_setup(r, a);
	if (ret)
		return ret;
	if (a->symfs && (ret = session__set_symfs(&r->s, a->symfs))) {
		fprintf(stderr, "jrec report: --symfs %s: %s\n", a->symfs, strerror(-ret));
		return ret;
	}
	/* each event its own report, as perf does: periods of different events don't add up */
	nattr = samples__nr_events(&r->it);
	for (i = 0; i < nattr; i++)
		if (samples__event(&r->it, i)->sample_type & PERF_SAMPLE_CPU)
			r->have_cpu = true;
	r->nr_hs = nattr ? nattr : 1;
	r->hs = calloc(r->nr_hs, sizeof(*r->hs));
	if (!r->hs) {
		fprintf(stderr, "jrec report: %s\n", strerror(ENOMEM));
		return -ENOMEM;
	}
	/* the flame graph outputs have no table: its Children column would go unused */
	r->children = (a->children < 0 ? samples__have_chains(&r->it) : a->children) &&
		      !r->want_flame;
	for (i = 0; i < r->nr_hs; i++) {
		hist__set_sort(&r->hs[i], a->sort, bad, sizeof(bad));
		r->hs[i].children = r->children;
		r->hs[i].flame_root = CT_NONE;
	}
	/* as perf report --stdio: each entry's call tree whenever the samples have chains */
	if (!a->graph_given && !strcmp(a->format, "stdio") && samples__have_chains(&r->it))
		graph_opts__parse(&r->graph, "graph,0.5");
	/*
	 * The browser opens call trees where there are chains, as with a bare
	 * -g; they are counted when first opened (tui_build()), so that the
	 * first screen comes as soon as the table's first line would.
	 */
	r->trees_later = !strcmp(a->format, "tui") && !a->graph_set && samples__have_chains(&r->it);
	if (r->graph.mode == GRAPH_NONE)
		return 0;
	if (!samples__have_chains(&r->it)) {
		/* as perf report: a call graph needs call chains */
		fprintf(stderr, "jrec report: -g: %s has no call chains (record with -g)\n", a->input);
		return -EINVAL;
	}
	graph_setup(r, a, meta, a->sort);
	return 0;
}

/* -g parsed: the rest of what it takes for the sort @sort. */
static void graph_setup(struct report *r, const struct report_args *a, struct report_meta *meta,
			const char *sort)
{
	if (!r->graph.order_set)
		r->graph.caller = r->children;
	if (a->plimit_set)
		r->graph.min_pct = meta->percent_limit;
	r->graph.skip_first = !strncmp(sort, "sym", 3);
	r->graph.ct = &r->ct;
	r->ct.by_address = true;
	meta->graph = &r->graph;
}

/*
 * After the first pass: --wall needs the switch-outs and the switch records
 * that end them, and -e an event of the recording. 0, or -EINVAL after the
 * error is printed.
 */
static int check_events(struct report *r, const struct report_args *a)
{
	size_t i, n = samples__nr_events(&r->it);
	char names[256] = "";
	int len = 0;

	if (r->wall && samples__set_wall(&r->it)) {
		fprintf(stderr, "jrec report: --wall: %s has no off-CPU samples (record with jrec "
				"record --off-cpu)\n", a->input);
		return -EINVAL;
	}
	if (!r->event || r->wall)
		return 0;
	for (i = 0; i < n; i++) {
		const char *name = samples__event_name(&r->it, i);

		if (!strcmp(name, r->event))
			return 0;
		if (len >= 0 && (size_t)len < sizeof(names))
			len += snprintf(names + len, sizeof(names) - (size_t)len, "%s%s", i ? ", " : "",
					name);
	}
	fprintf(stderr, "jrec report: -e %s: %s has no such event (%s)\n", r->event, a->input, names);
	return -EINVAL;
}

/* The groups of the shown events: perf report --group's tables (output_view.group). */
struct shown_groups {
	size_t *size;	    /* per shown histogram */
	const char **names; /* per shown histogram: its group's name */
	char (*buf)[256];
};

/*
 * The events that have samples, in the recording's order (the first if none
 * has), sorted; in group mode every member of a group that has samples, its
 * leader first.
 */
static int shown_events(struct report *r, const struct hist ***shown, const char ***events,
			size_t *nr, struct shown_groups *g)
{
	size_t i, k, nattr = samples__nr_events(&r->it);
	size_t *plan = NULL;
	bool grouped = false;

	*nr = 0;
	*shown = calloc(r->nr_hs, sizeof(**shown));
	*events = calloc(r->nr_hs, sizeof(**events));
	if (!*shown || !*events)
		return -ENOMEM;
	/* perf: a recording's groups side by side unless --no-group; --group: all events as one */
	if (r->group != 0 && !r->wall && !r->event && nattr > 1) {
		plan = calloc(nattr, sizeof(*plan));
		g->size = calloc(r->nr_hs, sizeof(*g->size));
		g->names = calloc(r->nr_hs, sizeof(*g->names));
		g->buf = calloc(r->nr_hs, sizeof(*g->buf));
		if (!plan || !g->size || !g->names || !g->buf) {
			free(plan);
			return -ENOMEM;
		}
		grouped = event_groups__plan(&r->it, r->group > 0, plan, nattr);
	}
	for (i = 0; i < r->nr_hs && !r->wall; i++) {
		size_t n = grouped ? plan[i] : 1, with = 0;

		if (!n)
			continue;
		for (k = i; k < i + n; k++)
			with += r->hs[k].total_samples > 0;
		if (!with && !(r->event && r->hs[i].nr_keys &&
			       !strcmp(samples__event_name(&r->it, i), r->event)))
			continue;
		if (grouped) {
			g->size[*nr] = n;
			g->names[*nr] = n > 1 ? event_groups__name(&r->it, i, n, g->buf[*nr],
								   sizeof(g->buf[*nr]))
					      : NULL;
		}
		for (k = i; k < i + n; k++) {
			hist__sort(&r->hs[k]);
			(*shown)[*nr] = &r->hs[k];
			(*events)[(*nr)++] = nattr ? samples__event_name(&r->it, k) : "";
		}
	}
	free(plan);
	if (!grouped) {
		free(g->size);
		free(g->names);
		free(g->buf);
		memset(g, 0, sizeof(*g));
	}
	if (!*nr) {
		/* --wall: every event's time in the first */
		hist__sort(&r->hs[0]);
		(*shown)[0] = &r->hs[0];
		(*events)[0] = r->wall ? WALL_EVENT_NAME : nattr ? samples__event_name(&r->it, 0) : "";
		*nr = 1;
		if (g->size)
			g->size[0] = 1;
	}
	return 0;
}

/*
 * The browser's histogram for @q: the samples counted again when its sort
 * or zoom differ from what they were counted for; the first event with
 * samples.
 */
static int tui_build(void *ctx, const struct browser_query *q, struct browser_data *d)
{
	struct report *r = ctx;
	size_t i, nattr = samples__nr_events(&r->it);
	char bad[64];
	int err;

	if (q->trees && r->trees_later) {
		/* the first tree opened: -g's default, counted from now on */
		graph_opts__parse(&r->graph, "graph,0.5,caller");
		graph_setup(r, r->args, r->meta, q->sort);
		r->trees_later = false;
		r->built.sort[0] = '\0'; /* count again */
	}
	if (strcmp(q->sort, r->built.sort) || !browser_zoom__equal(&q->zoom, &r->built.zoom)) {
		for (i = 0; i < r->nr_hs; i++) {
			hist__release(&r->hs[i]);
			if (hist__set_sort(&r->hs[i], q->sort, bad, sizeof(bad)))
				return -EINVAL;
			r->hs[i].children = r->children;
			r->hs[i].flame_root = CT_NONE;
		}
		calltree__release(&r->ct);
		r->ct.by_address = true;
		r->ct.sym_params = r->meta->sym_params;
		if (r->memo)
			memset(r->memo, 0, CHAIN_MEMO_SIZE * sizeof(*r->memo));
		set_needs(r, &r->hs[0]);
		r->graph.skip_first = !strncmp(q->sort, "sym", 3);
		r->zoom = q->zoom;
		r->built = *q;
		r->progress = false;
		err = samples__for_each(&r->it, on_sample, NULL, r);
		if (err)
			return err;
		for (i = 0; i < r->nr_hs; i++)
			hist__sort(&r->hs[i]);
	}
	for (i = 0; i < r->nr_hs && !r->hs[i].total_samples; i++)
		;
	if (i == r->nr_hs)
		i = 0;
	r->tui_meta = *r->meta;
	r->tui_meta.event = nattr ? samples__event(&r->it, i)->name : "";
	d->h = &r->hs[i];
	d->m = &r->tui_meta;
	d->trees_later = r->trees_later;
	return 0;
}

/* The report's output, after the pass: 0, or -errno after the error is printed. */
static int write_report(struct report *r, const struct report_args *a, struct report_meta *meta,
			const struct output *fmt)
{
	struct flame_info fi = { .file = a->input };
	struct output_view view = { .meta = meta, .flame = &r->flame, .fi = &fi };
	struct browser_source src = { .name = "jrec report", .build = tui_build, .file = a->input,
				      .symfs = a->symfs, .ctx = r };
	struct browser_query q0 = { 0 };
	const struct hist **shown = NULL;
	const char **events = NULL;
	struct shown_groups groups = { 0 };
	char kbid[JREC_COOKIE_HEX_LEN];
	struct pager pager = { 0 };
	FILE *out = stdout;
	int ret;

	ret = shown_events(r, &shown, &events, &view.nr, &groups);
	if (ret) {
		fprintf(stderr, "jrec report: %s\n", strerror(-ret));
		goto out;
	}
	meta->file = a->input;
	meta->lost = r->s.nr_lost;
	meta->mode = r->s.mode;
	meta->ksyms_source = r->s.ksyms_source;
	meta->kernel_release = r->s.kernel_release;
	meta->kernel_text = r->s.kernel_text;
	jrec_cookie_hex(&r->s.kernel_bid, kbid);
	meta->kernel_build_id = kbid;
	meta->cut_short = session__cut_short(&r->s);
	if (meta->cut_short && !a->quiet)
		fprintf(stderr, "jrec report: warning: %s was cut short (%s); reporting what it holds\n",
			a->input, meta->cut_short);
	if (!a->quiet && session__nr_bad(&r->s))
		fprintf(stderr, "jrec report: warning: %llu malformed records skipped\n",
			(unsigned long long)session__nr_bad(&r->s));
	if (a->output && !(out = fopen(a->output, "w"))) {
		fprintf(stderr, "jrec report: %s: %s\n", a->output, strerror(errno));
		out = stdout;
		ret = -EIO;
		goto out;
	}
	/* the text table on a terminal through the pager; a pager that cannot start is no error */
	if (!a->output && !a->no_pager && !strcmp(fmt->name, "stdio") && !pager__start(&pager))
		out = pager.out;
	if (fmt->flame && samples__nr_events(&r->it))
		fi.period_ns = r->wall || samples__event_ns(&r->it, (size_t)(shown[0] - r->hs));
	fi.by_period = r->wall || !strcmp(events[0], OFFCPU_EVENT_NAME);
	fi.event = events[0];
	if (!strcmp(fmt->name, "tui")) {
		snprintf(q0.sort, sizeof(q0.sort), "%s", a->sort);
		r->built = q0;
		r->meta = meta;
		r->args = a;
		view.live = &src;
		view.query = &q0;
	}
	view.hs = shown;
	view.events = events;
	view.group = groups.size;
	view.group_names = groups.names;
	if (a->header && !strcmp(fmt->name, "stdio"))
		header_info__print(&r->s, a->input, out);
	ret = outputs__write(fmt, &view, out);
	if (fflush(out) || ferror(out))
		ret = -EIO;
	if (pager.pid && (ret == -EPIPE || (ret && errno == EPIPE)))
		ret = 0; /* the reader quit the pager before the end */
	if (ret)
		fprintf(stderr, "jrec report: %s: %s\n", a->output ? a->output : "standard output",
			strerror(-ret));
out:
	if (a->output && out != stdout)
		fclose(out);
	pager__finish(&pager);
	free(shown);
	free(events);
	free(groups.size);
	free(groups.names);
	free(groups.buf);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report r = { .group = -1, .branch = -1 };
	struct report_meta meta = { 0 };
	struct report_args a = { .input = "jrec.data", .sort = "comm,dso,sym", .children = -1,
				 .inline_frames = true };
	const struct output *fmt;
	int ret, status = -1; /* the exit status, once decided before the run */
	size_t i;

	r.graph.min_pct = 0.5; /* perf's default threshold */
	ret = parse_args(&r, &a, &meta, argc, argv);
	if (ret) {
		status = ret > 0 ? 0 : JREC_EXIT_USAGE; /* --help, or bad usage */
		goto out;
	}
	if (!a.format)
		a.format = !a.output && browser__usable() ? "tui" : "stdio";
	fmt = outputs__find(a.format);
	if (!fmt) {
		fprintf(stderr, "jrec report: unknown format '%s' "
				"(tui, stdio, json, folded, svg, pprof or speedscope)\n", a.format);
		status = JREC_EXIT_USAGE;
		goto out;
	}
	r.want_flame = fmt->flame;
	ret = prepare(&r, &a, &meta);
	/* after the recording opened: a file that cannot be read is the first thing to say */
	if (!ret && !strcmp(a.format, "tui") && (a.output || !browser__usable())) {
		fprintf(stderr, "jrec report: --tui: the browser needs a terminal that TERM names "
				"on standard input and output (and no -o)\n");
		status = JREC_EXIT_USAGE;
		ret = -EINVAL;
	}
	if (!ret && a.header == 2) {
		/* --header-only: what the recording says of itself, no pass over the samples */
		header_info__print(&r.s, a.input, stdout);
		ret = fflush(stdout) ? -EIO : 0;
		status = ret ? 1 : 0;
		session__close(&r.s);
		samples__release(&r.it);
		goto out;
	}
	if (!ret) {
		ret = session__load(&r.s);
		if (ret)
			fprintf(stderr, "jrec report: %s: %s\n", a.input, strerror(-ret));
	}
	if (!ret && filters__time_needs_bounds(&r.f)) {
		uint64_t first, last;

		ret = session__sample_span(&r.s, &first, &last);
		if (!ret && filters__time_bounds(&r.f, first, last))
			ret = -EINVAL;
		if (ret)
			fprintf(stderr, "jrec report: --time: %s\n",
				ret == -ENOENT ? "the samples have no times" : "bad percentages");
	}
	if (!ret)
		ret = check_events(&r, &a);
	if (!ret) {
		clock_gettime(CLOCK_MONOTONIC, &r.t0);
		r.progress = isatty(2) && !a.quiet;
		ret = samples__for_each(&r.it, on_sample, NULL, &r);
		if (r.progress && r.done >= 0x10000 && elapsed(&r.t0) > 1.0)
			fputs("\r\033[K", stderr);
		if (ret)
			fprintf(stderr, "jrec report: %s: %s\n", a.input, strerror(-ret));
	}
	if (!ret)
		ret = write_report(&r, &a, &meta, fmt);
	if (r.opened)
		session__close(&r.s);
	calltree__release(&r.ct);
	calltree__release(&r.flame);
	samples__release(&r.it);
	free(r.memo);
	free(r.frames);
out:
	for (i = 0; i < r.nr_hs; i++)
		hist__release(&r.hs[i]);
	free(r.hs);
	filters__release(&r.f);
	if (r.have_parent_re)
		regfree(&r.parent_re);
	return status >= 0 ? status : ret ? 1 : 0;
}
