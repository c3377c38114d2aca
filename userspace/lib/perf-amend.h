/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-amend: a finished perf.data file with feature sections added or
 * replaced. The header, the attributes and the data section are kept byte
 * for byte; the feature table and sections, which follow the data section,
 * are written anew with the new ones in their place (in id order), jrec's
 * private ones listed in their own table (perf-file.h), also when the file
 * had them in its feature bitmap as older recordings do.
 */
#ifndef JREC_PERF_AMEND_H
#define JREC_PERF_AMEND_H

#include <stddef.h>

struct perf_amend_sec {
	unsigned int id; /* the feature id, below PERF_FILE_FEAT_BITS */
	const void *data;
	size_t len;
};

/*
 * Write to @fd the @len bytes of the recording at @file with each of the
 * @nr features of @secs set to its bytes. 0; -EINVAL for an id out of
 * range; -EOPNOTSUPP for a file of the other byte order; -ESPIPE for a
 * pipe-mode recording (it has no feature table); -EBADMSG when the
 * header or the feature table does not fit the file; -errno from write().
 */
int perf_amend__write(const void *file, size_t len, const struct perf_amend_sec *secs, size_t nr,
		      int fd);

#endif
