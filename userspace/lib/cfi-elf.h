/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfi-elf: a minimal in-memory ELF that carries the call frame information
 * of one range of JIT code, so that libdw's unwinder can take it as a
 * module: an ET_DYN x86_64 image whose one PT_LOAD spans the code (no bytes
 * in the file) and whose .eh_frame and .eh_frame_hdr sit right after the
 * code's end, where jitdump's UNWINDING_INFO says its pc-relative pointers
 * were computed (.eh_frame_hdr also as PT_GNU_EH_FRAME).
 */
#ifndef JREC_CFI_ELF_H
#define JREC_CFI_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Fill @ehdr (an Elf64_Ehdr) with the identity of such an image: ELF64, LSB, x86_64, ET_DYN. */
void cfi_elf__ehdr(void *ehdr);

/*
 * Build it for code at [@start, @start + @size) from @eh, @eh_len bytes of
 * .eh_frame followed by an .eh_frame_hdr of @hdr_len bytes (0: none).
 * *@out is malloc'd. 0, -EINVAL (lengths that do not fit) or -ENOMEM.
 */
int cfi_elf__build(uint64_t start, uint64_t size, const uint8_t *eh, size_t eh_len,
		   size_t hdr_len, void **out, size_t *out_len);

#endif
