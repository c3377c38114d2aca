/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitdump: parse a jitdump file (the format perf's JIT interface defines:
 * 40-byte header, records LOAD, MOVE, DEBUG_INFO, CLOSE, UNWINDING_INFO), in
 * either byte order, from a buffer. Every length is checked against the bytes
 * left; a record cut off at the end stops the walk and is reported.
 */
#ifndef JREC_JITDUMP_H
#define JREC_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JITDUMP_MAGIC 0x4A695444u

enum jitdump_rec {
	JITDUMP_LOAD = 0,
	JITDUMP_MOVE = 1,
	JITDUMP_DEBUG_INFO = 2,
	JITDUMP_CLOSE = 3,
	JITDUMP_UNWINDING_INFO = 4,
};

#define JITDUMP_FLAGS_ARCH_TIMESTAMP 1ULL

struct jitdump_line {
	uint64_t addr;
	uint32_t lineno;
	const char *file; /* NUL-terminated inside the buffer */
};

struct jitdump_event {
	uint32_t type; /* enum jitdump_rec */
	uint64_t time;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	uint64_t old_addr, new_addr; /* MOVE */
	const char *name;            /* LOAD: NUL-terminated inside the buffer */
	const struct jitdump_line *lines; /* DEBUG_INFO */
	size_t nr_lines;
};

struct jitdump_info {
	uint32_t version;
	uint32_t pid;
	uint64_t time;
	uint64_t flags;
	bool swapped;
	bool truncated;   /* the last record does not fit: the writer stopped there */
	uint64_t records; /* records passed to the callback */
};

typedef int (*jitdump_fn)(const struct jitdump_event *ev, void *ctx);

/*
 * Walk @buf. 0 when the header was good (even if truncated later), -EINVAL
 * when it is not a jitdump, -ENOMEM, or what @fn returned.
 */
int jitdump__parse(const void *buf, size_t len, jitdump_fn fn, void *ctx,
		   struct jitdump_info *info);

#endif
