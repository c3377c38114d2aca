// SPDX-License-Identifier: GPL-2.0
/* The JSON form of a report; Documentation/report-json.rst is its schema. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "json.h"

/* The branch view's keys of entry @e (branch-view.h), each as the table's cell. */
static void print_branch_keys(const struct hist *h, const struct hist_entry *e,
			      const struct report_meta *m, FILE *out)
{
	static const enum sort_key keys[] = { SK_DSO_FROM, SK_SYM_FROM, SK_DSO_TO, SK_SYM_TO };
	char buf[1200];
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!h->has[keys[i]])
			continue;
		fprintf(out, ", \"%s\": ", hist__key_name(keys[i]));
		json__str(out, hist__cell(e, keys[i], m->sym_params, buf, sizeof(buf)));
	}
	if (h->has[SK_CYCLES])
		fprintf(out, ", \"cycles\": %u", e->k.cycles);
}

/*
 * -g: the call tree of an entry, nested: each node its frame's name, its
 * period and samples, and the nodes under it; branches below the threshold
 * left out. @kids is scratch space for calltree__children().
 */
static void print_tree(const struct hist *h, struct calltree *ct, uint32_t node, uint64_t min_hit,
		       uint32_t **kids, size_t *cap, FILE *out)
{
	long nr = calltree__children(ct, node, kids, cap), i, shown = 0;
	uint32_t *mine;

	fputc('[', out);
	if (nr <= 0) {
		fputc(']', out);
		return;
	}
	/* the recursion reuses the scratch space: keep this level's own copy */
	mine = malloc((size_t)nr * sizeof(*mine));
	if (!mine) {
		fputc(']', out);
		return;
	}
	memcpy(mine, *kids, (size_t)nr * sizeof(*mine));
	for (i = 0; i < nr; i++) {
		const struct ct_node *n = &ct->n[mine[i]];

		if (n->total < min_hit)
			continue;
		fputs(shown++ ? ", {\"name\": " : "{\"name\": ", out);
		json__str(out, calltree__name(ct, n->frame));
		fprintf(out, ", \"share\": %.4f, \"period\": %llu, \"samples\": %llu, "
			     "\"self_period\": %llu, \"children\": ",
			hist__pct(n->total, h->total_period), (unsigned long long)n->total,
			(unsigned long long)n->total_n, (unsigned long long)n->self);
		print_tree(h, ct, mine[i], min_hit, kids, cap, out);
		fputc('}', out);
	}
	free(mine);
	fputc(']', out);
}

/* "entries", "unresolved" and "images" of one event, each line indented by @ind. */
static void print_arrays(const struct hist *h, const struct report_meta *m, const char *ind,
			 FILE *out)
{
	size_t i, cap_kids = 0;
	bool first = true;
	char buf[1200], hex[JREC_COOKIE_HEX_LEN];
	uint32_t *kids = NULL;
	uint64_t min_hit = m->graph ? (uint64_t)((double)h->total_period * m->graph->min_pct / 100.0)
				    : 0;

	fprintf(out, "%s\"entries\": [", ind);
	for (i = 0; i < h->nr; i++) {
		const struct hist_entry *e = &h->e[i];

		if (hist__rank_pct(h, e) < m->percent_limit)
			continue;
		fprintf(out, "%s\n%s  {\"overhead\": %.4f, \"samples\": %llu, \"period\": %llu",
			first ? "" : ",", ind, hist__pct(e->period, h->total_period),
			(unsigned long long)e->samples, (unsigned long long)e->period);
		if (h->children)
			fprintf(out, ", \"children\": %.4f, \"children_period\": %llu",
				hist__pct(e->children, h->total_period), (unsigned long long)e->children);
		first = false;
		if (h->has[SK_COMM]) {
			fputs(", \"comm\": ", out);
			json__str(out, e->k.comm);
		}
		/* the pid key is the thread, as perf's: its process, thread and command */
		if (h->has[SK_PID])
			fprintf(out, ", \"pid\": %u", e->k.pid);
		if (h->has[SK_TID] || h->has[SK_PID])
			fprintf(out, ", \"tid\": %u", e->k.tid);
		if (h->has[SK_PID] && !h->has[SK_COMM]) {
			fputs(", \"comm\": ", out);
			json__str(out, hist_entry__thread_comm(e));
		}
		if (h->has[SK_CPU])
			fprintf(out, ", \"cpu\": %d", (int)e->k.cpu);
		if (h->has[SK_PARENT]) {
			fputs(", \"parent\": ", out);
			json__str(out, e->k.parent ? e->k.parent : "[other]");
		}
		if (h->has[SK_SRCFILE]) {
			fputs(", \"srcfile\": ", out);
			json__str(out, e->k.srcfile ? e->k.srcfile : "");
		}
		if (h->has[SK_DSO] || h->has[SK_BUILDID]) {
			fputs(", \"dso\": ", out);
			json__str(out, e->k.dso ? e->k.dso->path : (e->k.anon ? e->k.anon : "[unknown]"));
			hex[0] = 0;
			if (e->k.dso && e->k.dso->cookie.len)
				jrec_cookie_hex(&e->k.dso->cookie, hex);
			fputs(", \"build_id\": ", out);
			json__str(out, hex);
		}
		if (h->has[SK_SYM]) {
			fputs(", \"sym\": ", out);
			if (e->k.sym)
				json__str(out, hist__sym_name(&e->k, m->sym_params, buf, sizeof(buf)));
			else
				fputs("null", out);
			fprintf(out, ", \"addr\": \"0x%llx\", \"kernel\": %s",
				(unsigned long long)e->k.addr, e->k.level == 'k' ? "true" : "false");
			if (e->k.sym)
				fprintf(out, ", \"sym_start\": \"0x%llx\"",
					(unsigned long long)e->k.sym_start);
		}
		if (h->has[SK_SRCLINE]) {
			fputs(", \"srcline\": ", out);
			json__str(out, e->k.srcline ? e->k.srcline : "??:0");
		}
		if (h->has[SK_STATE]) {
			fputs(", \"state\": ", out);
			json__str(out, e->k.state ? e->k.state : "?");
		}
		print_branch_keys(h, e, m, out);
		if (m->graph && e->tree != CT_NONE) {
			fputs(", \"call_tree\": ", out);
			print_tree(h, m->graph->ct, e->tree, min_hit, &kids, &cap_kids, out);
		}
		fputc('}', out);
	}
	free(kids);
	fprintf(out, "\n%s],\n%s\"unresolved\": [", ind, ind);
	for (i = 0; i < h->nr_u; i++) {
		const struct unres_entry *u = &h->u[i];

		hex[0] = 0;
		if (u->dso && u->dso->cookie.len)
			jrec_cookie_hex(&u->dso->cookie, hex);
		fprintf(out, "%s\n%s  {\"dso\": ", i ? "," : "", ind);
		json__str(out, u->dso ? u->dso->path : (u->anon ? u->anon : "[unknown]"));
		fputs(", \"build_id\": ", out);
		json__str(out, hex);
		fputs(", \"reason\": ", out);
		json__str(out, dso_status_str(u->why));
		fprintf(out, ", \"samples\": %llu, \"share\": %.4f}", (unsigned long long)u->samples,
			hist__pct(u->period, h->total_period));
	}
	fprintf(out, "\n%s],\n%s\"images\": [", ind, ind);
	for (i = 0; i < h->nr_img; i++) {
		const struct unres_entry *u = &h->img[i];

		jrec_cookie_hex(&u->dso->cookie, hex);
		fprintf(out, "%s\n%s  {\"dso\": ", i ? "," : "", ind);
		json__str(out, u->dso->path);
		fputs(", \"cookie_kind\": ", out);
		json__str(out, jrec_cookie_kind_name(&u->dso->cookie));
		fputs(", \"cookie\": ", out);
		json__str(out, hex);
		fprintf(out, ", \"samples\": %llu, \"share\": %.4f}", (unsigned long long)u->samples,
			hist__pct(u->period, h->total_period));
	}
	fprintf(out, "\n%s]", ind);
}

