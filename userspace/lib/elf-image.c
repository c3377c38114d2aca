// SPDX-License-Identifier: GPL-2.0
/* elf-image: an ELF file's symbols and load layout, opened from a path, a descriptor or memory. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-image-internal.h"
#include "unpack.h"

/*
 * The "name@plt" entries of @elf's .rela.plt, at .plt.sec (IBT) or .plt +
 * one header entry, into @img's table. The names point into @elf, the
 * image's own; with @copy (@elf is another file's, closed after) into a copy
 * of its dynamic string table that the image owns.
 */
static int add_plt(struct elf_image *img, Elf *elf, bool copy)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn = elf_scn__by_name(elf, ".rela.plt", &rsh), *pscn, *dscn, *sscn;
	Elf_Data *rdata, *ddata, *sdata;
	uint64_t base, entsz = 16;
	size_t i, n;

	if (!rscn || rsh.sh_entsize == 0 || rsh.sh_type == SHT_NOBITS)
		return 0;
	pscn = elf_scn__by_name(elf, ".plt.sec", &psh);
	if (pscn) {
		base = psh.sh_addr;
	} else {
		pscn = elf_scn__by_name(elf, ".plt", &psh);
		if (!pscn)
			return 0;
		base = psh.sh_addr + entsz;
	}
	dscn = elf_getscn(elf, rsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dsh))
		return 0;
	rdata = elf_getdata(rscn, NULL);
	ddata = elf_getdata(dscn, NULL);
	if (!rdata || !ddata)
		return 0;
	if (copy) {
		sscn = elf_getscn(elf, dsh.sh_link);
		sdata = sscn ? elf_getdata(sscn, NULL) : NULL;
		if (!sdata || !sdata->d_buf || !sdata->d_size)
			return 0;
		img->plt_names = malloc(sdata->d_size);
		if (!img->plt_names)
			return -ENOMEM;
		memcpy(img->plt_names, sdata->d_buf, sdata->d_size);
	}
	n = rsh.sh_size / rsh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Rela rela;
		GElf_Sym sym;
		const char *name;
		int err;

		if (!gelf_getrela(rdata, (int)i, &rela) ||
		    !gelf_getsym(ddata, (int)GELF_R_SYM(rela.r_info), &sym))
			break;
		if (base + (i + 1) * entsz > psh.sh_addr + psh.sh_size)
			break;
		/* elf_strptr() checks the offset and the NUL within the table */
		name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		/* an entry of no symbol (an IRELATIVE one): "@plt", as perf 6.1 names it */
		if (!name)
			name = "";
		else if (copy)
			name = img->plt_names + sym.st_name;
		err = symtab__add(&img->syms, base + i * entsz, entsz, name, STB_GLOBAL);
		if (err)
			return err;
		img->syms.syms[img->syms.nr - 1].is_plt = 1;
	}
	return 0;
}

static void load_minidebug(struct elf_image *img)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_scn__by_name(img->elf, ".gnu_debugdata", &sh);
	Elf_Data *d;
	size_t outlen;
	void *buf;

	if (!scn || sh.sh_type == SHT_NOBITS)
		return;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_size)
		return;
	if (unpack__all(UNPACK_XZ, d->d_buf, d->d_size, 64u << 20, &buf, &outlen))
		return;
	img->mini = elf_memory(buf, outlen);
	if (img->mini)
		img->mini_buf = buf;
	else
		free(buf);
}

static int load_symbols(struct elf_image *img)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	int err;

	scn = elf_scn__by_type(img->elf, SHT_SYMTAB, &sh);
	if (scn) {
		err = elf_syms__add(&img->syms, img->elf, scn, &sh, NULL);
		if (err)
			return err;
		img->full_symtab = img->syms.nr > 0;
	}
	if (!img->syms.nr) {
		scn = elf_scn__by_type(img->elf, SHT_DYNSYM, &sh);
		if (scn) {
			err = elf_syms__add(&img->syms, img->elf, scn, &sh, NULL);
			if (err)
				return err;
		}
		load_minidebug(img);
		if (img->mini) {
			scn = elf_scn__by_type(img->mini, SHT_SYMTAB, &sh);
			if (scn) {
				err = elf_syms__add(&img->syms, img->mini, scn, &sh, NULL);
				if (err)
					return err;
				img->full_symtab = true;
			}
		}
	}
	err = add_plt(img, img->elf, false);
	if (err)
		return err;
	symtab__finish(&img->syms, 1 << 20);
	return 0;
}

