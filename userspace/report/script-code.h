/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-code: the machine code jrec script prints (insn, insnlen,
 * brstackinsn), read from the files as perf reads them (each file's
 * recorded build, kept open for the next samples) and the decoder of the
 * machine of the last file read; and a function's name as perf script
 * prints it, beside the code or a frame.
 */
#ifndef JREC_SCRIPT_CODE_H
#define JREC_SCRIPT_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct session;
struct dso;
struct disasm;
struct resolved;

struct script_code {
	struct disasm *dis; /* for dis_machine, or NULL */
	uint16_t dis_machine;
	struct {
		const void *dso; /* the files read, each open once */
		int fd;
	} fds[8];
	unsigned int nr_fds;
};

/*
 * @len bytes of @dso's file (its recorded build) at file offset @off into
 * @buf, and c->dis made ready for the file's machine (NULL when capstone
 * cannot decode it): how many bytes were read, 0 when the file is not there
 * or not ELF.
 */
size_t script_code__read(struct script_code *c, struct session *s, struct dso *dso, uint64_t off,
			 uint8_t *buf, size_t len);
void script_code__release(struct script_code *c);

/* @res's function as perf script names it: "name", with @off "name+0xOFF", or "[unknown]". */
void script__print_symname(FILE *out, const struct resolved *res, bool off);

#endif
