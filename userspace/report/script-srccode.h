/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-srccode: perf script's srccode field, the source line of a
 * sample's address printed below its line ("|LINE     text"), once for a
 * run of samples of one thread on the same line.
 */
#ifndef JREC_SCRIPT_SRCCODE_H
#define JREC_SCRIPT_SRCCODE_H

#include <stdint.h>
#include <stdio.h>

struct script_srccode;
struct resolved;

/*
 * The source line of @res (from its file's DWARF line table, the source file
 * read from the path the table names) when thread @tid's last printed line
 * was another; nothing when the line or its source is not found. *@sc is made
 * at the first call. 0 or -ENOMEM.
 */
int script_srccode__print(struct script_srccode **sc, const struct resolved *res, uint32_t tid,
			  FILE *out);
void script_srccode__delete(struct script_srccode *sc);

#endif
