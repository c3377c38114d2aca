// SPDX-License-Identifier: GPL-2.0
/*
 * FlameGraph's folded stacks: one line per distinct call chain, its frames
 * from the command down to the sampled function joined by ';', a space and
 * the number of samples (the period in nanoseconds for off-CPU and wall
 * time, flame_info.by_period). A ';' in a name is written as ':', so that it does
 * not split the frame.
 */
#include <errno.h>
#include <stdlib.h>

#include "outputs.h"

struct folded {
	struct flame_path path;
	FILE *out;
	bool by_period;
};

static void frame(FILE *out, const char *name)
{
	for (; *name; name++)
		fputc(*name == ';' ? ':' : *name == '\n' ? ' ' : *name, out);
}

static int line(struct calltree *ct, uint32_t node, int depth, void *arg)
{
	struct folded *f = arg;
	int i, err = flame_path__set(&f->path, ct, node, depth);
	uint64_t v = f->by_period ? ct->n[node].self : ct->n[node].self_n;

	if (err || !v)
		return err;
	for (i = 0; i < depth; i++) {
		if (i)
			fputc(';', f->out);
		frame(f->out, calltree__name(ct, f->path.frames[i]));
	}
	fprintf(f->out, " %llu\n", (unsigned long long)v);
	return 0;
}

int out_folded__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out)
{
	struct folded f = {.out = out, .by_period = fi->by_period};
	int err = calltree__walk(ct, root, line, &f);

	free(f.path.frames);
	return err;
}
