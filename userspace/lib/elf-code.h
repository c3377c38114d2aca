/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf-code: the bytes of a 64-bit ELF file (either byte order)'s loaded segments
 * by address (an executable, a library, or /proc/kcore, whose PT_LOADs map
 * the kernel's addresses), and its machine (e_machine). Only the ELF header
 * and the program headers are read, then the bytes asked for.
 */
#ifndef JREC_ELF_CODE_H
#define JREC_ELF_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_CODE_MAX_PHDRS 4096 /* more program headers than this: refused as corrupt */
#define ELF_CODE_MAX_SHDRS 65535 /* more section headers than this: refused as corrupt */

struct elf_code_load {
	uint64_t vaddr, offset, filesz;
};

struct elf_code {
	uint16_t machine;
	unsigned int nr_loads;
	struct elf_code_load *loads; /* PT_LOAD entries, malloc'd */
	/*
	 * With section headers (not /proc/kcore): the allocated sections that
	 * hold bytes in the file, as {vaddr, size}; bytes outside them (a
	 * separate debuginfo file's NOBITS .text) are not read.
	 */
	bool have_sections;
	unsigned int nr_progbits;
	struct elf_code_load *progbits; /* offset unused */
};

/*
 * From the ELF header (@ehdr, @ehdr_len bytes of the file's start) and the
 * program headers (@phdrs, @phdrs_len bytes read at the header's e_phoff):
 * the machine and the loads, into @out. With @phdrs NULL only the header is
 * checked and *@phoff, *@phlen say where the program headers are.
 * 0, -ENOEXEC (not a 64-bit ELF file (either byte order)), -EINVAL (corrupt) or -ENOMEM.
 */
int elf_code__parse(const void *ehdr, size_t ehdr_len, const void *phdrs, size_t phdrs_len,
		    struct elf_code *out, uint64_t *phoff, uint64_t *phlen);
/*
 * The section headers (@shdrs, @shdrs_len bytes read at e_shoff) of the file
 * whose ELF header is @ehdr, into @ec (parsed by elf_code__parse()). With
 * @shdrs NULL, *@shoff and *@shlen say where they are (*@shlen 0: none).
 * 0, -EINVAL (corrupt) or -ENOMEM.
 */
int elf_code__parse_sections(const void *ehdr, size_t ehdr_len, const void *shdrs,
			     size_t shdrs_len, struct elf_code *ec, uint64_t *shoff, uint64_t *shlen);
/* Read the headers of the file open at @fd into @out. 0 or -errno as elf_code__parse(), -EIO. */
int elf_code__open_fd(int fd, struct elf_code *out);
/*
 * Up to @len bytes at address @vaddr from the file at @fd, as far as one
 * loaded segment holds them (and, when the file has section headers, one
 * section with bytes in the file); how many (0: none has @vaddr), or -EIO.
 */
long elf_code__read(const struct elf_code *ec, int fd, uint64_t vaddr, uint8_t *buf, size_t len);
void elf_code__release(struct elf_code *ec);

#endif
