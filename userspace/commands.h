/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of jrec; each takes argv with argv[0] = its own name. */
#ifndef JREC_COMMANDS_H
#define JREC_COMMANDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* The exit status of bad usage: an unknown option, a bad option argument. */
#define JREC_EXIT_USAGE 2

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
int cmd_top(int argc, char **argv);
int cmd_annotate(int argc, char **argv);

/*
 * The one line for an option getopt_long() refused (with opterr = 0: an
 * unknown option, or one whose argument is missing), naming the command.
 * Returns JREC_EXIT_USAGE.
 */
static inline int cmd__bad_option(const char *cmd, char **argv)
{
	if (optopt && optopt < 256)
		fprintf(stderr, "jrec %s: invalid or incomplete option '-%c'; see 'jrec %s --help'\n",
			cmd, optopt, cmd);
	else
		fprintf(stderr, "jrec %s: invalid or incomplete option '%s'; see 'jrec %s --help'\n",
			cmd, argv[optind - 1], cmd);
	return JREC_EXIT_USAGE;
}

/* Store the symbols of the files with samples in the recording at @path (jrec archive). */
int archive__file(const char *path, bool quiet);

#endif
