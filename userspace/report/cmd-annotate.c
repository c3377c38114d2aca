// SPDX-License-Identifier: GPL-2.0
/*
 * jrec annotate: each instruction of the sampled functions with its share of
 * the function's samples, from the exact code that ran (annotate.h), in
 * perf annotate's layout; --format json for scripts.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "annotate.h"
#include "demangle.h"
#include "disasm.h"
#include "elf-image.h"
#include "filters.h"
#include "json.h"
#include "pager.h"
#include "presum.h"
#include "samples.h"
#include "session.h"

static const char annotate_usage[] =
	"usage: jrec annotate [OPTIONS] [SYMBOL...]\n"
	"\n"
	"Each instruction of the sampled functions (SYMBOL..., else every function with\n"
	"samples, hottest first) with its share of the function's samples.\n"
	"\n"
	"  -i, --input FILE        recording to read (default jrec.data; perf.data files too)\n"
	"      --stdio             text on standard output (the default); on a terminal\n"
	"                          through $PAGER (default less -FRSX)\n"
	"      --no-pager          never through a pager (PAGER=cat does the same)\n"
	"      --format FMT        stdio or json\n"
	"  -s, --symbol SYM        annotate SYM (as a SYMBOL argument; may be repeated)\n"
	"  -d, --dsos DSOS         only functions of these shared objects (comma-separated,\n"
	"                          base name or path)\n"
	"  -l, --print-line        source lines from the debug info (or a jitdump's\n"
	"                          DEBUG_INFO) before the instructions they compiled to\n"
	"      --percent-type TYPE local-period (default), global-period, local-hits or\n"
	"                          global-hits: of the function's or of all samples,\n"
	"                          weighted by period or counted\n"
	"      --asm-raw           show each instruction's bytes\n"
	"  -M, --disassembler-style STYLE  att (default) or intel (x86-64)\n"
	"      --symfs DIR         look for the binaries, their debuginfo and the kernel's\n"
	"                          vmlinux and System.map under DIR\n"
	"  -q, --quiet             no warnings on stderr\n"
	"  -h, --help              this text\n";

enum { OPT_STDIO = 256, OPT_FORMAT, OPT_PTYPE, OPT_RAW, OPT_SYMFS, OPT_NO_PAGER };

static const struct option annotate_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "symbol", required_argument, NULL, 's' },
	{ "dsos", required_argument, NULL, 'd' },
	{ "print-line", no_argument, NULL, 'l' },
	{ "percent-type", required_argument, NULL, OPT_PTYPE },
	{ "asm-raw", no_argument, NULL, OPT_RAW },
	{ "disassembler-style", required_argument, NULL, 'M' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct ann_args {
	const char *input, *symfs;
	bool json, lines, raw, global, hits, quiet, no_pager;
	enum disasm_syntax syntax;
	struct filters f;
	char **want; /* the symbols named */
	size_t nr_want;
};

/* One function's view: its instructions' shares, with what is printed beside them. */
struct ann_view {
	struct annotate *a;
	const struct ann_args *args;
	const struct ann_sym *y;
	FILE *out;
	bool color;
	uint64_t denom; /* what a share is of */
	double hottest;
	size_t hit; /* the next hit not yet printed */
	size_t nr_out; /* lines printed for the function (JSON: elements of its array) */
	struct disasm *dis;
	uint16_t dis_machine;
	bool first_json;
};

