// SPDX-License-Identifier: GPL-2.0
/*
 * jrec: the command dispatcher. Each subcommand lives in its own directory
 * and returns the process exit status.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const struct jrec_command commands[] = {
	{ "record", cmd_record, "Run a command and record its profile into jrec.data" },
	{ "report", cmd_report, "Read jrec.data (or perf.data) and display the profile" },
	{ "top", cmd_top, "Show the live hot spots of the system, a process or a command" },
	{ "script", cmd_script, "Read jrec.data (or perf.data) and print its events" },
	{ "annotate", cmd_annotate, "Show the sampled functions' instructions with their shares" },
	{ "archive", cmd_archive, "Store what the sampled files say (symbols, lines, code) in the recording" },
	{ "buildid-cache", cmd_buildid_cache, "List, remove and prune the build-id cache" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: jrec [--version] [--help] COMMAND [ARGS]\n\n"
		     "The commands are:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-14s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\nSee 'jrec COMMAND --help' or 'man jrec-COMMAND' for more.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("jrec version %s\n", JREC_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "jrec: '%s' is not a jrec command. See 'jrec --help'.\n", argv[1]);
	return 1;
}
