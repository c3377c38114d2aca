// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's sample format (script-format.h), as perf 6.1 prints it:
 *
 *   COMM  TID [CPU] SEC.USEC:     PERIOD EVENT:      IP SYM+0xOFF (DSO)
 *
 * or, for an event with call chains, the header line ending after the event
 * name and each frame below it as "\t%16x SYM+0xOFF (DSO)", then a blank
 * line. A frame in a file's mapping shows its map-relative address (the file
 * offset), as perf 6.1 does; the header line shows the sample's own.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "branch-view.h"
#include "disasm.h"
#include "dso.h"
#include "perf-file.h"
#include "perf-reader.h"
#include "samples.h"
#include "script-format.h"
#include "script-brinsn.h"
#include "script-code.h"
#include "script-hw.h"
#include "script-metric.h"
#include "script-srccode.h"
#include "script-synth.h"
#include "script-trace.h"
#include "session.h"

#define SF_DEFAULT                                                                           \
	(SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM | SF_SYMOFF | SF_DSO | \
	 SF_PERIOD)

/* perf's field names; those jrec does not print have no bit */
static const struct {
	const char *name;
	uint64_t bit;
} field_names[] = {
	{ "comm", SF_COMM },
	{ "tid", SF_TID },
	{ "pid", SF_PID },
	{ "time", SF_TIME },
	{ "cpu", SF_CPU },
	{ "event", SF_EVENT },
	{ "trace", SF_TRACE },
	{ "ip", SF_IP },
	{ "sym", SF_SYM },
	{ "dso", SF_DSO },
	{ "addr", SF_ADDR },
	{ "symoff", SF_SYMOFF },
	{ "srcline", SF_SRCLINE },
	{ "period", SF_PERIOD },
	{ "iregs", SF_IREGS },
	{ "uregs", SF_UREGS },
	{ "brstack", SF_BRSTACK },
	{ "brstacksym", SF_BRSTACKSYM },
	{ "flags", SF_FLAGS },
	{ "data_src", SF_DATA_SRC },
	{ "weight", SF_WEIGHT },
	{ "bpf-output", SF_BPF_OUTPUT },
	{ "brstackinsn", SF_BRSTACKINSN },
	{ "brstackinsnlen", SF_BRSTACKINSNLEN },
	{ "brstackoff", SF_BRSTACKOFF },
	{ "callindent", SF_CALLINDENT },
	{ "insn", SF_INSN },
	{ "insnlen", SF_INSNLEN },
	{ "synth", SF_SYNTH },
	{ "phys_addr", SF_PHYS_ADDR },
	{ "metric", SF_METRIC },
	{ "misc", SF_MISC },
	{ "srccode", SF_SRCCODE },
	{ "ipc", SF_IPC },
	{ "tod", SF_TOD },
	{ "data_page_size", SF_DATA_PAGE_SIZE },
	{ "code_page_size", SF_CODE_PAGE_SIZE },
	{ "ins_lat", SF_INS_LAT },
};

/* The -F prefix of each type, and the word perf's messages use. */
static const char *const type_prefix[SF_T_MAX] = { "hw", "sw", "trace", NULL,
						   "raw", "break", "synth", NULL };

void script_format__init(struct script_format *f)
{
	size_t t;

	memset(f, 0, sizeof(*f));
	for (t = 0; t < SF_T_MAX; t++)
		f->fields[t] = SF_DEFAULT;
	f->fields[SF_T_SW] |= SF_BPF_OUTPUT;
	f->fields[SF_T_TRACE] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE;
	f->fields[SF_T_SYNTH] = SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_IP | SF_SYM |
				SF_SYMOFF | SF_DSO | SF_SYNTH;
	f->fields[SF_T_RAW] |= SF_ADDR;
	f->max_stack = 127; /* perf's kernel.perf_event_max_stack default */
}

static bool trace_valid(size_t t, uint64_t bit)
{
	return bit != SF_TRACE || t == SF_T_TRACE;
}

