// SPDX-License-Identifier: GPL-2.0
/* jrec report: read a recording and show where the samples went. */
#include <errno.h>
#include <stdarg.h>
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
#include "report.h"
#include "samples.h"
#include "session.h"

static void graph_setup(struct report *r, const struct report_args *a, struct report_meta *meta,
			const char *sort);

/*
 * What @h's order of entries of equal share depends on (hist__sort()), as
 * perf's: --children, the function's name as shown, -n, and with call
 * chains in use (not -g none) the caller above its callees, by the order
 * the chains are walked in.
 */
static void hist_order(const struct report *r, struct hist *h, const struct report_args *a,
		       const struct report_meta *meta)
{
	bool chains = samples__have_chains(&r->it) && !(a->graph_set && r->graph.mode == GRAPH_NONE);

	h->children = r->children;
	h->sym_style = meta->sym_params;
	h->rank_samples = meta->show_nr_samples;
	h->nr_rank = meta->fields ? meta->fields->nr_rank : 0;
	if (h->nr_rank)
		memcpy(h->rank, meta->fields->rank, h->nr_rank * sizeof(*h->rank));
	h->depth_order = !r->children || !chains ? 0 :
			 !r->graph.order_set || r->graph.caller ? 1 : -1;
}

/* What each sample's key needs resolved for the sort keys of @h. */
static void set_needs(struct report *r, const struct hist *h)
{
	r->need_srcline = h->has[SK_SRCLINE];
	r->need_srcfile = h->has[SK_SRCFILE];
	r->need_parent = h->has[SK_PARENT];
	r->need_state = h->has[SK_STATE];
	r->need_comm = h->has[SK_COMM] || h->has[SK_PID] || r->f.nr_comms || r->want_flame;
}

/* Whether @col is in @f's sort list already. */
static bool rank_has(const struct hist_fields *f, int col)
{
	size_t i;

	for (i = 0; i < f->nr_rank; i++)
		if (f->rank[i] == col)
			return true;
	return false;
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
	const char *user_keys = a->sort;
	struct hist keys = { 0 };
	char bad[64];
	size_t i;

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
	/* perf's sort list: --sort's keys, then the columns not among them */
	r->fields.nr_rank = 0;
	if (user_sort && !hist__set_sort(&keys, user_keys, bad, sizeof(bad)))
		for (i = 0; i < keys.nr_keys; i++)
			r->fields.rank[r->fields.nr_rank++] = keys.keys[i];
	for (i = 0; i < r->fields.nr; i++)
		if (!rank_has(&r->fields, r->fields.col[i]))
			r->fields.rank[r->fields.nr_rank++] = r->fields.col[i];
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
	/*
	 * Children only with call chains to add up: as perf report, --children
	 * on a recording without them is self time. The flame graph outputs
	 * have no table: its Children column would go unused.
	 */
	r->children = a->children != 0 && samples__have_chains(&r->it) && !r->want_flame;
	for (i = 0; i < r->nr_hs; i++) {
		hist__set_sort(&r->hs[i], a->sort, bad, sizeof(bad));
		/* as perf report, which appends its IPC column to such a --sort */
		if (a->sort_typed && strstr(a->sort_typed, "symbol"))
			hist__add_ipc(&r->hs[i]);
		hist_order(r, &r->hs[i], a, meta);
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
 * An error of the report, one line on standard error. The browser's
 * terminal, opened while the recording is read (browser__open_early()), is
 * given back first, so that the line stays on the screen.
 */
static void __attribute__((format(printf, 1, 2))) report_error(const char *fmt, ...)
{
	va_list ap;

	browser__close_early();
	fputs("jrec report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
		report_error("--wall: %s has no off-CPU samples (record with jrec record --off-cpu)",
			     a->input);
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
	report_error("-e %s: %s has no such event (%s)", r->event, a->input, names);
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
 * has), sorted (unless the browser sorts them: r->sort_later); in group mode
 * every member of a group that has samples, its leader first.
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
			if (!r->sort_later)
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
		if (!r->sort_later)
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
 * perf's pid key names a thread by its command at the end, as it prints its
 * thread's last comm (a process that exec'd is one entry, named for the
 * last program it ran); the comm key stays the command at each sample, in a
 * column as wide as the longest last command of the entries' threads.
 */
static void thread_comms(struct report *r)
{
	size_t i, j;

	for (i = 0; i < r->nr_hs; i++) {
		struct hist *h = &r->hs[i];

		if (!h->has[SK_PID] && !h->has[SK_COMM])
			continue;
		for (j = 0; j < h->nr; j++)
			h->e[j].thread_comm =
				session__comm(&r->s, h->e[j].k.tid, h->e[j].k.pid, UINT64_MAX);
	}
}

/*
 * The browser's histogram for @q: the samples counted again when its sort
 * or zoom differ from what they were counted for; the first event with
 * samples. Sorted, or while none is yet and @q asks for its first entries
 * only (the first screen), those put in order alone when they can be
 * (hist__sort_first()); the next query without it sorts them all.
 */
static int tui_build(void *ctx, const struct browser_query *q, struct browser_data *d)
{
	struct report *r = ctx;
	size_t i, k, nattr = samples__nr_events(&r->it);
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
			hist_order(r, &r->hs[i], r->args, r->meta);
			r->hs[i].flame_root = CT_NONE;
		}
		calltree__release(&r->ct);
		r->ct.by_address = true;
		r->ct.sym_params = r->meta->sym_params;
		report__forget_frames(r);
		set_needs(r, &r->hs[0]);
		r->graph.skip_first = !strncmp(q->sort, "sym", 3);
		r->zoom = q->zoom;
		r->built = *q;
		r->progress = false;
		err = report__count(r);
		if (err)
			return err;
		thread_comms(r);
		r->sort_later = true;
	}
	for (i = 0; i < r->nr_hs && !r->hs[i].total_samples; i++)
		;
	if (i == r->nr_hs)
		i = 0;
	d->partial = false;
	if (r->sort_later && q->first && !hist__sort_first(&r->hs[i], q->first)) {
		d->partial = true;
	} else if (r->sort_later) {
		for (k = 0; k < r->nr_hs; k++)
			hist__sort(&r->hs[k]);
		r->sort_later = false;
	}
	r->tui_meta = *r->meta;
	r->tui_meta.event = nattr ? samples__event(&r->it, i)->name : "";
	/* as perf's browser, zoomed into a file: its Shared Object column left out, as --dsos does */
	if (r->zoom.dso_set)
		r->tui_meta.pin[SK_DSO] = r->zoom.dso_name;
	d->h = &r->hs[i];
	d->m = &r->tui_meta;
	d->trees_later = r->trees_later;
	return 0;
}