void hist__print_json(const struct hist *const *hs, const char *const *events, size_t n,
		      const struct report_meta *m, FILE *out)
{
	const struct hist *h = hs[0];
	size_t i, k;

	fprintf(out, "{\n  \"schema\": \"jrec-report\",\n  \"version\": 1,\n  \"file\": ");
	json__str(out, m->file);
	fprintf(out, ",\n  \"event\": ");
	json__str(out, events[0]);
	fprintf(out, ",\n  \"mode\": ");
	json__str(out, m->mode ? m->mode : "");
	fprintf(out, ",\n  \"cut_short\": ");
	if (m->cut_short)
		json__str(out, m->cut_short);
	else
		fputs("null", out);
	fprintf(out, ",\n  \"kernel_symbols\": ");
	json__str(out, m->ksyms_source ? m->ksyms_source : "");
	fprintf(out, ",\n  \"kernel_release\": ");
	json__str(out, m->kernel_release ? m->kernel_release : "");
	fprintf(out, ",\n  \"kernel_build_id\": ");
	json__str(out, m->kernel_build_id ? m->kernel_build_id : "");
	fprintf(out, ",\n  \"kernel_text\": \"0x%llx\"", (unsigned long long)m->kernel_text);
	fprintf(out, ",\n  \"children\": %s", h->children ? "true" : "false");
	if (m->graph)
		fprintf(out, ",\n  \"call_graph\": {\"order\": \"%s\", \"threshold\": %.4f}",
			m->graph->caller ? "caller" : "callee", m->graph->min_pct);
	fprintf(out, ",\n  \"lost_samples\": %llu,\n  \"total_samples\": %llu,\n"
		     "  \"total_period\": %llu,\n  \"sort\": [",
		(unsigned long long)m->lost, (unsigned long long)h->total_samples,
		(unsigned long long)h->total_period);
	for (k = 0; k < h->nr_keys; k++)
		if (h->keys[k] != SK_IPC) /* (perf's table's column, not a key of jrec's) */
			fprintf(out, "%s\"%s\"", k ? ", " : "", hist__key_name(h->keys[k]));
	fputs("],\n", out);
	print_arrays(h, m, "  ", out);
	/* a recording of several events: one report each, the first above */
	if (n > 1) {
		fputs(",\n  \"other_events\": [", out);
		for (i = 1; i < n; i++) {
			fprintf(out, "%s\n    {\"event\": ", i > 1 ? "," : "");
			json__str(out, events[i]);
			fprintf(out, ", \"total_samples\": %llu, \"total_period\": %llu,\n",
				(unsigned long long)hs[i]->total_samples,
				(unsigned long long)hs[i]->total_period);
			print_arrays(hs[i], m, "     ", out);
			fputs("}", out);
		}
		fputs("\n  ]", out);
	}
	fputs("\n}\n", out);
}
