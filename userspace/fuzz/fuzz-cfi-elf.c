// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for JIT unwinding information as the report uses it: a
 * jitdump whose UNWINDING_INFO records are kept with their LOADs, each
 * wrapped by cfi-elf.c into an ELF image whose CFI libdw then reads for a
 * few addresses of the code.
 */
#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>

#include "cfi-elf.h"
#include "jit-symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_cfi(const struct jit_sym *s)
{
	Dwarf_Frame *frame;
	Dwarf_CFI *cfi;
	uint64_t pc;
	size_t len;
	void *img;
	Elf *elf;

	if (cfi_elf__build(s->start, s->end - s->start, s->eh, s->eh_len, s->eh_hdr_len, &img, &len))
		return;
	elf = elf_memory(img, len);
	cfi = elf ? dwarf_getcfi_elf(elf) : NULL;
	for (pc = s->start; cfi && pc < s->end && pc - s->start < 4096; pc += 7) {
		if (!dwarf_cfi_addrframe(cfi, pc, &frame))
			free(frame);
	}
	if (cfi)
		dwarf_cfi_end(cfi);
	elf_end(elf);
	free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_symbols js = { 0 };
	struct jit_proc *p;
	bool trunc;
	size_t i;

	elf_version(EV_CURRENT);
	if (!jit_symbols__add_jitdump(&js, 1, data, size, &trunc) && (p = jit_symbols__proc(&js, 1)))
		for (i = 0; i < p->nr; i++)
			if (p->syms[i].eh)
				read_cfi(&p->syms[i]);
	jit_symbols__release(&js);
	return 0;
}
