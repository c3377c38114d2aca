/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of jrec; each takes argv with argv[0] = its own name. */
#ifndef JREC_COMMANDS_H
#define JREC_COMMANDS_H

#include <stdbool.h>

struct jrec_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_buildid_cache(int argc, char **argv);
int cmd_archive(int argc, char **argv);

/* Store the symbols of the files with samples in the recording at @path (jrec archive). */
int archive__file(const char *path, bool quiet);

#endif
