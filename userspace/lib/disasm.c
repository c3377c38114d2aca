// SPDX-License-Identifier: GPL-2.0
/* disasm: capstone for the machines jrec annotates (disasm.h). */
#include <capstone/capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "dl-sym.h"

/*
 * capstone is loaded when the first disassembler is made, not linked: only
 * annotate uses it, and loading it relocates megabytes of its tables, which
 * every other command would carry in memory for nothing. The soname is the
 * one of the headers built against.
 */
#define CS_STR2(x) #x
#define CS_STR(x) CS_STR2(x)
#define CS_SONAME "libcapstone.so." CS_STR(CS_API_MAJOR)

static struct {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	cs_err (*close)(csh *handle);
	void (*free)(cs_insn *insn, size_t count);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	bool ok;
} cs;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void cs_load(void)
{
	void *lib = dlopen(CS_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib)
		return;
	cs.ok = dl_sym(lib, "cs_open", &cs.open) && dl_sym(lib, "cs_option", &cs.option) &&
		dl_sym(lib, "cs_malloc", &cs.malloc) && dl_sym(lib, "cs_close", &cs.close) &&
		dl_sym(lib, "cs_free", &cs.free) && dl_sym(lib, "cs_disasm_iter", &cs.disasm_iter);
	if (!cs.ok)
		dlclose(lib);
}

const char *disasm__library(void)
{
	return CS_SONAME;
}

struct disasm {
	csh h;
	cs_insn *insn;
	uint16_t machine;
};

bool disasm__supported(uint16_t machine)
{
	return machine == EM_X86_64 || machine == EM_AARCH64;
}

const char *disasm__machine_name(uint16_t machine, char *buf, size_t len)
{
	if (machine == EM_X86_64)
		return "x86-64";
	if (machine == EM_AARCH64)
		return "aarch64";
	snprintf(buf, len, "EM_%u", machine);
	return buf;
}

int disasm__new(uint16_t machine, enum disasm_syntax syntax, struct disasm **out)
{
	struct disasm *d;
	cs_arch arch;
	cs_mode mode;

	*out = NULL;
	switch (machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_LITTLE_ENDIAN;
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	pthread_once(&cs_once, cs_load);
	if (!cs.ok)
		return -ELIBACC;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->machine = machine;
	if (cs.open(arch, mode, &d->h) != CS_ERR_OK) {
		free(d);
		return -EINVAL;
	}
	cs.option(d->h, CS_OPT_DETAIL, CS_OPT_ON);
	if (machine == EM_X86_64)
		cs.option(d->h, CS_OPT_SYNTAX,
			  syntax == DISASM_INTEL ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	d->insn = cs.malloc(d->h);
	if (!d->insn) {
		cs.close(&d->h);
		free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void disasm__delete(struct disasm *d)
{
	if (!d)
		return;
	if (d->insn)
		cs.free(d->insn, 1);
	cs.close(&d->h);
	free(d);
}

/* A direct jump's or call's target: its immediate operand. */
static bool direct_target(const struct disasm *d, const cs_insn *in, uint64_t *target)
{
	const cs_detail *det = in->detail;
	uint8_t i;

	if (d->machine == EM_X86_64) {
		for (i = 0; i < det->x86.op_count; i++)
			if (det->x86.operands[i].type == X86_OP_IMM) {
				*target = (uint64_t)det->x86.operands[i].imm;
				return true;
			}
	} else {
		for (i = 0; i < det->arm64.op_count; i++)
			if (det->arm64.operands[i].type == ARM64_OP_IMM) {
				*target = (uint64_t)det->arm64.operands[i].imm;
				return true;
			}
	}
	return false;
}

size_t disasm__one(struct disasm *d, const uint8_t *code, size_t len, uint64_t addr,
		   struct disasm_insn *out)
{
	const uint8_t *p = code;
	size_t left = len;
	uint64_t a = addr;
	cs_insn *in = d->insn;
	uint8_t g;

	memset(out, 0, sizeof(*out));
	out->addr = addr;
	if (!len)
		return 0;
	if (!cs.disasm_iter(d->h, &p, &left, &a, in)) {
		out->size = 1;
		out->bytes[0] = code[0];
		snprintf(out->mnemonic, sizeof(out->mnemonic), ".byte");
		snprintf(out->ops, sizeof(out->ops), "0x%02x", code[0]);
		return 1;
	}
	out->valid = true;
	out->size = in->size;
	memcpy(out->bytes, in->bytes, in->size < DISASM_INSN_MAX ? in->size : DISASM_INSN_MAX);
	snprintf(out->mnemonic, sizeof(out->mnemonic), "%s", in->mnemonic);
	snprintf(out->ops, sizeof(out->ops), "%s", in->op_str);
	for (g = 0; in->detail && g < in->detail->groups_count; g++) {
		if (in->detail->groups[g] == CS_GRP_JUMP)
			out->branch = true;
		if (in->detail->groups[g] == CS_GRP_CALL)
			out->branch = out->call = true;
		if (in->detail->groups[g] == CS_GRP_RET || in->detail->groups[g] == CS_GRP_INT ||
		    in->detail->groups[g] == CS_GRP_IRET)
			out->transfer = true;
	}
	out->transfer |= out->branch;
	if (out->branch && in->detail)
		out->has_target = direct_target(d, in, &out->target);
	return out->size;
}

/* Address-size and segment overrides: the legacy prefixes that may come before VEX or EVEX. */
static bool vex_may_follow(uint8_t b)
{
	return b == 0x67 || b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 ||
	       b == 0x65;
}

size_t disasm__vector_length(const struct disasm *d, const uint8_t *code, size_t len)
{
	size_t i = 0, disp = 0, end;
	unsigned int map, op, mod, rm;
	bool imm;

	if (d->machine != EM_X86_64)
		return 0;
	while (i < len && i < 4 && vex_may_follow(code[i]))
		i++;
	if (i + 1 >= len)
		return 0;
	switch (code[i]) {
	case 0xc5: /* two-byte VEX: the 0F map */
		map = 1;
		i += 2;
		break;
	case 0xc4: /* three-byte VEX: the map in the second byte's low five bits */
		map = code[i + 1] & 0x1f;
		i += 3;
		break;
	case 0x62: /* EVEX (BOUND is no instruction in 64-bit mode): the map in P0's low bits */
		map = code[i + 1] & 0x07;
		i += 4;
		break;
	default:
		return 0;
	}
	if (map < 1 || map > 3 || i >= len)
		return 0; /* the maps 0F, 0F38 and 0F3A only */
	op = code[i++];
	if (map == 1 && op == 0x77)
		return i; /* vzeroupper, vzeroall: no ModRM */
	if (i >= len)
		return 0;
	mod = code[i] >> 6;
	rm = code[i++] & 7;
	if (mod != 3 && rm == 4) { /* a SIB byte; base 5 without displacement is disp32 */
		if (i >= len)
			return 0;
		if (mod == 0 && (code[i] & 7) == 5)
			disp = 4;
		i++;
	}
	if (mod == 1)
		disp = 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		disp = 4;
	/* an 8-bit immediate: all of 0F3A; in 0F the shifts and shuffles by a count, compares, pinsrw/pextrw */
	imm = map == 3 ||
	      (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6)));
	end = i + disp + (imm ? 1 : 0);
	return end <= len && end <= 15 ? end : 0;
}
