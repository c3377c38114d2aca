// SPDX-License-Identifier: GPL-2.0
/*
 * disasm and elf-code: the disassembler is chosen by the ELF machine, not
 * the host's (x86-64 and aarch64 code decoded on any host, another machine
 * refused), direct branches carry their targets, bytes no instruction starts
 * with come out as one .byte; a 64-bit ELF header and its PT_LOADs are read
 * in either byte order, and a lying program-header count is refused.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "disasm.h"
#include "elf-code.h"
#include "tap.h"

static void test_x86(void)
{
	/* mov ecx, 0x20000; dec ecx; jne .-2; ret; call .+5 */
	static const uint8_t code[] = { 0xb9, 0x00, 0x00, 0x02, 0x00, 0xff, 0xc9, 0x75,
					0xfc, 0xc3, 0xe8, 0x00, 0x00, 0x00, 0x00 };
	struct disasm_insn in[5];
	struct disasm *d;
	size_t off = 0, n, i = 0;

	check(!disasm__new(EM_X86_64, DISASM_INTEL, &d), "x86-64: a disassembler");
	while (i < 5 && (n = disasm__one(d, code + off, sizeof(code) - off, 0x1000 + off, &in[i]))) {
		off += n;
		i++;
	}
	check(i == 5 && off == sizeof(code), "x86-64: five instructions over the 15 bytes");
	check(!strcmp(in[0].mnemonic, "mov") && !strcmp(in[0].ops, "ecx, 0x20000") && !in[0].branch,
	      "x86-64: mov ecx, 0x20000 (Intel syntax)");
	check(in[2].branch && in[2].has_target && in[2].target == 0x1005 && !in[2].call,
	      "x86-64: jne's target is the dec at 0x1005");
	check(!strcmp(in[3].mnemonic, "ret") && !in[3].has_target, "x86-64: ret has no target");
	check(in[4].call && in[4].has_target && in[4].target == 0x100f, "x86-64: a call and its target");
	disasm__delete(d);
	check(!disasm__new(EM_X86_64, DISASM_ATT, &d) && disasm__one(d, code, 5, 0, &in[0]) == 5 &&
		      !strcmp(in[0].ops, "$0x20000, %ecx"),
	      "x86-64: AT&T syntax");
	check(disasm__one(d, (const uint8_t *)"\x06", 1, 0, &in[0]) == 1 && !in[0].valid &&
		      !strcmp(in[0].mnemonic, ".byte"),
	      "x86-64: a byte no instruction starts with is one .byte");
	disasm__delete(d);
}

static void test_aarch64(void)
{
	/* nop; b .-4; ret (little-endian words) */
	static const uint8_t code[] = { 0x1f, 0x20, 0x03, 0xd5, 0xff, 0xff, 0xff, 0x17,
					0xc0, 0x03, 0x5f, 0xd6 };
	struct disasm_insn in;
	struct disasm *d;

	check(!disasm__new(EM_AARCH64, DISASM_ATT, &d), "aarch64: a disassembler on any host");
	check(disasm__one(d, code, sizeof(code), 0x4000, &in) == 4 && !strcmp(in.mnemonic, "nop"),
	      "aarch64: nop");
	check(disasm__one(d, code + 4, sizeof(code) - 4, 0x4004, &in) == 4 &&
		      !strcmp(in.mnemonic, "b") && in.has_target && in.target == 0x4000,
	      "aarch64: b .-4 targets 0x4000");
	check(disasm__one(d, code + 8, 4, 0x4008, &in) == 4 && !strcmp(in.mnemonic, "ret"),
	      "aarch64: ret");
	disasm__delete(d);
	check(disasm__new(EM_RISCV, DISASM_ATT, &d) == -EPROTONOSUPPORT && !d,
	      "another machine is refused (-EPROTONOSUPPORT)");
}

/* A 64-bit ELF header with one PT_LOAD and one PT_NOTE, in @msb byte order. */
static void make_elf(uint8_t *buf, int msb)
{
	Elf64_Ehdr *e = (Elf64_Ehdr *)buf;
	Elf64_Phdr *p = (Elf64_Phdr *)(buf + sizeof(*e));

	memset(buf, 0, sizeof(*e) + 2 * sizeof(*p));
	memcpy(e->e_ident, ELFMAG, SELFMAG);
	e->e_ident[EI_CLASS] = ELFCLASS64;
	e->e_ident[EI_DATA] = msb ? ELFDATA2MSB : ELFDATA2LSB;
	e->e_machine = msb ? __builtin_bswap16(EM_AARCH64) : EM_AARCH64;
	e->e_phoff = msb ? __builtin_bswap64(sizeof(*e)) : sizeof(*e);
	e->e_phentsize = msb ? __builtin_bswap16(sizeof(*p)) : sizeof(*p);
	e->e_phnum = msb ? __builtin_bswap16(2) : 2;
	p[0].p_type = msb ? __builtin_bswap32(PT_LOAD) : PT_LOAD;
	p[0].p_vaddr = msb ? __builtin_bswap64(0x400000) : 0x400000;
	p[0].p_offset = msb ? __builtin_bswap64(0x1000) : 0x1000;
	p[0].p_filesz = msb ? __builtin_bswap64(0x200) : 0x200;
	p[1].p_type = msb ? __builtin_bswap32(PT_NOTE) : PT_NOTE;
}

