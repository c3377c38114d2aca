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

int elf_code__open_fd(int fd, struct elf_code *out)
{
	uint8_t eh[sizeof(Elf64_Ehdr)];
	uint64_t phoff, phlen;
	void *ph;
	int err;

	memset(out, 0, sizeof(*out));
	err = fd__pread_all(fd, eh, sizeof(eh), 0);
	if (err)
		return err == -EIO ? -ENOEXEC : err; /* shorter than a header */
	err = elf_code__parse(eh, sizeof(eh), NULL, 0, out, &phoff, &phlen);
	if (err)
		return err;
	ph = malloc(phlen ? phlen : 1);
	if (!ph)
		return -ENOMEM;
	err = fd__pread_all(fd, ph, phlen, phoff);
	if (!err)
		err = elf_code__parse(eh, sizeof(eh), ph, phlen, out, NULL, NULL);
	free(ph);
	return err == -EIO ? -EINVAL : err;
}

long elf_code__read(const struct elf_code *ec, int fd, uint64_t vaddr, uint8_t *buf, size_t len)
{
	unsigned int i;

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
	ec->loads = NULL;
	ec->nr_loads = 0;
}
