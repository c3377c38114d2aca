// SPDX-License-Identifier: GPL-2.0
/* Placeholder until the recorder lands (issue: jrec record). */
#include <stdio.h>
#include "commands.h"

int cmd_record(int argc, char **argv)
{
	fprintf(stderr, "jrec record: not built yet\n");
	return 1;
}
