/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json: the text outputs' escaping. Names come from the traced programs and
 * need not be UTF-8; these keep every document well-formed.
 */
#ifndef JREC_JSON_H
#define JREC_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Bytes of the well-formed UTF-8 sequence at @s (RFC 3629), or 0. */
size_t json__utf8_len(const unsigned char *s);
/* @s as a JSON string; bytes that are not well-formed UTF-8 become U+FFFD. */
void json__str(FILE *out, const char *s);

#endif
