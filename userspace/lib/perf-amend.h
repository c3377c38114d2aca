/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-amend: a finished perf.data file with one feature section added or
 * replaced. The header, the attributes and the data section are kept byte
 * for byte; the feature table and sections, which follow the data section,
 * are written anew with the new one in its place (in id order).
 */
#ifndef JREC_PERF_AMEND_H
#define JREC_PERF_AMEND_H

#include <stddef.h>

/*
 * Write to @fd the @len bytes of the recording at @file with feature @id set
 * to the @sec_len bytes at @sec. 0; -EOPNOTSUPP for a file of the other
 * byte order; -EBADMSG when the header or the feature table does not fit
 * the file; -errno from write().
 */
int perf_amend__write(const void *file, size_t len, unsigned int id, const void *sec,
		      size_t sec_len, int fd);

#endif