static int add_want(struct ann_args *a, const char *sym)
{
	char **n = realloc(a->want, (a->nr_want + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	a->want = n;
	a->want[a->nr_want++] = (char *)sym;
	return filters__parse(&a->f, 'S', sym);
}

/* 1 after --help, 0 to run, -1 after bad usage was reported. */
static int parse_args(struct ann_args *a, int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:s:d:lM:qh", annotate_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_STDIO:
			a->json = false;
			break;
		case OPT_NO_PAGER:
			a->no_pager = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json")) {
				a->json = true;
			} else if (!strcmp(optarg, "stdio")) {
				a->json = false;
			} else {
				fprintf(stderr, "jrec annotate: unknown format '%s' (stdio or json)\n",
					optarg);
				return -1;
			}
			break;
		case 's':
			if (add_want(a, optarg)) {
				fprintf(stderr, "jrec annotate: bad symbol '%s'\n", optarg);
				return -1;
			}
			break;
		case 'd':
			if (filters__parse(&a->f, 'd', optarg)) {
				fprintf(stderr, "jrec annotate: bad --dsos '%s'\n", optarg);
				return -1;
			}
			break;
		case 'l':
			a->lines = true;
			break;
		case OPT_PTYPE:
			if (!strcmp(optarg, "local-period") || !strcmp(optarg, "global-period") ||
			    !strcmp(optarg, "local-hits") || !strcmp(optarg, "global-hits")) {
				a->global = !strncmp(optarg, "global", 6);
				a->hits = strstr(optarg, "hits") != NULL;
			} else {
				fprintf(stderr, "jrec annotate: unknown --percent-type '%s' (local-period, "
						"global-period, local-hits or global-hits)\n", optarg);
				return -1;
			}
			break;
		case OPT_RAW:
			a->raw = true;
			break;
		case 'M':
			if (!strcmp(optarg, "intel")) {
				a->syntax = DISASM_INTEL;
			} else if (!strcmp(optarg, "att")) {
				a->syntax = DISASM_ATT;
			} else {
				fprintf(stderr, "jrec annotate: unknown disassembler style '%s' (att or intel)\n",
					optarg);
				return -1;
			}
			break;
		case OPT_SYMFS:
			a->symfs = optarg;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			fputs(annotate_usage, stdout);
			return 1;
		default:
			cmd__bad_option("annotate", argv);
			return -1;
		}
	}
	for (; optind < argc; optind++)
		if (add_want(a, argv[optind])) {
			fprintf(stderr, "jrec annotate: bad symbol '%s'\n", argv[optind]);
			return -1;
		}
	return 0;
}

static const char *sym_name(const struct ann_sym *y, char **dm)
{
	*dm = jrec_demangle(y->name, false);
	return *dm ? *dm : y->name;
}

static const char *where_name(const struct ann_sym *y)
{
	if (y->res.dso)
		return y->res.dso->short_name;
	return resolved__anon_name(&y->res);
}

static double share(const struct ann_view *v, const struct ann_hit *h)
{
	uint64_t n = v->args->hits ? h->samples : h->period;

	return v->denom ? 100.0 * (double)n / (double)v->denom : 0;
}

/* The samples at [addr, addr + size): the hits not yet printed up to there. */
static void take_hits(struct ann_view *v, uint64_t addr, uint64_t size, struct ann_hit *sum)
{
	const struct ann_sym *y = v->y;

	memset(sum, 0, sizeof(*sum));
	sum->addr = addr;
	while (v->hit < y->nr_hits && y->hits[v->hit].addr < addr + size) {
		sum->period += y->hits[v->hit].period;
		sum->samples += y->hits[v->hit].samples;
		v->hit++;
	}
}

/* "file.c:12" of @addr in @y, or NULL: the srcline machinery the report uses. */
static const char *srcline(struct ann_view *v, uint64_t addr, char *buf, size_t len)
{
	const struct resolved *r = &v->y->res;

	if (r->jit)
		return jit_symbols__srcline(&v->a->s->jit, r->jit, addr, buf, len);
	if (r->level != RES_KERNEL && r->dso && r->dso->img)
		return elf_image__srcline(r->dso->img, addr, buf, len);
	return NULL;
}

/* A direct branch's target, as "ADDR <sym+0xOFF>" when a symbol is known. */
static void target_text(struct ann_view *v, const struct disasm_insn *in, char *buf, size_t len)
{
	const struct ann_sym *y = v->y;
	const struct resolved *r = &y->res;
	const struct sym *t = NULL;
	char *dm = NULL;
	const char *name = NULL;
	uint64_t start = 0;

	if (in->target >= y->start && in->target < y->end) {
		name = y->name;
		start = y->start;
	} else if (!r->jit && r->level != RES_KERNEL && r->dso && r->dso->img) {
		t = symtab__find(elf_image__symtab(r->dso->img), in->target);
	} else if (r->level == RES_KERNEL && v->a->s->have_ksyms) {
		t = symtab__find(&v->a->s->ksyms.tab, in->target);
	}
	if (t) {
		name = t->name;
		start = t->start;
	}
	if (!name) {
		snprintf(buf, len, "%llx", (unsigned long long)in->target);
		return;
	}
	dm = jrec_demangle(name, false);
	snprintf(buf, len, "%llx <%s+0x%llx>", (unsigned long long)in->target, dm ? dm : name,
		 (unsigned long long)(in->target - start));
	free(dm);
}

