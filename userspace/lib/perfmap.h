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

/* @name is not NUL-terminated: @name_len bytes. */
typedef int (*perfmap_fn)(uint64_t start, uint64_t size, const char *name, size_t name_len,
			  void *ctx);

/* Parse one line (without its newline). 0, -EINVAL if it does not parse. */
int perfmap__parse_line(const char *line, size_t len, uint64_t *start, uint64_t *size,
			const char **name, size_t *name_len);
/* Every line of @buf; returns what @fn returned, else 0; *bad counts bad lines. */
int perfmap__parse(const char *buf, size_t len, perfmap_fn fn, void *ctx, size_t *bad);

#endif
