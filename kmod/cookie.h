/* SPDX-License-Identifier: GPL-2.0 */
/* jmmap cookies: what identifies a mapped file's contents. */
#ifndef JMMAP_COOKIE_H
#define JMMAP_COOKIE_H

#include <linux/fs.h>
#include <linux/types.h>

#include "jmmap.h"

struct jmmap_cookie {
	u8 kind; /* enum jmmap_cookie_kind */
	u8 len;
	u8 why;  /* enum jmmap_cookie_why when kind is JMMAP_COOKIE_NONE */
	u8 bytes[JMMAP_COOKIE_MAX];
};

int jmmap_cookie_init(void);
void jmmap_cookie_exit(void);

/*
 * The cookie of @file: its GNU build-id note if it is an ELF file with one,
 * else the content cookie; JMMAP_COOKIE_NONE with the reason in @out->why
 * if it cannot be had. Task context only: reads the file and may sleep, but
 * never waits on a remote or user-space filesystem (only its page cache is
 * read). Cached per inode.
 */
void jmmap_cookie_of_file(struct file *file, struct jmmap_cookie *out);

#endif