static void raw_bytes(const struct disasm_insn *in, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < in->size && i < DISASM_INSN_MAX && o + 4 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%02x ", in->bytes[i]);
	/* a column as wide as objdump's seven bytes, wider for longer instructions */
	while (o < 21 && o + 1 < len)
		buf[o++] = ' ';
	buf[o] = 0;
}


static const char *color_of(const struct ann_view *v, double pct)
{
	if (!v->color)
		return "";
	return pct >= 5.0 ? "\033[31m" : pct >= 0.5 ? "\033[32m" : "";
}

/*
 * The relocation a module's object file left unapplied in @in, or NULL: its
 * operand (a call's target, an address) is the file's, not what ran.
 */
static const struct ko_reloc *unrelocated(const struct ann_view *v, const struct ann_code *code,
					  const struct disasm_insn *in)
{
	uint64_t off = in->addr - v->y->start;
	size_t i;

	for (i = 0; i < code->ko.nr_relocs; i++) {
		const struct ko_reloc *r = &code->ko.relocs[i];

		if (r->off >= off + in->size)
			break;
		if (r->off >= off && !r->applied)
			return r;
	}
	return NULL;
}

static void stdio_line(struct ann_view *v, const struct disasm_insn *in, const struct ann_hit *sum,
		       const struct ko_reloc *unrel)
{
	char note[160] = "";

	double pct = share(v, sum);
	const char *col = sum->samples ? color_of(v, pct) : "";
	char raw[DISASM_INSN_MAX * 3 + 2] = "", ops[256];

	if (v->args->raw)
		raw_bytes(in, raw, sizeof(raw));
	if (in->has_target)
		target_text(v, in, ops, sizeof(ops));
	else
		snprintf(ops, sizeof(ops), "%s", in->ops);
	if (unrel)
		snprintf(note, sizeof(note), "   # unrelocated: %s%+lld", unrel->sym,
			 (long long)unrel->addend);
	fprintf(v->out, "%s%8.2f :%s   %llx:   %s%-*s%s%s%s%s\n", col, pct, *col ? "\033[m" : "",
		(unsigned long long)in->addr, raw, ops[0] ? 6 : 0, in->mnemonic, ops[0] ? " " : "", ops,
		sum->samples && pct >= v->hottest ? "   <- hottest" : "", note);
}

static void json_insn(struct ann_view *v, const struct disasm_insn *in, const struct ann_hit *sum,
		      const char *line, const struct ko_reloc *unrel)
{
	bool first = !v->nr_out++;
	char buf[256];
	size_t i;

	fprintf(v->out, "%s\n        {\"addr\": \"0x%llx\", \"percent\": %.4f, \"samples\": %llu, "
			"\"period\": %llu, \"bytes\": \"", first ? "" : ",",
		(unsigned long long)in->addr, share(v, sum), (unsigned long long)sum->samples,
		(unsigned long long)sum->period);
	for (i = 0; i < in->size && i < DISASM_INSN_MAX; i++)
		fprintf(v->out, "%02x", in->bytes[i]);
	fputs("\", \"mnemonic\": ", v->out);
	json__str(v->out, in->mnemonic);
	fputs(", \"operands\": ", v->out);
	json__str(v->out, in->ops);
	if (in->has_target) {
		target_text(v, in, buf, sizeof(buf));
		fprintf(v->out, ", \"target\": \"0x%llx\", \"target_text\": ",
			(unsigned long long)in->target);
		json__str(v->out, buf);
	}
	if (line) {
		fputs(", \"srcline\": ", v->out);
		json__str(v->out, line);
	}
	if (unrel) {
		fputs(", \"unrelocated\": ", v->out);
		json__str(v->out, unrel->sym);
		fprintf(v->out, ", \"unrelocated_addend\": %lld", (long long)unrel->addend);
	}
	fputs("}", v->out);
}

