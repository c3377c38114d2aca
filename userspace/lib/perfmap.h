/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfmap: parse /tmp/perf-PID.map text, "START SIZE NAME" a line, START and
 * SIZE in hex with or without 0x. Lines that do not parse are counted, not
 * fatal.
 */
#ifndef JREC_PERFMAP_H
#define JREC_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* @name is not NUL-terminated: @name_len bytes. */
typedef int (*perfmap_fn)(uint64_t start, uint64_t size, const char *name, size_t name_len,
			  void *ctx);

/* Parse one line (without its newline). 0, -EINVAL if it does not parse. */
int perfmap__parse_line(const char *line, size_t len, uint64_t *start, uint64_t *size,
			const char **name, size_t *name_len);
/* Every line of @buf; returns what @fn returned, else 0; *bad counts bad lines. */
int perfmap__parse(const char *buf, size_t len, perfmap_fn fn, void *ctx, size_t *bad);

/*
 * A perf map read as it grows (the recorder's watcher): bytes in, complete
 * lines out, an unfinished last line kept for the next bytes.
 */
#define PERFMAP_LINE_MAX 4096 /* longer lines are dropped and counted */

struct perfmap_split {
	struct buf partial;
	int skipping;	  /* inside an over-long line */
	uint64_t dropped; /* over-long lines dropped */
};

typedef int (*perfmap_line_fn)(const char *line, size_t len, void *ctx);

/*
 * Feed n bytes; fn gets every complete, non-empty line (without the newline
 * or a trailing CR). Returns 0 or the first error of fn or -ENOMEM.
 */
int perfmap_split__feed(struct perfmap_split *s, const char *bytes, size_t n, perfmap_line_fn fn,
			void *ctx);
void perfmap_split__release(struct perfmap_split *s);

#endif
