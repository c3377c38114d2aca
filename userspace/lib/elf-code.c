// SPDX-License-Identifier: GPL-2.0
/* elf-code: loaded segments' bytes by address (elf-code.h). */
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byteorder.h"
#include "elf-code.h"
#include "fd-io.h"

static bool host_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

int elf_code__parse(const void *ehdr, size_t ehdr_len, const void *phdrs, size_t phdrs_len,
		    struct elf_code *out, uint64_t *phoff, uint64_t *phlen)
{
	const uint8_t *e = ehdr, *ph = phdrs;
	uint16_t phentsize, phnum, i;
	bool swap;

	memset(out, 0, sizeof(*out));
	if (ehdr_len < sizeof(Elf64_Ehdr) || memcmp(e, ELFMAG, SELFMAG) || e[EI_CLASS] != ELFCLASS64 ||
	    (e[EI_DATA] != ELFDATA2LSB && e[EI_DATA] != ELFDATA2MSB))
		return -ENOEXEC;
	swap = (e[EI_DATA] == ELFDATA2LSB) != host_le();
	out->machine = bo_u16(e + offsetof(Elf64_Ehdr, e_machine), swap);
	phentsize = bo_u16(e + offsetof(Elf64_Ehdr, e_phentsize), swap);
	phnum = bo_u16(e + offsetof(Elf64_Ehdr, e_phnum), swap);
	if (phnum > ELF_CODE_MAX_PHDRS || (phnum && phentsize < sizeof(Elf64_Phdr)))
		return -EINVAL;
	if (phoff)
		*phoff = bo_u64(e + offsetof(Elf64_Ehdr, e_phoff), swap);
	if (phlen)
		*phlen = (uint64_t)phnum * phentsize;
	if (!ph)
		return 0;
	if (phdrs_len < (size_t)phnum * phentsize)
		return -EINVAL;
	out->loads = calloc(phnum ? phnum : 1, sizeof(*out->loads));
	if (!out->loads)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		const uint8_t *p = ph + (size_t)i * phentsize;
		struct elf_code_load *l = &out->loads[out->nr_loads];

		if (bo_u32(p + offsetof(Elf64_Phdr, p_type), swap) != PT_LOAD)
			continue;
		l->vaddr = bo_u64(p + offsetof(Elf64_Phdr, p_vaddr), swap);
		l->offset = bo_u64(p + offsetof(Elf64_Phdr, p_offset), swap);
		l->filesz = bo_u64(p + offsetof(Elf64_Phdr, p_filesz), swap);
		if (l->vaddr + l->filesz < l->vaddr || l->offset + l->filesz < l->offset)
			continue; /* wraps: names no bytes */
		out->nr_loads++;
	}
	return 0;
}

int elf_code__parse_sections(const void *ehdr, size_t ehdr_len, const void *shdrs,
			     size_t shdrs_len, struct elf_code *ec, uint64_t *shoff, uint64_t *shlen)
{
	const uint8_t *e = ehdr, *sh = shdrs;
	uint16_t shentsize, shnum, i;
	bool swap;

	if (ehdr_len < sizeof(Elf64_Ehdr))
		return -EINVAL;
	swap = (e[EI_DATA] == ELFDATA2LSB) != host_le();
	shentsize = bo_u16(e + offsetof(Elf64_Ehdr, e_shentsize), swap);
	shnum = bo_u16(e + offsetof(Elf64_Ehdr, e_shnum), swap);
	if (shnum && shentsize < sizeof(Elf64_Shdr))
		return -EINVAL;
	if (shoff)
		*shoff = bo_u64(e + offsetof(Elf64_Ehdr, e_shoff), swap);
	if (shlen)
		*shlen = (uint64_t)shnum * shentsize;
	if (!sh || !shnum)
		return 0;
	if (shdrs_len < (size_t)shnum * shentsize)
		return -EINVAL;
	free(ec->progbits);
	ec->nr_progbits = 0;
	ec->progbits = calloc(shnum, sizeof(*ec->progbits));
	if (!ec->progbits)
		return -ENOMEM;
	ec->have_sections = true;
	for (i = 0; i < shnum; i++) {
		const uint8_t *p = sh + (size_t)i * shentsize;
		struct elf_code_load *l = &ec->progbits[ec->nr_progbits];

		if (bo_u32(p + offsetof(Elf64_Shdr, sh_type), swap) != SHT_PROGBITS ||
		    !(bo_u64(p + offsetof(Elf64_Shdr, sh_flags), swap) & SHF_ALLOC))
			continue;
		l->vaddr = bo_u64(p + offsetof(Elf64_Shdr, sh_addr), swap);
		l->filesz = bo_u64(p + offsetof(Elf64_Shdr, sh_size), swap);
		if (l->vaddr + l->filesz < l->vaddr)
			continue;
		ec->nr_progbits++;
	}
	return 0;
}

