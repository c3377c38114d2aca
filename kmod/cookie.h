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
	u8 bytes[JMMAP_COOKIE_MAX];
};

int jmmap_cookie_init(void);
void jmmap_cookie_exit(void);

/*
 * The cookie of @file: its GNU build-id note if it is an ELF file with one,
 * else the content cookie; JMMAP_COOKIE_NONE if it cannot be read. Task
 * context only: reads the file and may sleep. Cached per inode.
 */
void jmmap_cookie_of_file(struct file *file, struct jmmap_cookie *out);

#endif
