// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target for the JREC_FEAT_INFO decoder (jrec-sections.c). */
#include <stddef.h>
#include <stdint.h>

#include "jrec-sections.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jrec_info info;

	jrec_info__parse((const char *)data, size, &info);
	if (info.mode[sizeof(info.mode) - 1] ||
	    info.kernel_release[sizeof(info.kernel_release) - 1] ||
	    info.kernel_bid.len > sizeof(info.kernel_bid.bytes))
		__builtin_trap();
	return 0;
}
