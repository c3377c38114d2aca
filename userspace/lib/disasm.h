/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disasm: machine code to instructions, through capstone, for the ELF
 * machine (e_machine) of the code's binary or recording: x86-64 and
 * aarch64. Bytes in, text out; nothing here knows where the bytes came from.
 */
#ifndef JREC_DISASM_H
#define JREC_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum disasm_syntax { DISASM_ATT = 0, DISASM_INTEL };

#define DISASM_INSN_MAX 16 /* the longest instruction of any machine handled */

struct disasm_insn {
	uint64_t addr;
	uint16_t size;
	uint8_t bytes[DISASM_INSN_MAX];
	bool valid;      /* false: bytes no instruction starts with, shown as ".byte" */
	bool branch;     /* a jump or call */
	bool has_target; /* with a direct target */
	bool call;
	bool transfer;   /* any change of flow: a branch, return, interrupt or system call */
	uint64_t target;
	char mnemonic[32];
	char ops[160];
};

struct disasm;

/* Whether @machine (EM_*) is one disasm__new() takes. */
bool disasm__supported(uint16_t machine);
/* "x86-64", "aarch64" or "EM_<n>", for messages. */
const char *disasm__machine_name(uint16_t machine, char *buf, size_t len);
/*
 * 0, -EPROTONOSUPPORT (a machine not handled), -ELIBACC (capstone, loaded
 * on first use, could not be: disasm__library() names it), -ENOMEM or
 * -EINVAL (capstone refused).
 */
int disasm__new(uint16_t machine, enum disasm_syntax syntax, struct disasm **out);
void disasm__delete(struct disasm *d);
/* The capstone library disasm__new() loads, for messages. */
const char *disasm__library(void);
/*
 * The instruction at @code[0..@len), at address @addr, into @out; bytes no
 * instruction starts with give one invalid byte (valid false, size 1).
 * Returns its size (>= 1), or 0 when @len is 0.
 */
size_t disasm__one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		   struct disasm_insn *out);
/*
 * For x86-64 code, the length of a VEX- or EVEX-encoded instruction at
 * @code[0..@len) from its encoding alone: for the vector instructions that
 * the capstone at hand does not know (capstone 4 lacks much of AVX-512).
 * 0 for any other machine or instruction, or when @len cuts it short.
 */
size_t disasm__vector_length(const struct disasm *d, const uint8_t *code, size_t len);

#endif