/* The warnings of a damaged recording, on standard error. */
static void warn_damage(const struct report *r, const struct report_args *a,
			const struct report_meta *meta)
{
	if (meta->cut_short && !a->quiet)
		fprintf(stderr, "jrec report: warning: %s was cut short (%s); reporting what it holds\n",
			a->input, meta->cut_short);
	if (!a->quiet && session__nr_bad(&r->s))
		fprintf(stderr, "jrec report: warning: %llu malformed records skipped\n",
			(unsigned long long)session__nr_bad(&r->s));
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
	bool *leader = NULL;
	struct shown_groups groups = { 0 };
	char kbid[JREC_COOKIE_HEX_LEN];
	size_t i;
	struct pager pager = { 0 };
	FILE *out = stdout;
	int ret;

	r->sort_later = !strcmp(fmt->name, "tui"); /* the browser's first screen first (tui_build()) */
	ret = shown_events(r, &shown, &events, &view.nr, &groups);
	if (!ret && !(leader = calloc(view.nr, sizeof(*leader))))
		ret = -ENOMEM;
	if (ret) {
		report_error("%s", strerror(-ret));
		goto out;
	}
	for (i = 0; i < view.nr && !r->wall; i++) {
		size_t k = (size_t)(shown[i] - r->hs);
		const struct pr_attr *e = k < samples__nr_events(&r->it) ? samples__event(&r->it, k) : NULL;

		leader[i] = e && e->group_leader == k && e->group_members > 1;
	}
	view.leader = leader;
	meta->file = a->input;
	meta->lost = r->s.nr_lost;
	meta->mode = r->s.mode;
	meta->ksyms_source = r->s.ksyms_source;
	meta->kernel_release = r->s.kernel_release;
	meta->kernel_text = r->s.kernel_text;
	jrec_cookie_hex(&r->s.kernel_bid, kbid);
	meta->kernel_build_id = kbid;
	meta->cut_short = session__cut_short(&r->s);
	/* the browser may have the screen already: its warnings come when it is done */
	if (strcmp(fmt->name, "tui"))
		warn_damage(r, a, meta);
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
	browser__close_early(); /* when the browser did not take it (an error) */
	if (!strcmp(fmt->name, "tui"))
		warn_damage(r, a, meta);
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
	free(leader);
	free(groups.size);
	free(groups.names);
	free(groups.buf);
	return ret;
}

