/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs for jrec record's tracepoints: where it is mounted, a
 * tracepoint's id, and the TRACING_DATA section (lib/tracing-data.h) of the
 * recorded ones.
 */
#ifndef JREC_RECORD_TRACEFS_H
#define JREC_RECORD_TRACEFS_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "event-spec.h"

/*
 * The directory tracefs is mounted on (/sys/kernel/tracing, the debugfs
 * one, or any tracefs of /proc/mounts) whose events/ is readable.
 * 0, or -ENOENT when there is none.
 */
int tracefs__find(char *dir, size_t len);

/*
 * The id of tracepoint @sys:@name (DIR/events/SYS/NAME/id), into *@id.
 * 0, -ENOENT for no such tracepoint, or -errno reading it; @path is the file.
 */
int tracefs__tp_id(const char *dir, const char *sys, const char *name, uint64_t *id, char *path,
		   size_t plen);

/*
 * The tracepoints whose SYSTEM matches glob @sys and NAME glob @name, as
 * {SYSTEM, NAME} into @out, in tracefs's directory order as perf lists
 * them; their number into *@nr. 0, -E2BIG past @max, or -errno.
 */
int tracefs__glob(const char *dir, const char *sys, const char *name, char (*out)[2][64],
		  size_t max, size_t *nr);

/* The TRACING_DATA of @l's tracepoints, each once, into @out. 0 or -errno. */
int tracefs__tracing_data(const char *dir, const struct event_list *l, struct buf *out);

#endif
