/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bigalloc: zeroed buffers of a megabyte or more that are about to be
 * touched all over (symbol arrays, lookup caches, read buffers), mapped with
 * MAP_POPULATE so that the kernel fills them in one call instead of taking a
 * page fault per 4 KiB page on first touch. Page faults are a large share of
 * a report's time: thousands of them, each costing microseconds, and tens of
 * microseconds under virtualisation.
 */
#ifndef JREC_BIGALLOC_H
#define JREC_BIGALLOC_H

#include <stddef.h>

/* @len zeroed bytes, or NULL. Free with big_free(p, len). */
void *big_zalloc(size_t len);
/* Grow or shrink @p (from big_zalloc, @old bytes) to @len; the new part is zeroed. NULL on failure, @p kept. */
void *big_realloc(void *p, size_t old, size_t len);
/* NULL-safe. */
void big_free(void *p, size_t len);

#endif
