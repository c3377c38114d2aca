/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-trace: perf script's "trace" field, a tracepoint sample's fields
 * as its format prints them ("prev_comm=... ==> next_comm=..."). The
 * formats are the recording's own, from its TRACING_DATA feature section
 * (tracing-data.h gives the layout), parsed by libtraceevent, the library
 * perf itself uses for this.
 */
#ifndef JREC_SCRIPT_TRACE_H
#define JREC_SCRIPT_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct perf_reader;
struct script_trace;

/*
 * The tracepoint formats of @r's recording into *@out: NULL when the file
 * has no TRACING_DATA section. 0, or -EBADMSG with the reason in @err (a
 * section that cannot be read), or -ENOMEM.
 */
int script_trace__open(struct script_trace **out, const struct perf_reader *r, char *err,
		       size_t errlen);
/* A sample's fields from its raw record (@raw, @size bytes) taken on @cpu. */
void script_trace__print(struct script_trace *t, const void *raw, uint32_t size, int cpu,
			 FILE *out);
void script_trace__close(struct script_trace *t);

#endif