/* The PT_LOAD segments of @elf into @loads; how many. */
static unsigned int read_loads(Elf *elf, struct load_seg *loads)
{
	unsigned int nr = 0;
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		n = 0;
	for (i = 0; i < n && nr < MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		loads[nr].offset = ph.p_offset;
		loads[nr].filesz = ph.p_filesz;
		loads[nr].vaddr = ph.p_vaddr;
		loads[nr].memsz = ph.p_memsz;
		nr++;
	}
	return nr;
}

static void load_layout(struct elf_image *img)
{
	const void *id;
	ssize_t idlen;

	img->nr_loads = read_loads(img->elf, img->loads);
	idlen = dwelf_elf_gnu_build_id(img->elf, &id);
	if (idlen > 0) {
		img->build_id_len = (size_t)idlen > 20 ? 20 : (size_t)idlen;
		memcpy(img->build_id, id, img->build_id_len);
	}
}

/*
 * A separate debug file's .rela.plt holds no data: the PLT entries from the
 * binary @elf, as perf takes them from the runtime file, unless the image
 * has them already.
 */
static void take_plt(struct elf_image *img, Elf *elf)
{
	size_t i, nr = img->syms.nr;

	for (i = 0; i < nr; i++)
		if (img->syms.syms[i].is_plt)
			return;
	if (img->plt_names)
		return;
	add_plt(img, elf, true);
	if (img->syms.nr != nr)
		symtab__finish(&img->syms, 1 << 20);
}

int elf_image__take_layout(struct elf_image *img, const char *path)
{
	struct load_seg loads[MAX_LOADS];
	unsigned int nr = 0;
	const void *id;
	ssize_t idlen;
	int fd, err = -ENOEXEC;
	Elf *elf;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		idlen = dwelf_elf_gnu_build_id(elf, &id);
		if (img->build_id_len && idlen > 0 &&
		    ((size_t)idlen > 20 ? 20 : (size_t)idlen) == img->build_id_len &&
		    !memcmp(id, img->build_id, img->build_id_len))
			nr = read_loads(elf, loads);
		if (nr) {
			memcpy(img->loads, loads, nr * sizeof(loads[0]));
			img->nr_loads = nr;
			take_plt(img, elf); /* without them (no memory) samples there are unnamed */
			err = 0;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

void elf_image__set_layout(struct elf_image *img, const uint64_t (*loads)[3], unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr && i < MAX_LOADS; i++) {
		img->loads[i].offset = loads[i][0];
		img->loads[i].filesz = loads[i][1];
		img->loads[i].vaddr = loads[i][2];
		img->loads[i].memsz = loads[i][1];
	}
	img->nr_loads = i;
}

int elf_image__open(const char *path, struct elf_image **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*out = NULL;
		return -errno;
	}
	return elf_image__open_fd(fd, out);
}

int elf_image__open_fd(int fd, struct elf_image **out)
{
	struct elf_image *img;
	int err;

	*out = NULL;
	elf_version(EV_CURRENT);
	img = calloc(1, sizeof(*img));
	if (!img) {
		close(fd);
		return -ENOMEM;
	}
	img->fd = fd;
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out_close;
	}
	load_layout(img);
	err = load_symbols(img);
	if (err)
		goto out_close;
	*out = img;
	return 0;
out_close:
	elf_image__close(img);
	return err;
}

const void *elf_image__mem(const struct elf_image *img, size_t *len)
{
	*len = img->mem_len;
	return img->mem;
}

int elf_image__open_mem(void *buf, size_t len, struct elf_image **out)
{
	struct elf_image *img;
	int err;

	*out = NULL;
	elf_version(EV_CURRENT);
	img = calloc(1, sizeof(*img));
	if (!img) {
		free(buf);
		return -ENOMEM;
	}
	img->fd = -1;
	img->mem = buf;
	img->mem_len = len;
	img->elf = elf_memory(buf, len);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto out;
	}
	load_layout(img);
	err = load_symbols(img);
	if (err)
		goto out;
	*out = img;
	return 0;
