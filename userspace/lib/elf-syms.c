// SPDX-License-Identifier: GPL-2.0
/*
 * elf-syms: an ELF file's symbol sections read into a table (see
 * elf-image-internal.h), and the table of all its symbols, functions and
 * objects by file offset, that names the data addresses of samples (perf
 * script's addr with sym and dso).
 */
#include <errno.h>
#include <string.h>

#include "elf-image-internal.h"

Elf_Scn *elf_scn__by_name(Elf *elf, const char *want, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, out))
			continue;
		name = elf_strptr(elf, shstrndx, out->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

Elf_Scn *elf_scn__by_type(Elf *elf, Elf64_Word type, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, out) && out->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Whether an untyped symbol in section @shndx is a label perf takes: one of
 * hand-written code (a section of code); for the data table, perf's rule for
 * its whole table: a section whose name says text or data.
 */
static bool label_section(Elf *elf, size_t shndx, bool data)
{
	Elf_Scn *scn = shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
	const char *name;
	GElf_Shdr sh;
	size_t shstrndx;

	if (!scn || !gelf_getshdr(scn, &sh))
		return false;
	if (!data)
		return sh.sh_flags & SHF_EXECINSTR;
	name = elf_getshdrstrndx(elf, &shstrndx) ? NULL : elf_strptr(elf, shstrndx, sh.sh_name);
	return name && (strstr(name, "text") || strstr(name, "data"));
}

/* The file offset of address @vaddr of @img: the PT_LOAD segment whose memory holds it. */
static bool vaddr_offset(const struct elf_image *img, uint64_t vaddr, uint64_t *off)
{
	unsigned int i;

	for (i = 0; i < img->nr_loads; i++) {
		const struct load_seg *l = &img->loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->memsz) {
			*off = vaddr - l->vaddr + l->offset;
			return true;
		}
	}
	return false;
}

int elf_syms__add(struct symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		  const struct elf_image *data)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n, last_shndx = SHN_UNDEF;
	bool last_label = false;
	int err;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		uint64_t at;
		int type;

		if (!gelf_getsym(d, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE &&
		     (!data || type != STT_OBJECT)) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		/* as perf: an untyped symbol in a code section is an assembly routine's label */
		if (type == STT_NOTYPE) {
			if (name[0] == '$' || !strncmp(name, ".L", 2))
				continue;
			if (sym.st_shndx != last_shndx) {
				last_shndx = sym.st_shndx;
				last_label = label_section(elf, sym.st_shndx, data);
			}
			if (!last_label)
				continue;
		}
		at = sym.st_value;
		if (data && data->nr_loads && !vaddr_offset(data, sym.st_value, &at))
			continue;
		err = symtab__add(t, at, sym.st_size, name, GELF_ST_BIND(sym.st_info));
		if (err)
			return err;
	}
	return 0;
}

/*
 * The data table from the sections the code table came from: .symtab, else
 * .dynsym and MiniDebugInfo's .symtab; then the PLT entries of the code
 * table (perf adds them to the same table), at their file offsets.
 */
static int load_data_syms(struct elf_image *img)
{
	struct symtab *t = &img->data_syms;
	GElf_Shdr sh;
	Elf_Scn *scn;
	size_t i;
	int err = 0;

	if (img->elf && (scn = elf_scn__by_type(img->elf, SHT_SYMTAB, &sh)))
		err = elf_syms__add(t, img->elf, scn, &sh, img);
	if (!err && !t->nr && img->elf) {
		if ((scn = elf_scn__by_type(img->elf, SHT_DYNSYM, &sh)))
			err = elf_syms__add(t, img->elf, scn, &sh, img);
		if (!err && img->mini && (scn = elf_scn__by_type(img->mini, SHT_SYMTAB, &sh)))
			err = elf_syms__add(t, img->mini, scn, &sh, img);
	}
	for (i = 0; !err && i < img->syms.nr; i++) {
		const struct sym *s = &img->syms.syms[i];
		uint64_t off = s->start;

		/* (no ELF file: the stored table's functions, the only symbols there are) */
		if ((!s->is_plt && img->elf) || (img->nr_loads && !vaddr_offset(img, s->start, &off)))
			continue;
		err = symtab__add(t, off, s->end - s->start, s->name, s->bind);
		if (!err)
			t->syms[t->nr - 1].is_plt = s->is_plt;
	}
	if (err)
		return err;
	symtab__finish_ends_first(t);
	return 0;
}

const struct symtab *elf_image__data_symtab(struct elf_image *img)
{
	if (!img->data_tried) {
		img->data_tried = true;
		if (load_data_syms(img))
			symtab__release(&img->data_syms);
	}
	return &img->data_syms;
}
