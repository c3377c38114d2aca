// SPDX-License-Identifier: GPL-2.0
/* Dispatch to the flame graph outputs (outputs.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "outputs.h"

static const struct {
	const char *name;
	int (*write)(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out);
} outputs[] = {
    {"svg", out_svg__write},
    {"pprof", out_pprof__write},
    {"speedscope", out_speedscope__write},
    {"folded", out_folded__write},
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
		return outputs[i].write(ct, root, fi, out);
	}
	return -EINVAL;
}
