// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "outputs.h"
int out_svg__write(struct calltree *ct, uint32_t root, const struct flame_info *fi, FILE *out)
{
	return -ENOSYS;
}
