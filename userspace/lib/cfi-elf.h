/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cfi-elf: a minimal in-memory ELF that carries the call frame information
 * of one range of JIT code, so that libdw's unwinder can take it as a
 * module: an ET_DYN x86_64 image whose one PT_LOAD spans the code (no bytes
 * in the file) and whose .eh_frame and .eh_frame_hdr (also as
 * PT_GNU_EH_FRAME) sit where the JIT computed their pc-relative and
 * data-relative pointers: .eh_frame at the code's start plus its size
 * rounded up to 8, .eh_frame_hdr right after it. That is where perf inject
 * --jit puts them in the ELF it writes for each jitdump LOAD, and where V8
 * and CPython 3.13 (-X perf_jit) reckon from; jitdump's mapped_size (the
 * unwinding data's size in the process's memory, or 0) only lengthens the
 * mapping perf synthesizes, never moves them.
 */
#ifndef JREC_CFI_ELF_H
#define JREC_CFI_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Where the .eh_frame of code at [@start, @start + @size) is placed. */
uint64_t cfi_elf__frame_addr(uint64_t start, uint64_t size);

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
