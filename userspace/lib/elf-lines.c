// SPDX-License-Identifier: GPL-2.0
/*
 * elf-image's source lines and inline scopes: from the file's DWARF, or
 * those stored with it (an archived recording's, where no DWARF travels).
 */
#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "elf-image-internal.h"

bool elf_image__has_dwarf(struct elf_image *img)
{
	if (!img->dw_tried) {
		img->dw_tried = true;
		if (img->elf)
			img->dw = dwarf_begin_elf(img->elf, DWARF_C_READ, NULL);
	}
	return img->dw != NULL;
}

/* The last stored line at or before @vaddr; line 0 (file NULL) ends a range. */
static const struct elf_line *stored_line(const struct elf_image *img, uint64_t vaddr)
{
	size_t lo = 0, hi = img->nr_lines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->lines[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && img->lines[lo - 1].file ? &img->lines[lo - 1] : NULL;
}

int elf_image__line(struct elf_image *img, uint64_t vaddr, char *file, size_t len, int *lineno)
{
	const char *name, *dir = NULL;
	Dwarf_Attribute a;
	Dwarf_Line *line;
	Dwarf_Die cu;

	if (!elf_image__has_dwarf(img)) {
		const struct elf_line *l = stored_line(img, vaddr);

		if (!l)
			return -ENOENT;
		snprintf(file, len, "%s", l->file);
		*lineno = (int)l->line;
		return 0;
	}
	if (!dwarf_addrdie(img->dw, vaddr, &cu))
		return -ENOENT;
	line = dwarf_getsrc_die(&cu, vaddr);
	name = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	if (!name || dwarf_lineno(line, lineno))
		return -ENOENT;
	/* a name relative to the unit's compilation directory */
	if (name[0] != '/' && dwarf_attr(&cu, DW_AT_comp_dir, &a))
		dir = dwarf_formstring(&a);
	snprintf(file, len, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
	return 0;
}

const char *elf_image__srcline(struct elf_image *img, uint64_t vaddr, char *buf, size_t len)
{
	char file[4096];
	const char *base;
	int lineno;

	if (elf_image__line(img, vaddr, file, sizeof(file), &lineno))
		return NULL;
	base = strrchr(file, '/');
	snprintf(buf, len, "%s:%d", base ? base + 1 : file, lineno);
	return buf;
}

/* An inline scope's name: the linkage name, which demangles to the qualified one, else its own. */
static const char *scope_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))
		name = dwarf_formstring(&a);
	return name ? name : dwarf_diename(die);
}

/* elf_image__inlines() from the scopes of elf_image__set_inlines(). */
static size_t stored_inlines(const struct elf_image *img, uint64_t vaddr, const char **names,
			     size_t max)
{
	size_t lo = 0, hi = img->nr_inl, nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->inl[mid].addr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == img->nr_inl || img->inl[lo].addr != vaddr)
		return 0;
	nr = img->inl[lo].nr < max ? img->inl[lo].nr : max;
	memcpy(names, img->inl_names + img->inl[lo].first, nr * sizeof(*names));
	return nr;
}

void elf_image__set_inlines(struct elf_image *img, struct elf_inline *inl, size_t nr,
			    const char **names)
{
	free(img->inl);
	free(img->inl_names);
	img->inl = inl;
	img->nr_inl = nr;
	img->inl_names = names;
}

size_t elf_image__inlines(struct elf_image *img, uint64_t vaddr, const char **names, size_t max)
{
	Dwarf_Die cu, *scopes = NULL, *nest = NULL;
	size_t nr = 0;
	int i, n;

	if (!max)
		return 0;
	if (!elf_image__has_dwarf(img))
		return stored_inlines(img, vaddr, names, max);
	if (!dwarf_addrdie(img->dw, vaddr, &cu))
		return 0;
	/*
	 * dwarf_getscopes() goes from the innermost inlined instance on into its
	 * abstract definition's scopes; the instances it was inlined into are
	 * its parents in the concrete tree, which dwarf_getscopes_die() gives.
	 */
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (i = 0; i < n && dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine; i++)
		;
	n = i < n ? dwarf_getscopes_die(&scopes[i], &nest) : 0;
	/* innermost first, up to the function the code was inlined into */
	for (i = 0; i < n && nr < max; i++) {
		int tag = dwarf_tag(&nest[i]);
		const char *name;

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine && (name = scope_name(&nest[i])))
			names[nr++] = name;
	}
	free(nest);
	free(scopes);
	return nr;
}