out:
	elf_image__close(img);
	return err;
}

int elf_image__open_syms(void *strings, const uint64_t (*loads)[3], unsigned int nr_loads,
			 struct elf_image **out)
{
	struct elf_image *img;

	*out = NULL;
	img = calloc(1, sizeof(*img));
	if (!img) {
		free(strings);
		return -ENOMEM;
	}
	img->fd = -1;
	img->mem = strings;
	elf_image__set_layout(img, loads, nr_loads);
	*out = img;
	return 0;
}

struct symtab *elf_image__symtab_mut(struct elf_image *img)
{
	return &img->syms;
}

void elf_image__set_full_symtab(struct elf_image *img, bool full)
{
	img->full_symtab = full;
}

unsigned int elf_image__loads(const struct elf_image *img, uint64_t (*loads)[3], unsigned int max)
{
	unsigned int i;

	for (i = 0; i < img->nr_loads && i < max; i++) {
		loads[i][0] = img->loads[i].offset;
		loads[i][1] = img->loads[i].filesz;
		loads[i][2] = img->loads[i].vaddr;
	}
	return i;
}

void elf_image__close(struct elf_image *img)
{
	if (!img)
		return;
	if (img->dw)
		dwarf_end(img->dw);
	symtab__release(&img->syms);
	symtab__release(&img->data_syms);
	free(img->lines);
	free(img->inl);
	free(img->inl_names);
	free(img->plt_names);
	if (img->mini)
		elf_end(img->mini);
	free(img->mini_buf);
	if (img->elf)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	free(img->mem);
	free(img);
}

int elf_image__symbol_value(const struct elf_image *img, const char *name, uint64_t *value)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_scn__by_type(img->elf, SHT_SYMTAB, &sh);
	Elf_Data *data;
	size_t i, n;

	if (!scn || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return -ENOENT;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *s;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		s = elf_strptr(img->elf, sh.sh_link, sym.st_name);
		if (s && !strcmp(s, name) && sym.st_shndx != SHN_UNDEF) {
			*value = sym.st_value;
			return 0;
		}
	}
	return -ENOENT;
}

size_t elf_image__build_id(const struct elf_image *img, uint8_t *id, size_t max)
{
	size_t n = img->build_id_len < max ? img->build_id_len : max;

	memcpy(id, img->build_id, n);
	return n;
}

uint64_t elf_image__offset_to_vaddr(const struct elf_image *img, uint64_t off)
{
	unsigned int i;

	for (i = 0; i < img->nr_loads; i++) {
		const struct load_seg *l = &img->loads[i];

		if (off >= l->offset && off - l->offset < l->filesz)
			return off - l->offset + l->vaddr;
	}
	/* not in any segment (or no program headers): the first segment's bias */
	if (img->nr_loads)
		return off - img->loads[0].offset + img->loads[0].vaddr;
	return off;
}

const struct symtab *elf_image__symtab(const struct elf_image *img)
{
	return &img->syms;
}

bool elf_image__has_symbols(const struct elf_image *img)
{
	return img->syms.nr > 0;
}

bool elf_image__has_full_symtab(const struct elf_image *img)
{
	return img->full_symtab;
}

int elf_image__debuglink(const struct elf_image *img, char *name, size_t len, uint32_t *crc)
{
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Shdr sh;
	const char *p;
	size_t n, off;

	if (!img->elf || !(scn = elf_scn__by_name(img->elf, ".gnu_debuglink", &sh)) || sh.sh_type == SHT_NOBITS)
		return -ENOENT;
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf || !data->d_size)
		return -EINVAL;
	p = data->d_buf;
	n = strnlen(p, data->d_size);
	/* the name, its NUL, padding to 4 bytes, then the CRC in the file's byte order */
	off = (n + 1 + 3) & ~(size_t)3;
	if (!n || n >= len || n == data->d_size || off + 4 > data->d_size || memchr(p, '/', n))
		return -EINVAL;
	memcpy(name, p, n + 1);
	memcpy(crc, p + off, 4);
	if (elf_getident(img->elf, NULL)[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
							   ELFDATA2LSB : ELFDATA2MSB))
		*crc = __builtin_bswap32(*crc);
	return 0;
}