#define NEEDS_TERMINAL                                                                      \
	"jrec report: --tui: the browser needs a terminal that TERM names on standard input " \
	"and output (and no -o)\n"

/*
 * The report once more, as --stdio: the browser was chosen for a terminal
 * that ncurses turned out not to know. (Rare enough that reading the
 * recording twice is cheaper than asking ncurses before every report.)
 */
static int report_again_as_stdio(int argc, char **argv)
{
	char **av = calloc((size_t)argc + 2, sizeof(*av));
	int ret;

	if (!av) {
		fprintf(stderr, "jrec report: %s\n", strerror(ENOMEM));
		return 1;
	}
	av[0] = argv[0];
	av[1] = (char *)"--stdio";
	memcpy(av + 2, argv + 1, (size_t)(argc - 1) * sizeof(*av));
	ret = cmd_report(argc + 1, av);
	free(av);
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
	bool guessed = false, as_stdio = false; /* the browser for a terminal; the text after all */
	size_t i;

	r.graph.min_pct = 0.5; /* perf's default threshold */
	ret = report_args__parse(&r, &a, &meta, argc, argv);
	if (ret) {
		status = ret > 0 ? 0 : JREC_EXIT_USAGE; /* --help, or bad usage */
		goto out;
	}
	if (!a.format) {
		/* ncurses' knowing TERM is found while the pass runs (browser__ready()) */
		a.format = !a.output && browser__on_terminal() ? "tui" : "stdio";
		guessed = true;
	}
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
	if (!ret && !strcmp(a.format, "tui") && (a.output || !browser__on_terminal())) {
		fputs(NEEDS_TERMINAL, stderr);
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
		report__presum(&r);
		/* user space resolved first, while the kernel's symbols load (presum__feed()) */
		r.s.ksyms_wait_later = true;
		/* the browser's terminal set up by a thread that waits or is done */
		if (!strcmp(a.format, "tui"))
			r.s.kernel_wait_work = browser__open_early;
		ret = session__load(&r.s);
		if (ret)
			report_error("%s: %s", a.input, strerror(-ret));
	}
	if (!ret && filters__time_needs_bounds(&r.f)) {
		uint64_t first, last;

		ret = session__sample_span(&r.s, &first, &last);
		if (!ret && filters__time_bounds(&r.f, first, last))
			ret = -EINVAL;
		if (ret)
			report_error("--time: %s",
				     ret == -ENOENT ? "the samples have no times" : "bad percentages");
	}
	if (!ret)
		ret = check_events(&r, &a);
	if (!ret) {
		clock_gettime(CLOCK_MONOTONIC, &r.t0);
		r.progress = isatty(2) && !a.quiet;
		ret = report__count(&r);
		session__kernel_wait(&r.s); /* before anything reads the kernel's symbols */
		if (r.progress && r.done >= 0x10000 && report__elapsed(&r.t0) > 1.0)
			fputs("\r\033[K", stderr);
		if (ret)
			report_error("%s: %s", a.input, strerror(-ret));
		else
			thread_comms(&r);
	}
	/* a TERM that ncurses does not know: the text instead, unless --tui asked for the browser */
	if (!ret && !strcmp(a.format, "tui") && !browser__ready()) {
		if (guessed) {
			as_stdio = true;
		} else {
			fputs(NEEDS_TERMINAL, stderr);
			status = JREC_EXIT_USAGE;
			ret = -EINVAL;
		}
	}
	if (!ret && !as_stdio)
		ret = write_report(&r, &a, &meta, fmt);
	if (r.opened)
		session__close(&r.s);
	calltree__release(&r.ct);
	calltree__release(&r.flame);
	samples__release(&r.it);
	report__count_release(&r);
	free(r.frames);
out:
	for (i = 0; i < r.nr_hs; i++)
		hist__release(&r.hs[i]);
	free(r.hs);
	filters__release(&r.f);
	if (r.have_parent_re)
		regfree(&r.parent_re);
	if (as_stdio)
		return report_again_as_stdio(argc, argv);
	return status >= 0 ? status : ret ? 1 : 0;
}
