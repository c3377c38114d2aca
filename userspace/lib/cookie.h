/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user side of the jmmap cookie rule: what identifies the contents of a
 * mapped file. An ELF file with a GNU build-id note (anywhere in the file,
 * found through PT_NOTE segments or SHT_NOTE sections) is named by that id;
 * any other file by the content cookie of kmod/uapi/jmmap.h
 * (JMMAP_CONTENT_COOKIE_*). The module computes the same values.
 */
#ifndef JREC_COOKIE_H
#define JREC_COOKIE_H

#include <stdbool.h>
#include <stdint.h>

#include "jmmap.h"

struct jrec_cookie {
	uint8_t kind; /* enum jmmap_cookie_kind */
	uint8_t len;  /* valid bytes in bytes[] */
	uint8_t bytes[JMMAP_COOKIE_MAX];
};

/* Longest hex form plus NUL: what jrec_cookie_hex() needs. */
#define JREC_COOKIE_HEX_LEN (2 * JMMAP_COOKIE_MAX + 1)

/*
 * The cookie of the file open at fd: ELF_BUILD_ID for an ELF file with a GNU
 * build-id note of 1..20 bytes, CONTENT for anything else. 0 or -errno.
 * Reads with pread(), so the file offset of fd does not move.
 */
int jrec_cookie_from_fd(int fd, struct jrec_cookie *out);

/* jrec_cookie_from_fd() of the file at path. 0 or -errno. */
int jrec_cookie_from_path(const char *path, struct jrec_cookie *out);

/* The content cookie of the file open at fd, whatever its format. 0 or -errno. */
int jrec_cookie_content(int fd, struct jrec_cookie *out);

/*
 * Lower-case hex of the cookie's valid bytes into buf (at least
 * JREC_COOKIE_HEX_LEN bytes), NUL-terminated; "" for JMMAP_COOKIE_NONE.
 */
void jrec_cookie_hex(const struct jrec_cookie *c, char *buf);

/* Same kind, same length, same bytes. */
bool jrec_cookie_equal(const struct jrec_cookie *a, const struct jrec_cookie *b);

/* What kind of cookie it is, as reports name it: "build-id", "content" or "none". */
const char *jrec_cookie_kind_name(const struct jrec_cookie *c);

#endif
