// SPDX-License-Identifier: GPL-2.0
/* The cookies of mapped files that their records did not carry; see file-cookies.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "file-cookies.h"
#include "perf-file.h"

static int bid_cmp(const void *a, const void *b)
{
	const struct bid_entry *x = a, *y = b;

	return x->path < y->path ? -1 : x->path > y->path;
}

static int file_cmp(const void *a, const void *b)
{
	const struct bid_entry *x = a, *y = b;

	if (x->path != y->path)
		return x->path < y->path ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int add(struct file_cookies *fc, struct bid_entry **v, size_t *nr, size_t *cap,
	       const char *path, uint32_t pid, const struct jrec_cookie *c)
{
	struct bid_entry *e;

	if (array_grow(v, cap, *nr + 1))
		return -ENOMEM;
	e = &(*v)[*nr];
	memset(e, 0, sizeof(*e));
	e->path = strpool__str(fc->strings, path);
	if (!e->path)
		return -ENOMEM;
	e->pid = pid;
	e->cookie = *c;
	(*nr)++;
	return 0;
}

int file_cookies__add_build_id(struct file_cookies *fc, const char *path, const uint8_t *id,
			       size_t id_len)
{
	struct jrec_cookie c = {JMMAP_COOKIE_ELF_BUILD_ID, (uint8_t)id_len, {0}};

	memcpy(c.bytes, id, id_len);
	return add(fc, &fc->bids, &fc->nr_bids, &fc->cap_bids, path, 0, &c);
}

int file_cookies__add_file(struct file_cookies *fc, const struct jrec_file_rec *f)
{
	/* only cookies read from the very file that was mapped */
	if (f->status != JREC_FILE_SAVED && f->status != JREC_FILE_CACHED &&
	    f->status != JREC_FILE_NOT_SAVED && f->status != JREC_FILE_FAILED)
		return 0;
	if (f->cookie.kind == JMMAP_COOKIE_NONE || !f->cookie.len)
		return 0;
	return add(fc, &fc->files, &fc->nr_files, &fc->cap_files, f->path, f->pid, &f->cookie);
}

void file_cookies__drop_files(struct file_cookies *fc)
{
	fc->nr_files = 0;
}

void file_cookies__finish(struct file_cookies *fc)
{
	if (fc->nr_bids)
		qsort(fc->bids, fc->nr_bids, sizeof(*fc->bids), bid_cmp);
	if (fc->nr_files)
		qsort(fc->files, fc->nr_files, sizeof(*fc->files), file_cmp);
}

/* bsearch() by interned path, @key being the path. */
static int path_cmp(const void *key, const void *elem)
{
	const char *p = key;
	const struct bid_entry *e = elem;

	return p < e->path ? -1 : p > e->path;
}

static const struct jrec_cookie *bid_for(struct file_cookies *fc, const char *path)
{
	const char *p = fc->nr_bids ? strpool__str(fc->strings, path) : NULL;
	const struct bid_entry *e;

	if (!p)
		return NULL;
	e = bsearch(p, fc->bids, fc->nr_bids, sizeof(*fc->bids), path_cmp);
	return e ? &e->cookie : NULL;
}

/*
 * The cookie the recorder computed for @path as mapped by @pid
 * (JREC_FEAT_FILES), the only source for files the kernel gives no build-id
 * for, such as a runtime's own image format. *@exact tells whether @pid had
 * an entry; without one, the path's cookie if every process that mapped it
 * saw the same.
 */
static const struct jrec_cookie *file_cookie_for(struct file_cookies *fc, uint32_t pid,
						 const char *path, bool *exact)
{
	const char *p = fc->nr_files ? strpool__str(fc->strings, path) : NULL;
	const struct bid_entry *e, *first, *end = fc->files + fc->nr_files, *own = NULL;
	bool same = true;

	*exact = false;
	if (!p)
		return NULL;
	first = bsearch(p, fc->files, fc->nr_files, sizeof(*fc->files), path_cmp);
	if (!first)
		return NULL;
	while (first > fc->files && first[-1].path == p)
		first--;
	for (e = first; e < end && e->path == p; e++) {
		if (e->pid == pid)
			own = e;
		same = same && jrec_cookie_equal(&e->cookie, &first->cookie);
	}
	*exact = own != NULL;
	return own ? &own->cookie : same ? &first->cookie : NULL;
}

const struct jrec_cookie *file_cookies__find(struct file_cookies *fc, uint32_t pid,
					     const char *path)
{
	bool exact;
	const struct jrec_cookie *f = file_cookie_for(fc, pid, path, &exact), *c;

	/* the recorder's own finding for this process first, then the BUILD_ID feature */
	if (exact)
		return f;
	c = bid_for(fc, path);
	return c ? c : f;
}

void file_cookies__release(struct file_cookies *fc)
{
	if (!fc)
		return;
	free(fc->bids);
	free(fc->files);
	memset(fc, 0, sizeof(*fc));
}
