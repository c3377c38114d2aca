// SPDX-License-Identifier: GPL-2.0
/* ko-code: a function's code out of a kernel module's object file (ko-code.h). */
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "ko-code.h"

bool ko_code__file_is(const char *base, const char *mod)
{
	size_t n = strlen(mod), i;
	const char *ext = base + n;

	if (strlen(base) < n)
		return false;
	for (i = 0; i < n; i++) {
		char a = base[i] == '-' ? '_' : base[i], b = mod[i] == '-' ? '_' : mod[i];

		if (a != b)
			return false;
	}
	return !strcmp(ext, ".ko") || !strcmp(ext, ".ko.xz") || !strcmp(ext, ".ko.zst");
}

void ko_code__release(struct ko_code *c)
{
	if (!c)
		return;
	free(c->bytes);
	free(c->relocs);
	free(c->names);
	memset(c, 0, sizeof(*c));
}

/* The defined function symbol @name of .symtab: its symbol and the table's section. */
static int find_func(Elf *elf, const char *name, GElf_Sym *out, Elf_Scn **symscn, GElf_Shdr *symsh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			return -EINVAL;
		n = d->d_size / sh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(d, (int)i, &sym))
				return -EINVAL;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				*out = sym;
				*symscn = scn;
				*symsh = sh;
				return 0;
			}
		}
		return -ENOENT;
	}
	return -ENOENT;
}

/* How many bytes relocation @type of @machine writes; 0 when jrec does not apply it. */
static unsigned int reloc_width(uint16_t machine, uint32_t type, bool *pcrel)
{
	*pcrel = false;
	if (machine != EM_X86_64)
		return 0;
	switch (type) {
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		*pcrel = true;
		return 4;
	case R_X86_64_32:
	case R_X86_64_32S:
		return 4;
	case R_X86_64_64:
		return 8;
	default:
		return 0;
	}
}

/* Whether value @v fits the field of relocation @type, @width bytes wide. */
static bool fits(uint64_t v, unsigned int width, uint32_t type)
{
	int64_t s = (int64_t)v;

	if (width == 8)
		return true;
	if (type == R_X86_64_32)
		return v <= UINT32_MAX;
	return s >= INT32_MIN && s <= INT32_MAX;
}

struct ko_ctx {
	Elf *elf;
	GElf_Sym fn;
	GElf_Shdr symsh;
	Elf_Data *syms;
	uint64_t addr;
	struct ko_code *out;
	size_t names_len, names_cap;
	ko_resolve_fn resolve;
	void *rctx;
};

static int add_name(struct ko_ctx *k, const char *name, size_t *at)
{
	size_t n = strlen(name) + 1;

	if (k->names_len + n > k->names_cap) {
		size_t cap = (k->names_cap ? k->names_cap * 2 : 256) + n;
		char *p = realloc(k->out->names, cap);

		if (!p)
			return -ENOMEM;
		k->out->names = p;
		k->names_cap = cap;
	}
	memcpy(k->out->names + k->names_len, name, n);
	*at = k->names_len;
	k->names_len += n;
	return 0;
}

/* One relocation of the function's section at @r_offset. */
static int one_reloc(struct ko_ctx *k, uint64_t r_offset, uint64_t info, int64_t addend)
{
	struct ko_code *c = k->out;
	uint32_t type = (uint32_t)GELF_R_TYPE(info);
	size_t symi = GELF_R_SYM(info), at = 0;
	uint64_t off = r_offset - k->fn.st_value, s = 0, v;
	const char *name = NULL;
	unsigned int width, i;
	bool pcrel, known = false;
	GElf_Sym sym;
	int err;

	if (r_offset < k->fn.st_value || off >= c->len)
		return 0;
	if (!gelf_getsym(k->syms, (int)symi, &sym))
		return -EINVAL;
	if (GELF_ST_TYPE(sym.st_info) == STT_SECTION) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(k->elf, sym.st_shndx);
		size_t shstr;

		if (scn && gelf_getshdr(scn, &sh) && !elf_getshdrstrndx(k->elf, &shstr))
			name = elf_strptr(k->elf, shstr, sh.sh_name);
	} else {
		name = elf_strptr(k->elf, k->symsh.sh_link, sym.st_name);
	}
	if (!name)
		name = "?";
	/* a symbol of the function's own section lies where it lies relative to the function */
	if (symi && sym.st_shndx == k->fn.st_shndx) {
		s = k->addr - k->fn.st_value + sym.st_value;
		known = true;
	} else if (sym.st_shndx == SHN_UNDEF && symi && k->resolve && *name) {
		known = !k->resolve(k->rctx, name, &s);
	}
	if (c->nr_relocs % 16 == 0) {
		struct ko_reloc *n = realloc(c->relocs, (c->nr_relocs + 16) * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->relocs = n;
	}
	err = add_name(k, name, &at);
	if (err)
		return err;
	c->relocs[c->nr_relocs] =
	    (struct ko_reloc){(uint32_t)off, type, addend, (const char *)(uintptr_t)at, false};
	width = reloc_width(c->machine, type, &pcrel);
	v = s + (uint64_t)addend - (pcrel ? k->addr + off : 0);
	if (known && width && off + width <= c->len && fits(v, width, type)) {
		for (i = 0; i < width; i++)
			c->bytes[off + i] = (uint8_t)(v >> (8 * i)); /* x86-64: little-endian */
		c->relocs[c->nr_relocs].applied = true;
	} else {
		c->nr_unapplied++;
	}
	c->nr_relocs++;
	return 0;
}

