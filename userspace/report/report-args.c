// SPDX-License-Identifier: GPL-2.0
/* jrec report's command line (report.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch-view.h"
#include "commands.h"
#include "report.h"

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
	"  -s, --sort KEYS         comma-separated: comm,pid (the thread and its command,\n"
	"                          as perf's),tid,dso,sym (or symbol),srcline,srcfile,cpu,\n"
	"                          parent,buildid,state (default comm,dso,sym); with -b\n"
	"                          also dso_from,symbol_from,dso_to,symbol_to,cycles\n"
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
	"  -c, --comms COMMS       only these commands\n"
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
	"                          has call chains (-g); without them, self time\n"
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
	{ "comms", required_argument, NULL, 'c' },
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

int report_args__parse(struct report *r, struct report_args *a, struct report_meta *meta, int argc,
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
			a->sort_typed = optarg;
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
	/* as perf: a column that a filter pins to one value is left out, the value said above */
	meta->pin[SK_COMM] = filters__pinned(&r->f, 'c');
	meta->pin[SK_DSO] = filters__pinned(&r->f, 'd');
	meta->pin[SK_SYM] = filters__pinned(&r->f, 'S');
	return 0;
}