/* Disassemble @code and print each instruction with its share. */
static int walk_code(struct ann_view *v, const struct ann_code *code)
{
	const struct ann_sym *y = v->y;
	char lbuf[512], prev[512] = "";
	struct disasm_insn in;
	struct ann_hit sum;
	size_t off = 0, n;
	int err;

	if (!v->dis || v->dis_machine != code->machine) {
		disasm__delete(v->dis);
		v->dis = NULL;
		err = disasm__new(code->machine, v->args->syntax, &v->dis);
		if (err)
			return err;
		v->dis_machine = code->machine;
	}
	while ((n = disasm__one(v->dis, code->bytes + off, code->len - off, y->start + off, &in))) {
		const char *line = NULL;
		const struct ko_reloc *unrel = unrelocated(v, code, &in);

		take_hits(v, in.addr, in.size, &sum);
		if (v->args->lines || v->args->json)
			line = srcline(v, in.addr, lbuf, sizeof(lbuf));
		if (v->args->json) {
			json_insn(v, &in, &sum, line, unrel);
		} else {
			if (v->args->lines && line && strcmp(line, prev)) {
				fprintf(v->out, "         :   %s\n", line);
				snprintf(prev, sizeof(prev), "%s", line);
			}
			stdio_line(v, &in, &sum, unrel);
		}
		off += n;
	}
	return 0;
}

/* The samples at addresses no code was found for, one line each. */
static void bare_hits(struct ann_view *v)
{
	const struct ann_sym *y = v->y;

	for (; v->hit < y->nr_hits; v->hit++) {
		const struct ann_hit *h = &y->hits[v->hit];

		if (v->args->json)
			fprintf(v->out, "%s\n        {\"addr\": \"0x%llx\", \"percent\": %.4f, "
					"\"samples\": %llu, \"period\": %llu}",
				v->nr_out++ ? "," : "", (unsigned long long)h->addr, share(v, h),
				(unsigned long long)h->samples, (unsigned long long)h->period);
		else
			fprintf(v->out, "%8.2f :   %llx:   (no code)\n", share(v, h),
				(unsigned long long)h->addr);
	}
}

static void prepare_view(struct ann_view *v, const struct ann_sym *y)
{
	size_t i;
	double best = 0;

	v->y = y;
	v->hit = 0;
	v->nr_out = 0;
	if (v->args->global)
		v->denom = v->args->hits ? v->a->total_samples : v->a->total_period;
	else
		v->denom = v->args->hits ? y->samples : y->period;
	for (i = 0; i < y->nr_hits; i++)
		if (share(v, &y->hits[i]) > best)
			best = share(v, &y->hits[i]);
	/* shares within a hundredth of a point of the top are all the hottest */
	v->hottest = best - 0.005;
}

static void code_origin(const struct ann_sym *y, const struct ann_code *code, char *buf, size_t len)
{
	char hex[JREC_COOKIE_HEX_LEN];

	if (y->res.dso && y->res.dso->cookie.len && !y->res.jit) {
		jrec_cookie_hex(&y->res.dso->cookie, hex);
		snprintf(buf, len, "%s %s (build-id %s)", code->source, code->from, hex);
	} else {
		snprintf(buf, len, "%s %s", code->source, code->from);
	}
}

