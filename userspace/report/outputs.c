// SPDX-License-Identifier: GPL-2.0
/* Dispatch to the flame graph outputs, and what they share (outputs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "outputs.h"

static const struct {
	const char *name;
	int (*write)(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
} outputs[] = {
    {"svg", out_svg__write},
    {"pprof", out_pprof__write},
    {"speedscope", out_speedscope__write},
    {"folded", NULL},
};

bool outputs__known(const char *format)
{
	size_t i;

	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (!strcmp(format, outputs[i].name))
			return true;
	return false;
}

int outputs__write(const char *format, struct calltree *ct, const struct hist *h,
		   const struct flame_info *fi, FILE *out)
{
	uint32_t root = h->flame_root;
	size_t i;
	int err;

	/* no samples: an empty tree, so that every format still writes a valid file */
	if (root == CT_NONE) {
		err = calltree__new_root(ct, &root);
		if (err)
			return err;
	}
	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		if (strcmp(format, outputs[i].name))
			continue;
		if (!outputs[i].write)
			return out_folded__write(ct, root, out);
		return outputs[i].write(ct, root, fi, out);
	}
	return -EINVAL;
}

struct walk_item {
	uint32_t node;
	int depth;
};

int outputs__walk(struct calltree *ct, uint32_t root,
		  int (*fn)(struct calltree *ct, uint32_t node, int depth, void *arg), void *arg)
{
	struct walk_item *stack = NULL;
	size_t sp = 0, cap = 0;
	uint32_t *kids = NULL;
	size_t cap_kids = 0;
	long nr, i;
	int err = 0;

	if (array_grow(&stack, &cap, 1))
		return -ENOMEM;
	stack[sp].node = root;
	stack[sp++].depth = 0;
	while (sp && !err) {
		struct walk_item it = stack[--sp];

		if (it.depth)
			err = fn(ct, it.node, it.depth, arg);
		if (err)
			break;
		nr = calltree__children(ct, it.node, &kids, &cap_kids);
		if (nr < 0 || array_grow(&stack, &cap, sp + (size_t)(nr > 0 ? nr : 0))) {
			err = -ENOMEM;
			break;
		}
		/* pushed last to first, so the biggest child comes out first */
		for (i = nr - 1; i >= 0; i--) {
			stack[sp].node = kids[i];
			stack[sp++].depth = it.depth + 1;
		}
	}
	free(stack);
	free(kids);
	return err;
}

int flame_path__set(struct flame_path *p, const struct calltree *ct, uint32_t node, int depth)
{
	if (array_grow(&p->frames, &p->cap, (size_t)depth))
		return -ENOMEM;
	p->frames[depth - 1] = ct->n[node].frame;
	return 0;
}