/* @len bytes at @off of @fd, malloc'd, into *@out. 0, -ENOMEM or -EIO. */
static int read_table(int fd, uint64_t off, uint64_t len, void **out)
{
	int err;

	*out = malloc(len ? len : 1);
	if (!*out)
		return -ENOMEM;
	err = fd__pread_all(fd, *out, len, off);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

int elf_code__open_fd(int fd, struct elf_code *out)
{
	uint8_t eh[sizeof(Elf64_Ehdr)];
	uint64_t off, len;
	void *tab;
	int err;

	memset(out, 0, sizeof(*out));
	err = fd__pread_all(fd, eh, sizeof(eh), 0);
	if (err)
		return err == -EIO ? -ENOEXEC : err; /* shorter than a header */
	err = elf_code__parse(eh, sizeof(eh), NULL, 0, out, &off, &len);
	if (!err)
		err = read_table(fd, off, len, &tab);
	if (!err) {
		err = elf_code__parse(eh, sizeof(eh), tab, len, out, NULL, NULL);
		free(tab);
	}
	/* the section headers too, when the file has them */
	if (!err)
		err = elf_code__parse_sections(eh, sizeof(eh), NULL, 0, out, &off, &len);
	if (!err && len)
		err = read_table(fd, off, len, &tab);
	if (!err && len) {
		err = elf_code__parse_sections(eh, sizeof(eh), tab, len, out, NULL, NULL);
		free(tab);
	}
	if (err)
		elf_code__release(out);
	return err == -EIO ? -EINVAL : err;
}

/* How many of @len bytes at @vaddr one section with file bytes holds (all without sections). */
static size_t in_progbits(const struct elf_code *ec, uint64_t vaddr, size_t len)
{
	unsigned int i;

	if (!ec->have_sections)
		return len;
	for (i = 0; i < ec->nr_progbits; i++) {
		const struct elf_code_load *l = &ec->progbits[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz)
			return l->filesz - (vaddr - l->vaddr) < len ? l->filesz - (vaddr - l->vaddr)
								      : len;
	}
	return 0;
}

long elf_code__read(const struct elf_code *ec, int fd, uint64_t vaddr, uint8_t *buf, size_t len)
{
	unsigned int i;

	len = in_progbits(ec, vaddr, len);
	if (!len)
		return 0;

	for (i = 0; i < ec->nr_loads; i++) {
		const struct elf_code_load *l = &ec->loads[i];
		uint64_t n;
		ssize_t got;

		if (vaddr < l->vaddr || vaddr - l->vaddr >= l->filesz)
			continue;
		n = l->filesz - (vaddr - l->vaddr);
		if (n > len)
			n = len;
		got = pread(fd, buf, n, (off_t)(l->offset + (vaddr - l->vaddr)));
		if (got < 0)
			return -EIO;
		return got;
	}
	return 0;
}

void elf_code__release(struct elf_code *ec)
{
	if (!ec)
		return;
	free(ec->loads);
	free(ec->progbits);
	ec->loads = NULL;
	ec->progbits = NULL;
	ec->nr_loads = ec->nr_progbits = 0;
	ec->have_sections = false;
}
