/* SPDX-License-Identifier: GPL-2.0 */
/*
 * header-info: what a recording says about itself, in the lines and labels
 * of perf report --header-only: the file's layout, the machine, perf's (or
 * jrec's) version, the command line, the samples' time span, and the
 * standard feature sections it lacks.
 */
#ifndef JREC_HEADER_INFO_H
#define JREC_HEADER_INFO_H

#include <stdio.h>

struct session;

/* @s opened from @path. */
void header_info__print(struct session *s, const char *path, FILE *out);

#endif