static int annotate_one(struct ann_view *v, const struct ann_sym *y, bool first)
{
	struct ann_code code;
	char why[512], origin[1024], mbuf[16], *dm;
	const char *name = sym_name(y, &dm);
	int err, cerr;

	prepare_view(v, y);
	cerr = annotate__code(v->a, y, &code, why, sizeof(why));
	if (cerr == -ENOMEM) {
		free(dm);
		return cerr;
	}
	if (!cerr && !disasm__supported(code.machine)) {
		snprintf(why, sizeof(why), "no disassembler for its machine (%s)",
			 disasm__machine_name(code.machine, mbuf, sizeof(mbuf)));
		ann_code__release(&code);
		cerr = -ENOENT;
	}
	if (!cerr)
		code_origin(y, &code, origin, sizeof(origin));
	if (v->args->json) {
		fprintf(v->out, "%s\n    {\"name\": ", first ? "" : ",");
		json__str(v->out, name);
		fputs(", \"dso\": ", v->out);
		json__str(v->out, y->res.dso ? y->res.dso->path : where_name(y));
		if (y->res.dso && y->res.dso->cookie.len && !y->res.jit) {
			char hex[JREC_COOKIE_HEX_LEN];

			jrec_cookie_hex(&y->res.dso->cookie, hex);
			fprintf(v->out, ", \"build_id\": \"%s\"", hex);
		}
		fprintf(v->out, ", \"start\": \"0x%llx\", \"size\": %llu, \"pid\": %u, "
				"\"samples\": %llu, \"period\": %llu, \"code\": ",
			(unsigned long long)y->start, (unsigned long long)(y->end - y->start), y->pid,
			(unsigned long long)y->samples, (unsigned long long)y->period);
		if (cerr) {
			fputs("null, \"code_from\": null", v->out);
		} else {
			json__str(v->out, code.source);
			fputs(", \"code_from\": ", v->out);
			json__str(v->out, code.from);
		}
		if (cerr) {
			fputs(", \"code_missing\": ", v->out);
			json__str(v->out, why);
		}
		if (!cerr && code.note[0]) {
			fputs(", \"code_note\": ", v->out);
			json__str(v->out, code.note);
		}
		fputs(", \"instructions\": [", v->out);
	} else {
		fprintf(v->out, " Percent |\tSource code & Disassembly of %s for %s (%llu samples, "
				"percent: %s %s)\n",
			where_name(y), v->a->event_name ? v->a->event_name : "?",
			(unsigned long long)y->samples, v->args->global ? "global" : "local",
			v->args->hits ? "hits" : "period");
		fputs("----------------------------------------------------------------------------"
		      "----------------------------\n", v->out);
		if (cerr)
			fprintf(v->out, "         :   code not available: %s\n", why);
		else
			fprintf(v->out, "         :   code from %s\n", origin);
		if (!cerr && code.note[0])
			fprintf(v->out, "         :   warning: %s\n", code.note);
		fprintf(v->out, "         :   %016llx <%s>:\n", (unsigned long long)y->start, name);
	}
	err = cerr ? 0 : walk_code(v, &code);
	bare_hits(v);
	fputs(v->args->json ? "\n      ]}" : "\n", v->out);
	ann_code__release(&code);
	free(dm);
	return err;
}

static bool wanted(const struct ann_args *a, const struct ann_sym *y)
{
	return y->shown && y->nr_hits;
}

static size_t nr_wanted(const struct annotate *an, const struct ann_args *a)
{
	size_t i, n = 0;

	for (i = 0; i < an->nr; i++)
		n += wanted(a, &an->syms[i]);
	return n;
}

static int annotate_all(struct annotate *an, const struct ann_args *args, FILE *out)
{
	struct ann_view v = { .a = an, .args = args, .out = out };
	size_t i, n = 0;
	int err = 0;

	v.color = !args->json && isatty(fileno(out)) ? true : false;
	if (args->json) {
		fputs("{\n  \"schema\": \"jrec-annotate\",\n  \"version\": 1,\n  \"file\": ", out);
		json__str(out, args->input);
		fputs(",\n  \"event\": ", out);
		json__str(out, an->event_name);
		fprintf(out, ",\n  \"percent_type\": \"%s-%s\",\n  \"total_samples\": %llu,\n"
			     "  \"total_period\": %llu,\n  \"symbols\": [",
			args->global ? "global" : "local", args->hits ? "hits" : "period",
			(unsigned long long)an->total_samples, (unsigned long long)an->total_period);
	}
	for (i = 0; i < an->nr && !err; i++)
		if (wanted(args, &an->syms[i]))
			err = annotate_one(&v, &an->syms[i], !n++);
	if (args->json)
		fputs("\n  ]\n}\n", out);
	disasm__delete(v.dis);
	return err;
}

