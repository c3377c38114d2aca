// SPDX-License-Identifier: GPL-2.0
/* cfi-elf: JIT code's CFI wrapped in an ELF image for libdw (see cfi-elf.h). */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfi-elf.h"

/* .shstrtab: "", ".eh_frame", ".eh_frame_hdr", ".shstrtab" */
static const char shstrtab[] = "\0.eh_frame\0.eh_frame_hdr\0.shstrtab";
enum { NAME_EH = 1, NAME_HDR = 11, NAME_SHSTRTAB = 25 };
enum { SEC_NULL, SEC_EH, SEC_HDR, SEC_SHSTRTAB, NR_SECS };

uint64_t cfi_elf__frame_addr(uint64_t start, uint64_t size)
{
	return start + ((size + 7) & ~(uint64_t)7);
}

void cfi_elf__ehdr(void *ehdr)
{
	Elf64_Ehdr *h = ehdr;

	memset(h, 0, sizeof(*h));
	memcpy(h->e_ident, ELFMAG, SELFMAG);
	h->e_ident[EI_CLASS] = ELFCLASS64;
	h->e_ident[EI_DATA] = ELFDATA2LSB;
	h->e_ident[EI_VERSION] = EV_CURRENT;
	h->e_type = ET_DYN;
	h->e_machine = EM_X86_64;
	h->e_version = EV_CURRENT;
	h->e_ehsize = sizeof(*h);
}

int cfi_elf__build(uint64_t start, uint64_t size, const uint8_t *eh, size_t eh_len,
		   size_t hdr_len, void **out, size_t *out_len)
{
	size_t data = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr), frame_len, shoff, len;
	uint64_t frame_addr = cfi_elf__frame_addr(start, size);
	Elf64_Ehdr *eh_hdr;
	Elf64_Phdr *ph;
	Elf64_Shdr *sh;
	uint8_t *buf;

	*out = NULL;
	if (!size || size > UINT64_MAX - 7 || start + size < start || frame_addr < start ||
	    hdr_len > eh_len || eh_len > (1u << 24) || frame_addr + eh_len < frame_addr)
		return -EINVAL;
	frame_len = eh_len - hdr_len;
	shoff = (data + eh_len + sizeof(shstrtab) + 7) & ~(size_t)7;
	len = shoff + NR_SECS * sizeof(Elf64_Shdr);
	buf = calloc(1, len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf + data, eh, eh_len);
	memcpy(buf + data + eh_len, shstrtab, sizeof(shstrtab));

	eh_hdr = (Elf64_Ehdr *)buf;
	cfi_elf__ehdr(eh_hdr);
	eh_hdr->e_phoff = sizeof(Elf64_Ehdr);
	eh_hdr->e_shoff = shoff;
	eh_hdr->e_phentsize = sizeof(Elf64_Phdr);
	eh_hdr->e_phnum = hdr_len ? 2 : 1;
	eh_hdr->e_shentsize = sizeof(Elf64_Shdr);
	eh_hdr->e_shnum = NR_SECS;
	eh_hdr->e_shstrndx = SEC_SHSTRTAB;

	/* the code: its address range only, its bytes are not needed */
	ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_vaddr = ph[0].p_paddr = start;
	ph[0].p_memsz = size;
	ph[0].p_align = 1;
	if (hdr_len) {
		ph[1].p_type = PT_GNU_EH_FRAME;
		ph[1].p_flags = PF_R;
		ph[1].p_offset = data + frame_len;
		ph[1].p_vaddr = ph[1].p_paddr = frame_addr + frame_len;
		ph[1].p_filesz = ph[1].p_memsz = hdr_len;
		ph[1].p_align = 4;
	}

	sh = (Elf64_Shdr *)(buf + shoff);
	sh[SEC_EH].sh_name = NAME_EH;
	sh[SEC_EH].sh_type = SHT_PROGBITS;
	sh[SEC_EH].sh_flags = SHF_ALLOC;
	sh[SEC_EH].sh_addr = frame_addr;
	sh[SEC_EH].sh_offset = data;
	sh[SEC_EH].sh_size = frame_len;
	sh[SEC_EH].sh_addralign = 1;
	sh[SEC_HDR].sh_name = NAME_HDR;
	sh[SEC_HDR].sh_type = hdr_len ? SHT_PROGBITS : SHT_NULL;
	sh[SEC_HDR].sh_flags = SHF_ALLOC;
	sh[SEC_HDR].sh_addr = frame_addr + frame_len;
	sh[SEC_HDR].sh_offset = data + frame_len;
	sh[SEC_HDR].sh_size = hdr_len;
	sh[SEC_HDR].sh_addralign = 1;
	sh[SEC_SHSTRTAB].sh_name = NAME_SHSTRTAB;
	sh[SEC_SHSTRTAB].sh_type = SHT_STRTAB;
	sh[SEC_SHSTRTAB].sh_offset = data + eh_len;
	sh[SEC_SHSTRTAB].sh_size = sizeof(shstrtab);
	sh[SEC_SHSTRTAB].sh_addralign = 1;

	*out = buf;
	*out_len = len;
	return 0;
}