int script_format__parse(struct script_format *f, const char *arg, char *err, size_t errlen)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	const char *colon = strchr(arg, ':'), *p = arg;
	int type = -1; /* all */
	bool plusminus;
	size_t t, i;

	if (colon) {
		for (t = 0; t < SF_T_MAX; t++)
			if (type_prefix[t] && strlen(type_prefix[t]) == (size_t)(colon - arg) &&
			    !strncmp(arg, type_prefix[t], (size_t)(colon - arg)))
				type = (int)t;
		if (type < 0) {
			snprintf(err, errlen, "-F %s: invalid event type (hw, sw, trace, raw, break, synth)",
				 arg);
			return -EINVAL;
		}
		p = colon + 1;
	} else if (!*arg) {
		snprintf(err, errlen, "-F: cannot set the fields to none for every event type");
		return -EINVAL;
	}
	plusminus = strchr(p, '+') || strchr(p, '-');
	/* a list of plain fields replaces the defaults; +field and -field change them */
	for (t = 0; t < SF_T_MAX && !plusminus; t++) {
		if (type >= 0 && (int)t != type)
			continue;
		f->fields[t] = 0;
		f->user_set[t] = true;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		uint64_t bit = 0;
		bool known = false;

		if (*p == '+' || *p == '-') {
			if (change == SET)
				goto badmix;
			change = *p == '+' ? ADD : REMOVE;
			p++;
			n--;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		for (i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++) {
			if (strlen(field_names[i].name) == n && !strncmp(p, field_names[i].name, n)) {
				bit = field_names[i].bit;
				known = true;
				break;
			}
		}
		if (!known) {
			snprintf(err, errlen, "-F: invalid field '%.*s'", (int)n, p);
			return -EINVAL;
		}
		if (!bit && change != REMOVE) {
			snprintf(err, errlen, "-F: perf's field '%.*s' is not printed by jrec", (int)n,
				 p);
			return -EINVAL;
		}
		for (t = 0; t < SF_T_MAX; t++) {
			if ((type >= 0 && (int)t != type) || !trace_valid(t, bit))
				continue;
			if (change == REMOVE) {
				f->fields[t] &= ~bit;
				f->user_fields[t] &= ~bit;
			} else {
				f->fields[t] |= bit;
				if (type < 0)
					f->user_fields[t] |= bit;
			}
			f->user_set[t] = true;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
badmix:
	snprintf(err, errlen, "-F %s: cannot mix +field/-field with plain fields", arg);
	return -EINVAL;
}

static size_t output_type(uint32_t attr_type)
{
	if (attr_type == SCRIPT_SYNTH_TYPE)
		return SF_T_SYNTH;
	return attr_type < SF_T_SYNTH ? attr_type : SF_T_OTHER;
}

static const char *const field_msg[] = { "comm", "tid", "pid", "time", "cpu",
					 "event", "ip", "sym", "symoff", "dso",
					 "period", "srcline", "addr", "trace",
					 "brstack", "brstacksym", "brstackoff", "misc",
					 "tod", "weight", "insn", "insnlen",
					 "data_src", "iregs", "uregs", "phys_addr",
					 "data_page_size", "code_page_size", "ins_lat",
					 "flags", "callindent", "ipc", "srccode",
					 "brstackinsn", "brstackinsnlen", "bpf-output", "synth", "metric" };

/*
 * The fields of one event with sample type @st: those its samples lack
 * dropped, or an error when -F asked for one (perf's messages). The period
 * is always there: without PERIOD in the samples, the attribute's fixed one.
 */
static int event_fields(const struct script_format *f, const struct pr_attr *a, uint64_t *out,
			char *err, size_t errlen)
{
	static const struct {
		uint64_t fields;
		uint64_t bit;
		const char *what;
	} needs[] = {
		{ SF_TID | SF_PID, PERF_SAMPLE_TID, "TID" }, { SF_TIME, PERF_SAMPLE_TIME, "TIME" },
		{ SF_CPU, PERF_SAMPLE_CPU, "CPU" },	     { SF_IP, PERF_SAMPLE_IP, "IP" },
		{ SF_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
		{ SF_TRACE, PERF_SAMPLE_RAW, "RAW" },
		{ SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
		{ SF_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
		{ SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS" },
		{ SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS" },
		{ SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
		{ SF_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
		{ SF_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
		{ SF_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	};
	size_t t = output_type(a->type), i, b;
	uint64_t fl = f->fields[t];

	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		if (!(fl & needs[i].fields) || (a->sample_type & needs[i].bit))
			continue;
		if (f->user_fields[t] & fl & needs[i].fields) {
			for (b = 0; !((1ULL << b) & fl & needs[i].fields); b++)
				;
			snprintf(err, errlen,
				 "samples for '%s' event do not have %s attribute set; cannot print "
				 "'%s' field",
				 a->name, needs[i].what, field_msg[b]);
			return -EINVAL;
		}
		fl &= ~needs[i].fields;
	}
	if (f->user_set[t]) {
		if ((fl & SF_SYM) && !(a->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
			snprintf(err, errlen, "-F sym: the samples of '%s' have no address", a->name);
			return -EINVAL;
		}
		if ((fl & SF_SYMOFF) && !(fl & SF_SYM)) {
			snprintf(err, errlen, "-F symoff: the symbol (sym) is not selected");
			return -EINVAL;
		}
		if ((fl & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN)) &&
		    !(a->branch_sample_type & PERF_SAMPLE_BRANCH_ANY)) {
			snprintf(err, errlen,
				 "Display of branch stack assembler requested, but non all-branch "
				 "filter set; run 'perf record -b ...'");
			return -EINVAL;
		}
		if ((fl & (SF_SRCLINE | SF_SRCCODE)) && !(fl & SF_IP)) {
			snprintf(err, errlen, "-F %s: the sample address (ip) is not selected",
				 (fl & SF_SRCLINE) ? "srcline" : "srccode");
			return -EINVAL;
		}
	}
	/* the payload of the events perf synthesizes, in their raw data */
	if (a->type != SCRIPT_SYNTH_TYPE || !(a->sample_type & PERF_SAMPLE_RAW))
		fl &= ~SF_SYNTH;
	/* printed for BPF-output events only, those whose samples carry its raw data */
	if (a->type != PERF_TYPE_SOFTWARE || a->config != PERF_COUNT_SW_BPF_OUTPUT ||
	    !(a->sample_type & PERF_SAMPLE_RAW))
		fl &= ~SF_BPF_OUTPUT;
	*out = t == SF_T_TRACE ? fl : fl & ~SF_TRACE;
	return 0;
}

/* The CLOCK_DATA feature when a tod field is asked for: 0, or -EINVAL when the file lacks it. */
static int read_clock_data(struct script_format *f, const struct perf_reader *r)
{
	const uint8_t *p;
	size_t t, len;
	bool tod = false;

	for (t = 0; t < SF_T_MAX; t++)
		tod |= (f->fields[t] & SF_TOD) != 0;
	if (!tod)
		return 0;
	/* u32 version, u32 clockid, u64 wall-clock ns, u64 clockid ns */
	if (perf_reader__feature(r, PERF_FEAT_CLOCK_DATA, (const void **)&p, &len) || len < 24)
		return -EINVAL;
	f->tod_ns = perf_reader__u64(r, p + 8);
	f->clockid_ns = perf_reader__u64(r, p + 16);
	return 0;
}

int script_format__setup(struct script_format *f, const struct samples *it, char *err,
			 size_t errlen)
{
	size_t i, n = samples__nr_events(it);
	int w, ret;

	free(f->ev_fields);
	free(f->ev_chain);
	f->ev_fields = calloc(n ? n : 1, sizeof(*f->ev_fields));
	f->ev_chain = calloc(n ? n : 1, sizeof(*f->ev_chain));
	if (!f->ev_fields || !f->ev_chain)
		return -ENOMEM;
	f->nr_events = n;
	f->name_width = 0;
	ret = read_clock_data(f, it->s->r);
	if (ret) {
		snprintf(err, errlen, "Can't provide 'tod' time, missing clock data. Please record with "
				      "-k/--clockid option.");
		return ret;
	}
	for (i = 0; i < n; i++) {
		const struct pr_attr *a = samples__event(it, i);

		ret = event_fields(f, a, &f->ev_fields[i], err, errlen);
		if (ret)
			return ret;
		f->ev_chain[i] = !f->hide_chain && (a->sample_type & PERF_SAMPLE_CALLCHAIN);
		if ((f->ev_fields[i] & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF)) == SF_BRSTACKOFF)
			f->brstackoff = true;
		if ((f->ev_fields[i] & SF_TRACE) && !f->trace) {
			ret = script_trace__open(&f->trace, it->s->r, err, errlen);
			if (ret)
				return ret;
		}
		w = (int)strlen(samples__event_name(it, i));
		if (w > f->name_width)
			f->name_width = w;
	}
	return 0;
}

static const char *dso_name(const struct resolved *res)
{
	if (res->dso)
		return res->dso->path;
	return res->anon_name ? res->anon_name : "[unknown]";
}

/* What follows a frame's address: " sym (dso)" and "\n  srcline", as the fields ask. */
static void print_frame_rest(struct samples *it, uint64_t fl, const struct resolved *res,
			     FILE *out)
{
	if (fl & SF_SYM) {
		fputc(' ', out);
		script__print_symname(out, res, fl & SF_SYMOFF);
	}
	/* an inlined function's frame, as perf prints it: "(inlined)" where the file would be */
	if ((fl & SF_DSO) && res->inlined)
		fputs(" (inlined)", out);
	else if (fl & SF_DSO)
		fprintf(out, " (%s)", dso_name(res));
	if (fl & SF_SRCLINE) {
		const char *line = samples__srcline_found(it, res);

		/* perf's fallback: the file's short name and the address */
		if (line)
			fprintf(out, "\n  %s", line);
		else if (res->dso)
			fprintf(out, "\n  %s[%llx]", res->dso->short_name,
				(unsigned long long)res->map_addr);
	}
}

/*
 * What follows a data address that perf names (resolve__names_data_addr()):
 * " sym" (with its offset for symoff) and " (dso)", as the fields ask.
 */
static void print_data_addr(struct samples *it, const struct sample *smp, uint64_t fl, FILE *out)
{
	struct resolved res;

	session__resolve_data(it->s, smp->pid, smp->ev->sample.addr, smp->time, &res);
	if (fl & SF_SYM) {
		fputc(' ', out);
		script__print_symname(out, &res, fl & SF_SYMOFF);
	}
	if (fl & SF_DSO)
		fprintf(out, " (%s)", dso_name(&res));
}

/* perf's names of the branch types (perf_event.h's PERF_BR_*, then PERF_BR_NEW_*) */
static const char *branch_type(uint64_t flags)
{
	static const char *const names[] = { "",	"COND",	   "UNCOND",   "IND",
					     "CALL",	"IND_CALL", "RET",     "SYSCALL",
					     "SYSRET",	"COND_CALL", "COND_RET", "ERET",
					     "IRQ",	"SERROR",   "NO_TX" };
	static const char *const new_names[] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						 "ARCH_2",     "ARCH_3",     "ARCH_4",     "ARCH_5" };
	unsigned int type = (flags >> 20) & 0xf;

	if (type == 15) /* PERF_BR_EXTEND_ABI: new_type says */
		return new_names[(flags >> 26) & 0x7];
	return names[type];
}

/* One end of a branch as brstacksym prints it: "sym+0xoff" or "[unknown]", "(dso)" */
static void print_branch_sym(FILE *out, uint64_t fl, const struct resolved *res)
{
	script__print_symname(out, res, true);
	if (fl & SF_DSO)
		fprintf(out, "(%s)", dso_name(res));
}

/* One end, @a, as brstack and brstackoff print it: "0xADDR" and "(dso)" */
static void print_branch_addr(struct samples *it, FILE *out, uint64_t fl, uint64_t a,
			      const struct resolved *res)
{
	/*
	 * perf's brstackoff: the kernel's addresses from its _text; a user
	 * file's as they are once perf has read that file's symbols (which
	 * it does when a sample or frame first lands in it), before that
	 * map-relative.
	 */
	if (!(fl & SF_BRSTACKOFF))
		;
	else if (res->level == RES_KERNEL) {
		if (res->dso && !strcmp(res->dso->path, "[kernel.kallsyms]") &&
		    it->s->kernel_text && a >= it->s->kernel_text)
			a -= it->s->kernel_text;
	} else if (res->dso && !(res->dso->script_used &&
				    (res->dso->img || res->dso->status == DSO_OK)))
		a = res->map_addr;
	fprintf(out, "0x%llx", (unsigned long long)a);
	if (fl & SF_DSO)
		fprintf(out, "(%s)", dso_name(res));
}

/* brstack, brstacksym or brstackoff (the first of them asked for): each entry, perf's layout */
static void print_brstack(struct samples *it, const struct sample *smp, uint64_t fl, FILE *out)
{
	const struct pr_sample *ps = &smp->ev->sample;
	struct resolved from, to;
	uint64_t i, a, b, flags;
	uint16_t cycles;

	if (fl & SF_BRSTACK)
		fl &= ~(SF_BRSTACKSYM | SF_BRSTACKOFF);
	else if (fl & SF_BRSTACKSYM)
		fl &= ~SF_BRSTACKOFF;
	for (i = 0; i < ps->nr_branches; i++) {
		pr_branch_at(ps, i, &a, &b, &cycles);
		flags = pr_branch_flags_at(ps, i);
		branch_view__resolve_end(it, smp, a, &from);
		branch_view__resolve_end(it, smp, b, &to);
		if (fl & SF_BRSTACKSYM) {
			if (from.dso) /* (perf reads their symbols) */
				from.dso->script_used = true;
			if (to.dso)
				to.dso->script_used = true;
			print_branch_sym(out, fl, &from);
			fputc('/', out);
			print_branch_sym(out, fl, &to);
		} else {
			fputc(' ', out);
			print_branch_addr(it, out, fl, a, &from);
			fputc('/', out);
			print_branch_addr(it, out, fl, b, &to);
		}
		fprintf(out, "/%c/%c/%c/%u/%s ",
			(flags & 1) ? 'M' : (flags & 2) ? 'P' : '-', (flags & 4) ? 'X' : '-',
			(flags & 8) ? 'A' : '-', (unsigned int)((flags >> 4) & 0xffff),
			branch_type(flags));
	}
}

static int print_chain(struct script_format *f, struct samples *it, uint64_t fl, FILE *out)
{
	const struct sample_frames *fr;
	size_t i;
	int err = samples__frames(it, &fr);

	if (err)
		return err;
	for (i = 0; i < fr->nr_chain && i < f->max_stack; i++) {
		const struct resolved *res = &fr->res[i];

		if (fl & SF_IP)
			fprintf(out, "\t%16llx",
				(unsigned long long)(res->level == RES_KERNEL ? fr->ips[i]
									      : res->map_addr));
		print_frame_rest(it, fl, res, out);
		fputc('\n', out);
	}
	return 0;
}

/*
 * The instruction at the sample's address, @res, from its file as perf reads
 * it: " ilen: N" and " insn: XX XX...", length 0 (and no bytes) where the
 * code is not in a file jrec has (the kernel's, anonymous memory).
 */
static void print_insn(struct script_format *f, struct session *s, const struct resolved *res,
		       uint64_t fl, FILE *out)
{
	struct disasm_insn in;
	uint8_t code[DISASM_INSN_MAX];
	size_t n = 0, got = 0, i;

	if (res->level != RES_KERNEL && res->dso && res->dso->status == DSO_OK && !res->jit)
		got = script_code__read(&f->code, s, res->dso, res->map_addr, code, sizeof(code));
	if (got && f->code.dis) {
		n = disasm__one(f->code.dis, code, got, res->addr, &in);
		if (!in.valid) {
			/* a vector instruction capstone does not know: its length as perf's decoder gives it */
			n = disasm__vector_length(f->code.dis, code, got);
			memcpy(in.bytes, code, n);
		}
	}
	if (fl & SF_INSNLEN)
		fprintf(out, " ilen: %zu", n);
	if ((fl & SF_INSN) && n) {
		fputs(" insn:", out);
		for (i = 0; i < n; i++)
			fprintf(out, " %02x", in.bytes[i]);
	}
}

/* The tod field: the sample's wall-clock time, local, as perf prints it */
static void print_tod(const struct script_format *f, uint64_t t, FILE *out)
{
	uint64_t ns = f->tod_ns + t - f->clockid_ns; /* modulo 2^64: before clockid_ns too */
	time_t sec = (time_t)(ns / 1000000000ULL);
	char date[64];
	struct tm tm;

	if (!localtime_r(&sec, &tm) || !strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm))
		date[0] = 0;
	if (f->ns)
		fprintf(out, "%s.%09llu ", date, (unsigned long long)(ns % 1000000000ULL));
	else
		fprintf(out, "%s.%06llu ", date, (unsigned long long)(ns % 1000000000ULL / 1000));
}

/*
 * The misc field: the cpumode's letters as perf tests them (each mode's
 * bits all set, so a hypervisor sample is "KUH"), padded to five.
 */
static void print_misc(uint16_t misc, FILE *out)
{
	static const struct {
		uint16_t mode;
		char c;
	} modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' },	{ PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' },	{ PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	char buf[8];
	size_t i, n = 0;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].mode) == modes[i].mode)
			buf[n++] = modes[i].c;
	buf[n] = 0;
	fprintf(out, "%-5s ", buf);
}

/* Note the files perf would have read the symbols of by the end of @smp (see print_branch_addr) */
static void mark_used(struct script_format *f, struct samples *it, bool chain)
{
	const struct resolved *self = samples__self(it);
	const struct sample_frames *fr;
	size_t i;

	if (self->dso)
		self->dso->script_used = true;
	if (!chain || samples__frames(it, &fr))
		return;
	for (i = 0; i < fr->nr_chain && i < f->max_stack; i++)
		if (fr->res[i].dso)
			fr->res[i].dso->script_used = true;
}

/* The fields a sample's line starts with, which its metric lines repeat: command, thread, CPU, time. */
static void print_start(const struct script_format *f, struct samples *it, const struct sample *smp,
			uint64_t fl, bool chain, FILE *out)
{
	uint64_t t = smp->time;

	if (fl & SF_COMM)
		fprintf(out, chain ? "%s " : "%16s ", samples__comm_seen(it));
	/* signed, as perf prints them: -1 for a sample of no task */
	if ((fl & SF_PID) && (fl & SF_TID))
		fprintf(out, "%5d/%-5d ", (int)smp->pid, (int)smp->tid);
	else if (fl & SF_PID)
		fprintf(out, "%5d ", (int)smp->pid);
	else if (fl & SF_TID)
		fprintf(out, "%5d ", (int)smp->tid);
	if (fl & SF_CPU)
		fprintf(out, "[%03u] ", smp->cpu);
	if (fl & SF_MISC)
		print_misc(smp->ev->misc, out);
	if (fl & SF_TOD)
		print_tod(f, t, out);
	if (fl & SF_TIME) {
		char buf[48];

		if (f->ns)
			snprintf(buf, sizeof(buf), "%5llu.%09llu", (unsigned long long)(t / 1000000000ULL),
				 (unsigned long long)(t % 1000000000ULL));
		else
			snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)(t / 1000000000ULL),
				 (unsigned long long)(t % 1000000000ULL / 1000));
		fprintf(out, "%12s: ", buf);
	}
}

struct metric_line {
	const struct script_format *f;
	struct samples *it;
	const struct sample *smp;
	uint64_t fl;
	bool chain;
	FILE *out;
};

static void print_metric_line(const char *text, void *ctx)
{
	const struct metric_line *ml = ctx;

	print_start(ml->f, ml->it, ml->smp, ml->fl, ml->chain, ml->out);
	if (text)
		fprintf(ml->out, "\tmetric: %s\n", text);
	else
		fputs("\tmetric: ", ml->out);
}

int script_format__sample(struct script_format *f, struct samples *it, const struct sample *smp,
			  FILE *out)
{
	uint64_t fl = smp->event < f->nr_events ? f->ev_fields[smp->event] : 0;
	bool chain = smp->event < f->nr_events && f->ev_chain[smp->event] && (fl & SF_IP);
	const struct pr_sample *ps = &smp->ev->sample;

	if (f->brstackoff)
		mark_used(f, it, chain);
	/* (perf prints no line at all for flags alone) */
	if (!fl || fl == SF_FLAGS)
		return 0;
	print_start(f, it, smp, fl, chain, out);
	if (fl & SF_PERIOD)
		fprintf(out, "%10llu ", (unsigned long long)smp->period);
	if (fl & SF_EVENT)
		fprintf(out, "%*s: ", f->name_width, smp->event_name);
	/* the branch's kind, which only instruction-trace decoding tells: none */
	if (fl & SF_FLAGS)
		fprintf(out, "  %-21s ", "");
	if ((fl & SF_TRACE) && smp->ev->sample.raw)
		script_trace__print(f->trace, smp->ev->sample.raw, smp->ev->sample.raw_size,
				    (int)smp->cpu, out);
	if (fl & SF_SYNTH)
		script_synth__print(ps, (unsigned long long)smp->ev->attr->config, out);
	if (fl & SF_ADDR) {
		fprintf(out, "%16llx", (unsigned long long)smp->ev->sample.addr);
		if ((fl & (SF_SYM | SF_DSO)) && resolve__names_data_addr(smp->ev->attr))
			print_data_addr(it, smp, fl, out);
	}
	if (fl & SF_DATA_SRC)
		script_hw__data_src(ps->data_src, &f->data_src_width, out);
	if (fl & SF_WEIGHT)
		fprintf(out, "%16llu", (unsigned long long)ps->weight);
	if (fl & SF_INS_LAT)
		fprintf(out, "%16u", (unsigned int)ps->ins_lat);
	if (fl & SF_IP) {
		fputc(chain ? '\n' : ' ', out);
		if (chain) {
			int err = print_chain(f, it, fl, out);

			if (err)
				return err;
		} else {
			fprintf(out, "%16llx", (unsigned long long)smp->ev->sample.ip);
			print_frame_rest(it, fl, samples__self(it), out);
		}
	}
	if (fl & SF_IREGS)
		script_hw__regs(ps, ps->iregs_abi, ps->iregs, smp->ev->attr->sample_regs_intr, out);
	if (fl & SF_UREGS)
		script_hw__regs(ps, ps->regs_abi, ps->regs, smp->ev->attr->sample_regs_user, out);
	if (fl & (SF_BRSTACK | SF_BRSTACKSYM | SF_BRSTACKOFF))
		print_brstack(it, smp, fl, out);
	if (fl & SF_BPF_OUTPUT)
		script_hw__bpf_output(ps->raw, ps->raw_size, out);
	if (fl & (SF_INSN | SF_INSNLEN))
		print_insn(f, it->s, samples__self(it), fl, out);
	if (fl & (SF_BRSTACKINSN | SF_BRSTACKINSNLEN))
		script_brinsn__print(&f->code, it, smp, fl & SF_BRSTACKINSNLEN, fl & SF_SRCLINE,
				     (fl & SF_SRCCODE) ? &f->srccode : NULL, out);
	if (fl & SF_PHYS_ADDR)
		fprintf(out, "%16llx", (unsigned long long)ps->phys_addr);
	if (fl & SF_DATA_PAGE_SIZE)
		script_hw__page_size(ps->data_page_size, out);
	if (fl & SF_CODE_PAGE_SIZE)
		script_hw__page_size(ps->code_page_size, out);
	fputc('\n', out);
	if (fl & SF_SRCCODE) {
		int err = script_srccode__print(&f->srccode, samples__self(it), smp->tid, out);

		if (err)
			return err;
	}
	if (fl & SF_METRIC) {
		struct metric_line ml = { f, it, smp, fl, chain, out };

		return script_metric__sample(&f->metric, samples__event(it, 0), f->nr_events,
					     smp->event, smp->period, print_metric_line, &ml);
	}
	return 0;
}

int script_format__record(struct script_format *f, const struct samples *it,
			  const struct pr_event *ev)
{
	const struct pr_attr *a;

	if (ev->type != PERF_RECORD_EVENT_UPDATE || !ev->update.scale_set)
		return 0;
	a = perf_reader__attr_by_id(it->s->r, ev->update.id);
	if (!a || a < samples__event(it, 0) || (size_t)(a - samples__event(it, 0)) >= f->nr_events)
		return 0;
	return script_metric__scale(&f->metric, f->nr_events, (size_t)(a - samples__event(it, 0)),
				    ev->update.scale);
}

void script_format__release(struct script_format *f)
{
	if (!f)
		return;
	free(f->ev_fields);
	free(f->ev_chain);
	script_trace__close(f->trace);
	f->trace = NULL;
	script_code__release(&f->code);
	script_srccode__delete(f->srccode);
	f->srccode = NULL;
	script_metric__delete(f->metric);
	f->metric = NULL;
	f->ev_fields = NULL;
	f->ev_chain = NULL;
}