/* Every SHT_RELA (or SHT_REL) section that relocates the function's section. */
static int apply_relocs(struct ko_ctx *k)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(k->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    sh.sh_info != k->fn.st_shndx || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			return -EINVAL;
		n = d->d_size / sh.sh_entsize;
		for (i = 0; i < n && !err; i++) {
			if (sh.sh_type == SHT_RELA) {
				GElf_Rela r;

				if (!gelf_getrela(d, (int)i, &r))
					return -EINVAL;
				err = one_reloc(k, r.r_offset, r.r_info, r.r_addend);
			} else {
				GElf_Rel r;

				if (!gelf_getrel(d, (int)i, &r))
					return -EINVAL;
				err = one_reloc(k, r.r_offset, r.r_info, 0);
			}
		}
	}
	return err;
}

static int cmp_reloc(const void *x, const void *y)
{
	const struct ko_reloc *a = x, *b = y;

	return a->off < b->off ? -1 : a->off > b->off;
}

static int read_fn(struct ko_ctx *k, const char *name, size_t max)
{
	struct ko_code *c = k->out;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn, *symscn;
	Elf_Data *d;
	uint64_t size;
	size_t i;
	int err;

	if (elf_kind(k->elf) != ELF_K_ELF || gelf_getclass(k->elf) != ELFCLASS64 ||
	    !gelf_getehdr(k->elf, &eh) || eh.e_type != ET_REL)
		return -ENOEXEC;
	c->machine = eh.e_machine;
	err = find_func(k->elf, name, &k->fn, &symscn, &k->symsh);
	if (err)
		return err;
	k->syms = elf_getdata(symscn, NULL);
	scn = elf_getscn(k->elf, k->fn.st_shndx);
	if (!k->syms || !scn || !gelf_getshdr(scn, &sh))
		return -EINVAL;
	if (sh.sh_type != SHT_PROGBITS || k->fn.st_value >= sh.sh_size)
		return -ENOENT;
	size = k->fn.st_size ? k->fn.st_size : max;
	if (size > max)
		size = max;
	if (size > sh.sh_size - k->fn.st_value)
		size = sh.sh_size - k->fn.st_value;
	d = elf_getdata(scn, NULL);
	if (!d || d->d_size < sh.sh_size || !d->d_buf)
		return -EINVAL;
	c->bytes = malloc(size ? size : 1);
	if (!c->bytes)
		return -ENOMEM;
	memcpy(c->bytes, (const uint8_t *)d->d_buf + k->fn.st_value, size);
	c->len = size;
	err = apply_relocs(k);
	if (err)
		return err;
	for (i = 0; i < c->nr_relocs; i++)
		c->relocs[i].sym = c->names + (uintptr_t)c->relocs[i].sym;
	if (c->nr_relocs)
		qsort(c->relocs, c->nr_relocs, sizeof(*c->relocs), cmp_reloc);
	return 0;
}

int ko_code__read(const void *img, size_t len, const char *name, uint64_t addr, size_t max,
		  ko_resolve_fn resolve, void *ctx, struct ko_code *out)
{
	struct ko_ctx k = {.addr = addr, .out = out, .resolve = resolve, .rctx = ctx};
	char *copy;
	int err;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(Elf64_Ehdr))
		return -ENOEXEC;
	/* libelf reads its own copy: the caller's bytes may be a read-only mapping */
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, img, len);
	elf_version(EV_CURRENT);
	k.elf = elf_memory(copy, len);
	if (!k.elf) {
		free(copy);
		return -ENOEXEC;
	}
	err = read_fn(&k, name, max);
	elf_end(k.elf);
	free(copy);
	if (err)
		ko_code__release(out);
	return err;
}
