/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file-cookies: the cookies a recording gives for mapped files when their
 * mapping records carry none: the BUILD_ID feature (by path) and what the
 * recorder verified per process (JREC_FEAT_FILES). The report's lookup for a
 * mapping record without a cookie.
 */
#ifndef JREC_FILE_COOKIES_H
#define JREC_FILE_COOKIES_H

#include <stddef.h>
#include <stdint.h>

#include "cookie.h"
#include "jrec-sections.h"
#include "strpool.h"

struct bid_entry {
	const char *path; /* interned */
	uint32_t pid;	  /* JREC_FEAT_FILES: the process that mapped it; BUILD_ID: 0 */
	struct jrec_cookie cookie;
};

struct file_cookies {
	struct strpool *strings; /* the caller's; paths are compared as interned pointers */
	struct bid_entry *bids;	 /* from the BUILD_ID feature, sorted by path pointer */
	size_t nr_bids, cap_bids;
	struct bid_entry *files; /* from JREC_FEAT_FILES, sorted by path pointer, then pid */
	size_t nr_files, cap_files;
};

/* A BUILD_ID feature entry. 0 or -ENOMEM. */
int file_cookies__add_build_id(struct file_cookies *fc, const char *path, const uint8_t *id,
			       size_t id_len);
/* A JREC_FEAT_FILES entry; only cookies read from the very file mapped are kept. */
int file_cookies__add_file(struct file_cookies *fc, const struct jrec_file_rec *f);
/* Forget the JREC_FEAT_FILES entries (a corrupt section). */
void file_cookies__drop_files(struct file_cookies *fc);
/* After the last add, before the first lookup. */
void file_cookies__finish(struct file_cookies *fc);
/*
 * The cookie of @path as mapped by @pid: the recorder's own finding for this
 * process first, then the BUILD_ID feature's, then the recorder's if every
 * process that mapped the path saw the same. NULL when there is none.
 */
const struct jrec_cookie *file_cookies__find(struct file_cookies *fc, uint32_t pid,
					     const char *path);
void file_cookies__release(struct file_cookies *fc);

#endif
