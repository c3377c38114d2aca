// SPDX-License-Identifier: GPL-2.0
/* Placeholder until the reporter lands (issue: jrec report and script). */
#include <stdio.h>
#include "commands.h"

int cmd_report(int argc, char **argv)
{
	fprintf(stderr, "jrec report: not built yet\n");
	return 1;
}

int cmd_script(int argc, char **argv)
{
	fprintf(stderr, "jrec script: not built yet\n");
	return 1;
}
