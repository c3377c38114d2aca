// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for what jrec annotate reads of outside bytes: an ELF
 * file's header, program and section headers (elf_code__parse and
 * elf_code__parse_sections, the input's first 64 bytes and the rest), and the disassembly of the input as x86-64 and
 * aarch64 code (disasm__one over every byte).
 */
#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "disasm.h"
#include "elf-code.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(uint16_t machine, const uint8_t *data, size_t size)
{
	struct disasm *d;
	struct disasm_insn in;
	size_t off = 0, n;

	if (disasm__new(machine, DISASM_ATT, &d))
		return;
	while ((n = disasm__one(d, data + off, size - off, 0x1000 + off, &in))) {
		/* what the wrapper promises: progress within the bytes, bounded text */
		if (n > size - off || in.size != n || strlen(in.ops) >= sizeof(in.ops))
			__builtin_trap();
		off += n;
	}
	disasm__delete(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_code ec;
	size_t eh = size < sizeof(Elf64_Ehdr) ? size : sizeof(Elf64_Ehdr);
	unsigned int i;

	if (!elf_code__parse(data, eh, data + eh, size - eh, &ec, NULL, NULL)) {
		for (i = 0; i < ec.nr_loads; i++)
			if (ec.loads[i].vaddr + ec.loads[i].filesz < ec.loads[i].vaddr)
				__builtin_trap();
		/* the same bytes as section headers */
		if (!elf_code__parse_sections(data, eh, data + eh, size - eh, &ec, NULL, NULL))
			for (i = 0; i < ec.nr_progbits; i++)
				if (ec.progbits[i].vaddr + ec.progbits[i].filesz < ec.progbits[i].vaddr)
					__builtin_trap();
		elf_code__release(&ec);
	}
	walk(EM_X86_64, data, size);
	walk(EM_AARCH64, data, size);
	return 0;
}
