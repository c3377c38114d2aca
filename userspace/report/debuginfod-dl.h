/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debuginfod-dl: libdebuginfod, loaded with dlopen() on first use. Linking it
 * pulls libcurl and a TLS stack into every jrec start (about 20 ms here),
 * while only a report with DEBUGINFOD_URLS set ever calls it.
 */
#ifndef JREC_DEBUGINFOD_DL_H
#define JREC_DEBUGINFOD_DL_H

#include <stddef.h>

struct debuginfod_dl;

/* Load the library and start a client. -ENOENT when libdebuginfod is not installed. */
int debuginfod_dl__open(struct debuginfod_dl **out);
/*
 * Fetch the debuginfo for @build_id: a read-only fd and, in *@path (malloc'd),
 * where the client cached it; else a negative errno.
 */
int debuginfod_dl__find_debuginfo(struct debuginfod_dl *d, const unsigned char *build_id,
				  size_t len, char **path);
void debuginfod_dl__close(struct debuginfod_dl *d);

#endif