static int add_line(struct elf_line **arr, size_t *nr, size_t *cap, uint64_t addr,
		    const char *file, int lineno)
{
	struct elf_line *prev = *nr ? &(*arr)[*nr - 1] : NULL;

	if (!file || lineno <= 0) {
		file = NULL;
		lineno = 0;
	}
	/* the same line again: the range goes on */
	if (prev && (uint32_t)lineno == prev->line &&
	    (prev->file == file || (prev->file && file && !strcmp(prev->file, file))))
		return 0;
	if (prev && prev->addr == addr) {
		prev->file = file;
		prev->line = (uint32_t)lineno;
		return 0;
	}
	if (array_grow(arr, cap, *nr + 1))
		return -ENOMEM;
	(*arr)[(*nr)++] = (struct elf_line){addr, file, (uint32_t)lineno};
	return 0;
}

/* elf_image__lines() over lines stored in the image (an archived recording archived again). */
static int stored_lines(const struct elf_image *img, uint64_t lo, uint64_t hi,
			struct elf_line **arr, size_t *nr, size_t *cap)
{
	const struct elf_line *l = stored_line(img, lo);
	size_t i;
	int err = add_line(arr, nr, cap, lo, l ? l->file : NULL, l ? (int)l->line : 0);

	for (i = 0; !err && i < img->nr_lines; i++) {
		l = &img->lines[i];
		if (l->addr > lo && l->addr < hi)
			err = add_line(arr, nr, cap, l->addr, l->file, (int)l->line);
	}
	return err ? err : add_line(arr, nr, cap, hi, NULL, 0);
}

int elf_image__lines(struct elf_image *img, uint64_t lo, uint64_t hi, struct elf_line **arr,
		     size_t *nr, size_t *cap)
{
	Dwarf_Lines *lines;
	Dwarf_Line *first;
	Dwarf_Die cu;
	size_t i, n;
	int lineno = 0, err;

	if (*nr && (*arr)[*nr - 1].addr > lo)
		return -EINVAL;
	if (lo < hi && !elf_image__has_dwarf(img) && img->nr_lines)
		return stored_lines(img, lo, hi, arr, nr, cap);
	if (lo >= hi || !elf_image__has_dwarf(img) || !dwarf_addrdie(img->dw, lo, &cu))
		return 0;
	/* what elf_image__srcline() says at @lo, then each row of the CU up to @hi */
	first = dwarf_getsrc_die(&cu, lo);
	if (first && dwarf_lineno(first, &lineno))
		first = NULL;
	err = add_line(arr, nr, cap, lo, first ? dwarf_linesrc(first, NULL, NULL) : NULL, lineno);
	if (!err && dwarf_getsrclines(&cu, &lines, &n))
		n = 0;
	for (i = 0; !err && i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool end = false;

		if (!l || dwarf_lineaddr(l, &a) || a <= lo || a >= hi)
			continue;
		lineno = 0;
		if (dwarf_lineendsequence(l, &end) || end || dwarf_lineno(l, &lineno))
			err = add_line(arr, nr, cap, a, NULL, 0);
		else
			err = add_line(arr, nr, cap, a, dwarf_linesrc(l, NULL, NULL), lineno);
	}
	if (!err)
		err = add_line(arr, nr, cap, hi, NULL, 0);
	return err;
}

void elf_image__set_lines(struct elf_image *img, struct elf_line *lines, size_t nr)
{
	free(img->lines);
	img->lines = lines;
	img->nr_lines = nr;
}