static void test_elf_code(void)
{
	uint8_t buf[sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr)];
	struct elf_code ec;
	uint64_t off, len;
	int msb;

	for (msb = 0; msb < 2; msb++) {
		make_elf(buf, msb);
		check(!elf_code__parse(buf, sizeof(Elf64_Ehdr), NULL, 0, &ec, &off, &len) &&
			      off == sizeof(Elf64_Ehdr) && len == 2 * sizeof(Elf64_Phdr),
		      msb ? "ELF (big-endian): where the program headers are"
			  : "ELF: where the program headers are");
		check(!elf_code__parse(buf, sizeof(Elf64_Ehdr), buf + off, len, &ec, NULL, NULL) &&
			      ec.machine == EM_AARCH64 && ec.nr_loads == 1 &&
			      ec.loads[0].vaddr == 0x400000 && ec.loads[0].offset == 0x1000 &&
			      ec.loads[0].filesz == 0x200,
		      msb ? "ELF (big-endian): its machine and its one PT_LOAD"
			  : "ELF: its machine and its one PT_LOAD");
		elf_code__release(&ec);
	}
	make_elf(buf, 0);
	check(elf_code__parse(buf, sizeof(Elf64_Ehdr), buf + sizeof(Elf64_Ehdr),
			      sizeof(Elf64_Phdr), &ec, NULL, NULL) == -EINVAL,
	      "ELF: program headers shorter than the header says are -EINVAL");
	buf[EI_CLASS] = ELFCLASS32;
	check(elf_code__parse(buf, sizeof(Elf64_Ehdr), NULL, 0, &ec, NULL, NULL) == -ENOEXEC,
	      "ELF: a 32-bit file is -ENOEXEC");
}

/*
 * disasm__vector_length(): VEX and EVEX instructions' lengths from their
 * encoding, against capstone's where capstone knows them, and the AVX-512
 * one it does not (vptestnmb, in glibc's __strrchr_evex).
 */
static void test_vector_length(void)
{
	static const struct {
		const char *what;
		uint8_t code[16];
		size_t len, want;
	} cases[] = {
		{ "EVEX vptestnmb ymm19 (not in capstone 4)", { 0x62, 0xb2, 0x66, 0x20, 0x26, 0xc3 }, 6, 6 },
		{ "EVEX vmovaps zmm0, [rax+0x40] (disp8)", { 0x62, 0xf1, 0x7c, 0x48, 0x28, 0x40, 0x01 }, 7, 7 },
		{ "EVEX vmovaps zmm0, [rsp+0x100] (SIB, disp32)",
		  { 0x62, 0xf1, 0x7c, 0x48, 0x28, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00 }, 11, 11 },
		{ "VEX vmovaps xmm0, [rip+0] (two-byte VEX, RIP-relative)",
		  { 0xc5, 0xf8, 0x28, 0x05, 0x00, 0x00, 0x00, 0x00 }, 8, 8 },
		{ "VEX vpalignr xmm0, xmm0, xmm1, 8 (0F3A: an immediate)",
		  { 0xc4, 0xe3, 0x79, 0x0f, 0xc1, 0x08 }, 6, 6 },
		{ "VEX vpshufd xmm0, xmm1, 0x1b (0F 70: an immediate)", { 0xc5, 0xf9, 0x70, 0xc1, 0x1b }, 5, 5 },
		{ "VEX vzeroupper (no ModRM)", { 0xc5, 0xf8, 0x77, 0x90 }, 4, 3 },
		{ "an address-size prefix before EVEX", { 0x67, 0x62, 0xf1, 0x7c, 0x48, 0x28, 0x00 }, 7, 7 },
		{ "EVEX cut short", { 0x62, 0xf1, 0x7c, 0x48, 0x28, 0x40 }, 6, 0 },
		{ "not VEX or EVEX (nop)", { 0x90 }, 1, 0 },
	};
	struct disasm_insn in;
	struct disasm *d;
	char line[160];
	size_t c, got;

	if (disasm__new(EM_X86_64, DISASM_INTEL, &d)) {
		check(0, "x86-64: a disassembler for the vector lengths");
		return;
	}
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		got = disasm__vector_length(d, cases[c].code, cases[c].len);
		snprintf(line, sizeof(line), "vector length: %s: %zu", cases[c].what, got);
		check(got == cases[c].want, line);
		/* where capstone decodes it, the same length */
		if (got && disasm__one(d, cases[c].code, cases[c].len, 0, &in) && in.valid) {
			snprintf(line, sizeof(line), "vector length: %s: capstone's too (%u)", cases[c].what,
				 in.size);
			check(in.size == got, line);
		}
	}
	disasm__delete(d);
}

int main(void)
{
	test_x86();
	test_vector_length();
	test_aarch64();
	test_elf_code();
	return tap_done();
}