/* Each named symbol that no sampled function matched: one line each. How many. */
static size_t missing_symbols(const struct annotate *an, const struct ann_args *a)
{
	struct filters one = { 0 };
	size_t i, k, missing = 0;

	for (k = 0; k < a->nr_want; k++) {
		bool found = false;

		one.syms = &a->want[k];
		one.nr_syms = 1;
		for (i = 0; i < an->nr && !found; i++)
			found = an->syms[i].shown && filters__sym(&one, an->syms[i].name);
		if (!found) {
			fprintf(stderr, "jrec annotate: %s: no samples in symbol '%s'\n", a->input,
				a->want[k]);
			missing++;
		}
	}
	return missing;
}

/* presum__feed()'s weight */
static void ann_weight(void *ctx, uint64_t n)
{
	struct annotate *an = ctx;

	an->weight = n;
}

int cmd_annotate(int argc, char **argv)
{
	struct ann_args a = { .input = "jrec.data" };
	struct presum ps = { 0 };
	struct session s = { 0 };
	struct samples it = { 0 };
	struct annotate an;
	struct pager pager = { 0 };
	FILE *out = stdout;
	char err[512];
	const char *cut;
	int ret, status = 0;

	ret = parse_args(&a, argc, argv);
	if (ret) {
		status = ret > 0 ? 0 : JREC_EXIT_USAGE;
		goto out_args;
	}
	ret = session__open(&s, a.input, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "jrec annotate: %s\n", err);
		status = JREC_EXIT_USAGE;
		goto out_args;
	}
	if (a.symfs && (ret = session__set_symfs(&s, a.symfs))) {
		fprintf(stderr, "jrec annotate: --symfs %s: %s\n", a.symfs, strerror(-ret));
		status = JREC_EXIT_USAGE;
		goto out_session;
	}
	s.jit.keep_code = true;
	s.want_code = true;
	presum__attach(&ps, &s);
	ret = session__load(&s);
	if (!ret)
		ret = samples__init(&it, &s);
	if (ret) {
		fprintf(stderr, "jrec annotate: %s: %s\n", a.input, strerror(-ret));
		status = JREC_EXIT_USAGE;
		goto out_session;
	}
	cut = session__cut_short(&s);
	if (cut && !a.quiet)
		fprintf(stderr, "jrec annotate: warning: %s was cut short (%s); annotating what it holds\n",
			a.input, cut);
	annotate__init(&an, &s, &a.f);
	/* from the first pass's sums when they hold (presum.h), else a pass over the samples */
	ret = presum__usable(&ps) ? presum__feed(&ps, &it, false, annotate__sample, ann_weight, &an)
				  : 1;
	if (ret == 1)
		ret = samples__for_each(&it, annotate__sample, NULL, &an);
	if (!ret)
		ret = annotate__finish(&an);
	if (ret) {
		fprintf(stderr, "jrec annotate: %s: %s\n", a.input, strerror(-ret));
		status = 1;
		goto out_an;
	}
	if (missing_symbols(&an, &a)) {
		status = JREC_EXIT_USAGE;
		goto out_an;
	}
	if (!an.total_samples) {
		fprintf(stderr, "jrec annotate: %s: no samples\n", a.input);
		status = JREC_EXIT_USAGE;
		goto out_an;
	}
	if (!nr_wanted(&an, &a)) {
		fprintf(stderr, "jrec annotate: %s: no samples in the functions selected\n", a.input);
		status = JREC_EXIT_USAGE;
		goto out_an;
	}
	if (!a.json && !a.no_pager && !pager__start(&pager))
		out = pager.out;
	ret = annotate_all(&an, &a, out);
	if (fflush(out) || ferror(out))
		ret = ret ? ret : -EIO;
	if (pager.pid && (ret == -EPIPE || (ret && errno == EPIPE)))
		ret = 0;
	if (ret == -ELIBACC) {
		fprintf(stderr, "jrec annotate: the disassembler library %s could not be loaded\n",
			disasm__library());
		status = 1;
	} else if (ret) {
		fprintf(stderr, "jrec annotate: %s\n", strerror(-ret));
		status = 1;
	}
	pager__finish(&pager);
out_an:
	annotate__release(&an);
	samples__release(&it);
out_session:
	presum__release(&ps);
	session__close(&s);
out_args:
	filters__release(&a.f);
	free(a.want);
	return status;
}
