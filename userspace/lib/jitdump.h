/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jitdump: parse a jitdump file (the format perf's JIT interface defines:
 * 40-byte header, records LOAD, MOVE, DEBUG_INFO, CLOSE, UNWINDING_INFO), in
 * either byte order, from a buffer. Every length is checked against the bytes
 * left; a record cut off at the end stops the walk and is reported. The one
 * home of the format's constants and limits: the report's parser and the
 * recorder's incremental copy (jitdump__scan) walk records the same way.
 */
#ifndef JREC_JITDUMP_H
#define JREC_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JITDUMP_MAGIC	   0x4A695444u /* read as its byte swap: the other byte order */
#define JITDUMP_HEADER_MIN 40
#define JITDUMP_HEADER_MAX 4096
#define JITDUMP_RECORD_MIN 16	       /* id, total_size, timestamp */
#define JITDUMP_RECORD_MAX (64u << 20) /* a single record above this is corrupt */
#define JITDUMP_UNWIND_MAX (1u << 20)   /* CFI of one code load above this is refused */

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
	const uint8_t *code;         /* LOAD: its code_size bytes of code, inside the buffer */
	const struct jitdump_line *lines; /* DEBUG_INFO */
	size_t nr_lines;
	/*
	 * UNWINDING_INFO, for the next LOAD: .eh_frame then .eh_frame_hdr
	 * (its last unwind_hdr_size bytes), laid out as if they followed the
	 * code in memory (what their pc-relative pointers assume).
	 */
	const uint8_t *unwind;
	uint64_t unwind_size, unwind_hdr_size, unwind_mapped_size;
};

struct jitdump_info {
	uint32_t version;
	uint32_t elf_mach; /* the code's machine, EM_* */
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

/*
 * For a copy that grows while its JIT appends: advance *@committed over the
 * header and the whole records in @buf[0..@len). 0 when everything complete
 * is committed (more bytes may follow), -EINVAL when the bytes are not a
 * jitdump or a record size is impossible (*@committed stays at the last good
 * record).
 */
int jitdump__scan(const uint8_t *buf, size_t len, size_t *committed);

#endif
