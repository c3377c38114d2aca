// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target for the JREC_FEAT_KALLSYMS decoder (kernel-syms.c). */
#include <stddef.h>
#include <stdint.h>

#include "kernel-syms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_syms k;

	if (kernel_syms__parse(&k, (const char *)data, size))
		return 0;
	symtab__find(&k.tab, size);
	if (k.text_addr)
		kernel_syms__relocate(&k, k.text_addr + 0x200000);
	kernel_syms__release(&k);
	return 0;
}
