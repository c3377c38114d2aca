// SPDX-License-Identifier: GPL-2.0
/*
 * speedscope's file format (its file-format-schema.json): one "sampled"
 * profile per command, each distinct call chain one sample (frame indices,
 * outermost first) weighted by its period: nanoseconds for cpu-clock and
 * task-clock, else the event's count ("none"). The frames, shared by the
 * profiles, carry their name and file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json.h"
#include "outputs.h"

struct speedscope {
	FILE *out;
	const struct flame_info *fi;
	struct flame_path path;
	uint32_t *index_of; /* calltree frame -> speedscope frame + 1, 0: not listed yet */
	uint32_t *listed;   /* speedscope frame -> calltree frame */
	size_t nr_listed;
	uint64_t *weights; /* of the current profile's samples */
	size_t nr_w, cap_w;
	bool in_profile;
	size_t nr_profiles;
};

static void end_profile(struct speedscope *s)
{
	size_t i;

	if (!s->in_profile)
		return;
	fputs("],\n     \"weights\": [", s->out);
	for (i = 0; i < s->nr_w; i++)
		fprintf(s->out, "%s%llu", i ? "," : "", (unsigned long long)s->weights[i]);
	fputs("]}", s->out);
	s->nr_w = 0;
	s->in_profile = false;
}

static int sample(struct calltree *ct, uint32_t node, int depth, void *arg)
{
	struct speedscope *s = arg;
	const struct ct_node *n = &ct->n[node];
	int i, err = flame_path__set(&s->path, ct, node, depth);

	if (err)
		return err;
	if (depth == 1) {
		/* a command: a profile of its own */
		end_profile(s);
		fprintf(s->out,
			"%s\n    {\"type\": \"sampled\", \"name\": ", s->nr_profiles++ ? "," : "");
		json__str(s->out, calltree__name(ct, n->frame));
		fprintf(s->out,
			", \"unit\": \"%s\", \"startValue\": 0, \"endValue\": %llu,\n"
			"     \"samples\": [",
			s->fi->period_ns ? "nanoseconds" : "none", (unsigned long long)n->total);
		s->in_profile = true;
	}
	if (depth == 1 || !n->self_n)
		return 0;
	if (array_grow(&s->weights, &s->cap_w, s->nr_w + 1))
		return -ENOMEM;
	s->weights[s->nr_w] = n->self;
	fprintf(s->out, "%s[", s->nr_w++ ? "," : "");
	for (i = 1; i < depth; i++) {
		uint32_t f = s->path.frames[i];

		if (!s->index_of[f]) {
			s->listed[s->nr_listed] = f;
			s->index_of[f] = (uint32_t)++s->nr_listed;
		}
		fprintf(s->out, "%s%u", i > 1 ? "," : "", s->index_of[f] - 1);
	}
	fputc(']', s->out);
	return 0;
}

int out_speedscope__write(struct calltree *ct, uint32_t root, const struct flame_info *fi,
			  FILE *out)
{
	struct speedscope s = {.out = out, .fi = fi};
	char title[600];
	size_t i;
	int err = -ENOMEM;

	s.index_of = calloc(ct->nr_f ? ct->nr_f : 1, sizeof(*s.index_of));
	s.listed = calloc(ct->nr_f ? ct->nr_f : 1, sizeof(*s.listed));
	if (!s.index_of || !s.listed)
		goto out;
	fputs("{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n"
	      " \"exporter\": \"jrec " JREC_VERSION "\",\n \"name\": ",
	      out);
	snprintf(title, sizeof(title), "%s (%s)", fi->file,
		 fi->event && *fi->event ? fi->event : "samples");
	json__str(out, title);
	fputs(",\n \"activeProfileIndex\": 0,\n \"profiles\": [", out);
	err = calltree__walk(ct, root, sample, &s);
	if (err)
		goto out;
	end_profile(&s);
	fputs("\n ],\n \"shared\": {\"frames\": [", out);
	for (i = 0; i < s.nr_listed; i++) {
		const struct ct_frame *f = &ct->f[s.listed[i]];

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		json__str(out, calltree__name(ct, s.listed[i]));
		if (f->dso || f->anon) {
			fputs(", \"file\": ", out);
			json__str(out, f->dso ? f->dso->path : f->anon);
		}
		fputc('}', out);
	}
	fputs("\n ]}\n}\n", out);
out:
	free(s.index_of);
	free(s.listed);
	free(s.weights);
	free(s.path.frames);
	return err;
}
