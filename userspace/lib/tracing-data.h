/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracing-data: perf's TRACING_DATA feature section, which a recording of
 * tracepoints carries so that a reader decodes their raw samples without
 * the recording machine's tracefs (perf refuses a file whose tracepoint
 * events have no format there). Its layout, as perf 6.1 writes it:
 *
 *   "\x17\x08\x44tracing" "0.6\0"   magic and version
 *   u8 big-endian?  u8 sizeof(long)  u32 page size
 *   "header_page\0"  u64 size, tracefs events/header_page
 *   "header_event\0" u64 size, tracefs events/header_event
 *   u32 0            the ftrace events' formats (none)
 *   u32 systems      then for each: its name and "\0", u32 events, and
 *                    for each event u64 size and its tracefs format file
 *   u32 0            kallsyms (perf writes none)
 *   u32 size         tracefs printk_formats
 *   u64 size         tracefs saved_cmdlines
 *
 * Numbers in the machine's byte order. Bytes in, bytes out: the caller
 * reads tracefs.
 */
#ifndef JREC_TRACING_DATA_H
#define JREC_TRACING_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct tracing_data_event {
	const char *system;
	const struct buf *format; /* events/SYSTEM/NAME/format */
};

struct tracing_data_in {
	uint32_t page_size;
	const struct buf *header_page, *header_event, *printk_formats, *saved_cmdlines;
	const struct tracing_data_event *events; /* those of one system together */
	size_t nr_events;
};

/* Append the section to @out. 0, -EINVAL (a system's events apart) or -ENOMEM. */
int tracing_data__emit(struct buf *out, const struct tracing_data_in *in);

#endif
