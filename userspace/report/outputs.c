// SPDX-License-Identifier: GPL-2.0
/* The table of outputs (outputs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "outputs.h"

/* A flame graph output: the first event's tree, an empty one when it has no samples. */
static int flame(const struct output_view *v, FILE *out,
		 int (*fn)(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out))
{
	uint32_t root = v->hs[0]->flame_root;
	int err;

	/* no samples: an empty tree, so that every format still writes a valid file */
	if (root == CT_NONE) {
		err = calltree__new_root(v->flame, &root);
		if (err)
			return err;
	}
	return fn(v->flame, root, v->fi, out);
}

static int write_folded(const struct output_view *v, FILE *out)
{
	return flame(v, out, out_folded__write);
}

static int write_svg(const struct output_view *v, FILE *out)
{
	return flame(v, out, out_svg__write);
}

static int write_pprof(const struct output_view *v, FILE *out)
{
	return flame(v, out, out_pprof__write);
}

static int write_speedscope(const struct output_view *v, FILE *out)
{
	return flame(v, out, out_speedscope__write);
}

/*
 * perf's table, one section per event or event group, the file's header
 * on the first only.
 */
static int write_stdio(const struct output_view *v, FILE *out)
{
	struct report_meta m = *v->meta;
	size_t i;

	for (i = 0; i < v->nr; i++) {
		size_t n = v->group ? v->group[i] : 1;

		if (!n)
			continue;
		m.section_only = i > 0;
		if (n > 1) {
			hist__print_group_stdio(v->hs + i, n, v->group_names[i], &m, out);
			continue;
		}
		m.event = v->events[i];
		m.events_plural = v->leader && v->leader[i];
		if (m.fields)
			hist__print_fields_stdio(v->hs[i], &m, out); /* -F's columns */
		else
			hist__print_stdio(v->hs[i], &m, out);
	}
	return 0;
}

static int write_json(const struct output_view *v, FILE *out)
{
	hist__print_json(v->hs, v->events, v->nr, v->meta, out);
	return 0;
}

/* The interactive browser on the terminal; @out is unused. */
static int write_tui(const struct output_view *v, FILE *out)
{
	return v->live ? browser__run(v->live, v->query) : -ENOTTY;
}

static const struct output outputs[] = {
	{"tui", false, write_tui},
	{"stdio", false, write_stdio},
	{"json", false, write_json},
	{"svg", true, write_svg},
	{"pprof", true, write_pprof},
	{"speedscope", true, write_speedscope},
	{"folded", true, write_folded},
};

const struct output *outputs__find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (!strcmp(name, outputs[i].name))
			return &outputs[i];
	return NULL;
}

int outputs__write(const struct output *o, const struct output_view *v, FILE *out)
{
	return o->write(v, out);
}
