// SPDX-License-Identifier: GPL-2.0
/* The JREC_FEAT_ARCHIVE section, written and read; see archive-syms.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archive-syms.h"
#include "array.h"
#include "byteorder.h"
#include "elf-image.h"
#include "jrec-sections.h"
#include "kernel-syms.h"
#include "perf-file.h"
#include "symtab.h"

#define PAD8(x) (((x) + 7) & ~(uint64_t)7)

struct archive_writer {
	struct buf files, loads, syms, lines, strtab;
	struct buf inl_counts, inl, inl_names; /* the inline scopes */
	uint32_t nr_files, nr_loads;
	uint64_t nr_syms, nr_lines, nr_inl, nr_inl_names;
	uint32_t *slots; /* string table offset + 1 of each distinct string; 0 = free */
	size_t nslots, nstrings;
};

int archive_writer__new(struct archive_writer **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s) {
		h ^= (uint8_t)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void slot_insert(uint32_t *slots, size_t nslots, const char *strtab, uint32_t off)
{
	size_t i = str_hash(strtab + off) & (nslots - 1);

	while (slots[i])
		i = (i + 1) & (nslots - 1);
	slots[i] = off + 1;
}

static int grow_slots(struct archive_writer *w)
{
	size_t n = w->nslots ? w->nslots * 2 : 1024, i;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < w->nslots; i++)
		if (w->slots[i])
			slot_insert(slots, n, (const char *)w->strtab.data, w->slots[i] - 1);
	free(w->slots);
	w->slots = slots;
	w->nslots = n;
	return 0;
}

/* The offset of @s in the shared string table, added once. */
static int intern(struct archive_writer *w, const char *s, uint32_t *off)
{
	size_t i, len = strlen(s) + 1;
	int err;

	if ((w->nstrings + 1) * 2 > w->nslots) {
		err = grow_slots(w);
		if (err)
			return err;
	}
	for (i = str_hash(s) & (w->nslots - 1); w->slots[i]; i = (i + 1) & (w->nslots - 1))
		if (!strcmp((const char *)w->strtab.data + w->slots[i] - 1, s)) {
			*off = w->slots[i] - 1;
			return 0;
		}
	if (w->strtab.len + len >= UINT32_MAX)
		return -E2BIG;
	*off = (uint32_t)w->strtab.len;
	err = buf__append(&w->strtab, s, len);
	if (err)
		return err;
	w->slots[i] = *off + 1;
	w->nstrings++;
	return 0;
}

/* One file's inline scopes and their count (queued with the file, in its order). */
static int add_inlines(struct archive_writer *w, const struct archive_file_in *f)
{
	uint64_t n = f->nr_inlines;
	size_t i, k;
	int err = 0;

	for (i = 0; !err && i < f->nr_inlines; i++) {
		const struct elf_inline *x = &f->inlines[i];
		struct jrec_archive_inline y = {x->addr, (uint32_t)w->nr_inl_names, x->nr};

		if (x->nr > ELF_INLINE_MAX || (i && x->addr <= f->inlines[i - 1].addr) ||
		    w->nr_inl_names + x->nr > UINT32_MAX)
			return -EINVAL;
		for (k = 0; !err && k < x->nr; k++) {
			uint32_t off;

			err = intern(w, f->inline_names[x->first + k], &off);
			if (!err)
				err = buf__append(&w->inl_names, &off, sizeof(off));
			w->nr_inl_names += !err;
		}
		if (!err)
			err = buf__append(&w->inl, &y, sizeof(y));
	}
	if (!err)
		err = buf__append(&w->inl_counts, &n, sizeof(n));
	if (!err)
		w->nr_inl += n;
	return err;
}

int archive_writer__add(struct archive_writer *w, const struct archive_file_in *f)
{
	const struct symtab *t = f->syms;
	struct jrec_archive_file e;
	size_t i;
	int err;

	if (f->nr_loads > JREC_SYMTAB_MAX_LOADS || f->cookie.len > sizeof(e.cookie))
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	e.cookie_kind = f->cookie.kind;
	e.cookie_len = f->cookie.len;
	memcpy(e.cookie, f->cookie.bytes, f->cookie.len);
	e.flags = (f->full_symtab ? JREC_ARCHIVE_F_FULL_SYMTAB : 0) |
		  (f->kernel ? JREC_ARCHIVE_F_KERNEL : 0) |
		  (f->had_symbols ? JREC_ARCHIVE_F_SYMBOLS : 0);
	e.nr_loads = f->nr_loads;
	e.nr_syms = t ? t->nr : 0;
	e.nr_lines = f->nr_lines;
	err = intern(w, f->path, &e.path_off);
	for (i = 0; !err && i < f->nr_loads; i++) {
		struct jrec_symtab_load l = {f->loads[i][0], f->loads[i][1], f->loads[i][2]};

		err = buf__append(&w->loads, &l, sizeof(l));
	}
	for (i = 0; !err && i < e.nr_syms; i++) {
		const struct sym *s = &t->syms[i];
		struct jrec_symtab_sym y;

		memset(&y, 0, sizeof(y));
		y.value = s->start;
		y.size = s->end - s->start;
		y.bind = s->bind;
		y.flags = s->is_plt ? JREC_SYMTAB_SYM_PLT : 0;
		err = intern(w, s->name, &y.name_off);
		if (!err)
			err = buf__append(&w->syms, &y, sizeof(y));
	}
	for (i = 0; !err && i < f->nr_lines; i++) {
		const struct elf_line *l = &f->lines[i];
		struct jrec_archive_line y = {l->addr, 0, l->file ? l->line : 0};

		if (i && l->addr < f->lines[i - 1].addr)
			err = -EINVAL;
		else if (l->file)
			err = intern(w, l->file, &y.file_off);
		if (!err)
			err = buf__append(&w->lines, &y, sizeof(y));
	}
	if (!err)
		err = add_inlines(w, f);
	if (!err)
		err = buf__append(&w->files, &e, sizeof(e));
	if (err)
		return err;
	w->nr_files++;
	w->nr_loads += e.nr_loads;
	w->nr_syms += e.nr_syms;
	w->nr_lines += e.nr_lines;
	return 0;
}

int archive_writer__finish(struct archive_writer *w, struct buf *b)
{
	struct jrec_archive_header h = {w->nr_files, w->nr_loads, w->nr_syms, w->nr_lines,
					w->strtab.len};
	int err = jrec_section__begin(b, JREC_FEAT_ARCHIVE);

	if (!err)
		err = buf__append(b, &h, sizeof(h));
	if (!err)
		err = buf__append(b, w->files.data, w->files.len);
	if (!err)
		err = buf__append(b, w->loads.data, w->loads.len);
	if (!err)
		err = buf__append(b, w->syms.data, w->syms.len);
	if (!err)
		err = buf__append(b, w->lines.data, w->lines.len);
	if (!err)
		err = buf__append(b, w->strtab.data, w->strtab.len);
	/* the inline scopes, when there are any, from the next multiple of 8 of the payload */
	if (!err && w->nr_inl) {
		static const uint8_t zeros[8];
		struct jrec_archive_inlines ih = {w->nr_inl, w->nr_inl_names};

		err = buf__append(b, zeros, PAD8(w->strtab.len) - w->strtab.len);
		if (!err)
			err = buf__append(b, &ih, sizeof(ih));
		if (!err)
			err = buf__append(b, w->inl_counts.data, w->inl_counts.len);
		if (!err)
			err = buf__append(b, w->inl.data, w->inl.len);
		if (!err)
			err = buf__append(b, w->inl_names.data, w->inl_names.len);
	}
	if (!err)
		err = buf__pad(b, 8);
	return err;
}

void archive_writer__free(struct archive_writer *w)
{
	if (!w)
		return;
	buf__release(&w->files);
	buf__release(&w->loads);
	buf__release(&w->syms);
	buf__release(&w->lines);
	buf__release(&w->strtab);
	buf__release(&w->inl_counts);
	buf__release(&w->inl);
	buf__release(&w->inl_names);
	free(w->slots);
	free(w);
}

/* ---------------------------------------------------------------- reading */

/* @n items of @size bytes at *off, if they fit in @len; advances *off. */
static const uint8_t *take(const uint8_t *p, size_t len, size_t *off, uint64_t n, size_t size)
{
	const uint8_t *at = p + *off;

	if (n > (len - *off) / size)
		return NULL;
	*off += n * size;
	return at;
}

int archive_syms__parse(struct archive_syms *as, const void *data, size_t len, bool swapped)
{
	const uint8_t *p = data, *files, *loads, *syms, *lines, *inl_counts = NULL, *inl = NULL;
	uint64_t nr_syms, nr_lines, sum_syms = 0, sum_lines = 0, sum_loads = 0;
	uint64_t nr_inl = 0, sum_inl = 0;
	uint32_t nr_files, nr_loads, i;
	size_t off = sizeof(struct jrec_archive_header);
	int err = -EBADMSG;

	memset(as, 0, sizeof(*as));
	as->swapped = swapped;
	if (len < sizeof(struct jrec_archive_header))
		return -EBADMSG;
	nr_files = bo_u32(p + offsetof(struct jrec_archive_header, nr_files), swapped);
	nr_loads = bo_u32(p + offsetof(struct jrec_archive_header, nr_loads), swapped);
	nr_syms = bo_u64(p + offsetof(struct jrec_archive_header, nr_syms), swapped);
	nr_lines = bo_u64(p + offsetof(struct jrec_archive_header, nr_lines), swapped);
	as->strtab_len = bo_u64(p + offsetof(struct jrec_archive_header, strtab_len), swapped);
	files = take(p, len, &off, nr_files, sizeof(struct jrec_archive_file));
	loads = files ? take(p, len, &off, nr_loads, sizeof(struct jrec_symtab_load)) : NULL;
	syms = loads ? take(p, len, &off, nr_syms, sizeof(struct jrec_symtab_sym)) : NULL;
	lines = syms ? take(p, len, &off, nr_lines, sizeof(struct jrec_archive_line)) : NULL;
	if (!lines || as->strtab_len > len - off)
		return -EBADMSG;
	as->strtab = (const char *)p + off;
	if (as->strtab_len && as->strtab[as->strtab_len - 1])
		return -EBADMSG;
	/* the inline scopes, when the section goes on after its string table */
	off = PAD8(off + as->strtab_len);
	if (off < len) {
		if (len - off < sizeof(struct jrec_archive_inlines))
			return -EBADMSG;
		nr_inl = bo_u64(p + off + offsetof(struct jrec_archive_inlines, nr_addrs), swapped);
		as->nr_inline_names =
		    bo_u64(p + off + offsetof(struct jrec_archive_inlines, nr_names), swapped);
		off += sizeof(struct jrec_archive_inlines);
		inl_counts = take(p, len, &off, nr_files, sizeof(uint64_t));
		inl = inl_counts ? take(p, len, &off, nr_inl, sizeof(struct jrec_archive_inline)) : NULL;
		as->inline_names = inl ? take(p, len, &off, as->nr_inline_names, sizeof(uint32_t)) : NULL;
		if (!as->inline_names)
			return -EBADMSG;
	}
	if (!nr_files)
		return 0;
	as->files = calloc(nr_files, sizeof(*as->files));
	if (!as->files)
		return -ENOMEM;
	for (i = 0; i < nr_files; i++) {
		const uint8_t *e = files + (size_t)i * sizeof(struct jrec_archive_file);
		struct archive_file *f = &as->files[i];
		uint32_t path_off =
		    bo_u32(e + offsetof(struct jrec_archive_file, path_off), swapped);

		f->cookie.kind = e[offsetof(struct jrec_archive_file, cookie_kind)];
		f->cookie.len = e[offsetof(struct jrec_archive_file, cookie_len)];
		f->flags = bo_u16(e + offsetof(struct jrec_archive_file, flags), swapped);
		f->nr_loads = bo_u32(e + offsetof(struct jrec_archive_file, nr_loads), swapped);
		f->nr_syms = bo_u64(e + offsetof(struct jrec_archive_file, nr_syms), swapped);
		f->nr_lines = bo_u64(e + offsetof(struct jrec_archive_file, nr_lines), swapped);
		f->nr_inlines = inl_counts ? bo_u64(inl_counts + (size_t)i * sizeof(uint64_t), swapped) : 0;
		if (f->nr_inlines > nr_inl - sum_inl)
			goto fail;
		f->inlines = inl + sum_inl * sizeof(struct jrec_archive_inline);
		sum_inl += f->nr_inlines;
		if (f->cookie.len > sizeof(f->cookie.bytes) || path_off >= as->strtab_len ||
		    f->nr_loads > JREC_SYMTAB_MAX_LOADS || f->nr_loads > nr_loads - sum_loads ||
		    f->nr_syms > nr_syms - sum_syms || f->nr_lines > nr_lines - sum_lines)
			goto fail;
		memcpy(f->cookie.bytes, e + offsetof(struct jrec_archive_file, cookie),
		       f->cookie.len);
		f->path = as->strtab + path_off;
		f->loads = loads + sum_loads * sizeof(struct jrec_symtab_load);
		f->syms = syms + sum_syms * sizeof(struct jrec_symtab_sym);
		f->lines = lines + sum_lines * sizeof(struct jrec_archive_line);
		sum_loads += f->nr_loads;
		sum_syms += f->nr_syms;
		sum_lines += f->nr_lines;
	}
	if (sum_loads != nr_loads || sum_syms != nr_syms || sum_lines != nr_lines ||
	    sum_inl != nr_inl)
		goto fail;
	as->nr = nr_files;
	return 0;
fail:
	archive_syms__release(as);
	return err;
}

const struct archive_file *archive_syms__find(const struct archive_syms *as, const char *path,
					      const struct jrec_cookie *cookie)
{
	size_t i;

	if (!as)
		return NULL;
	for (i = 0; i < as->nr; i++) {
		const struct archive_file *f = &as->files[i];

		if (f->cookie.kind != cookie->kind || f->cookie.len != cookie->len ||
		    (f->flags & JREC_ARCHIVE_F_KERNEL))
			continue;
		if (cookie->len ? !memcmp(f->cookie.bytes, cookie->bytes, cookie->len)
				: !strcmp(f->path, path))
			return f;
	}
	return NULL;
}

/* Add entry @f's symbols to @t, names in the section; module @module for kernel entries. */
static int add_syms(const struct archive_syms *as, const struct archive_file *f, struct symtab *t,
		    uint16_t module)
{
	uint64_t i;
	int err = 0;

	for (i = 0; !err && i < f->nr_syms; i++) {
		const uint8_t *y = f->syms + i * sizeof(struct jrec_symtab_sym);
		uint32_t name_off = bo_u32(y + offsetof(struct jrec_symtab_sym, name_off), as->swapped);

		if (name_off >= as->strtab_len)
			return -EBADMSG;
		err = symtab__add(t, bo_u64(y, as->swapped), bo_u64(y + 8, as->swapped),
				  as->strtab + name_off, y[offsetof(struct jrec_symtab_sym, bind)]);
		if (err)
			break;
		if (y[offsetof(struct jrec_symtab_sym, flags)] & JREC_SYMTAB_SYM_PLT)
			t->syms[t->nr - 1].is_plt = 1;
		t->syms[t->nr - 1].module = module;
	}
	return err;
}

int archive_syms__kernel(const struct archive_syms *as, struct kernel_syms *k)
{
	size_t i;
	int err = 0, idx;

	memset(k, 0, sizeof(*k));
	for (i = 0; !err && i < as->nr; i++) {
		const struct archive_file *f = &as->files[i];

		if (!(f->flags & JREC_ARCHIVE_F_KERNEL))
			continue;
		idx = 0;
		/* modules[0] is the kernel itself */
		if (!k->nr_modules)
			err = kernel_syms__add_module(k, "[kernel.kallsyms]", &idx);
		if (!err && strcmp(f->path, "[kernel.kallsyms]"))
			err = kernel_syms__add_module(k, f->path, &idx);
		if (!err)
			err = add_syms(as, f, &k->tab, (uint16_t)idx);
	}
	if (err) {
		kernel_syms__release(k);
		return err;
	}
	symtab__finish(&k->tab, 1 << 20);
	return 0;
}

static int open_lines(const struct archive_syms *as, const struct archive_file *f,
		      struct elf_image *img)
{
	struct elf_line *lines;
	uint64_t i;

	if (!f->nr_lines)
		return 0;
	if (f->nr_lines > SIZE_MAX / sizeof(*lines))
		return -ENOMEM;
	lines = malloc(f->nr_lines * sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (i = 0; i < f->nr_lines; i++) {
		const uint8_t *y = f->lines + i * sizeof(struct jrec_archive_line);
		uint32_t file_off = bo_u32(y + 8, as->swapped), line = bo_u32(y + 12, as->swapped);

		lines[i].addr = bo_u64(y, as->swapped);
		lines[i].line = line;
		lines[i].file = line ? as->strtab + file_off : NULL;
		if ((line && file_off >= as->strtab_len) ||
		    (i && lines[i].addr < lines[i - 1].addr)) {
			free(lines);
			return -EBADMSG;
		}
	}
	elf_image__set_lines(img, lines, f->nr_lines);
	return 0;
}

/* The entry's inline scopes, checked, for elf_image__inlines(): names point into the section. */
static int open_inlines(const struct archive_syms *as, const struct archive_file *f,
			struct elf_image *img)
{
	struct elf_inline *inl;
	const char **names;
	uint64_t i, k, m = 0;

	if (!f->nr_inlines)
		return 0;
	if (f->nr_inlines > SIZE_MAX / (ELF_INLINE_MAX * sizeof(*names)))
		return -ENOMEM;
	inl = malloc(f->nr_inlines * sizeof(*inl));
	names = malloc(f->nr_inlines * ELF_INLINE_MAX * sizeof(*names));
	if (!inl || !names) {
		free(inl);
		free(names);
		return -ENOMEM;
	}
	for (i = 0; i < f->nr_inlines; i++) {
		const uint8_t *y = f->inlines + i * sizeof(struct jrec_archive_inline);
		uint64_t addr = bo_u64(y, as->swapped);
		uint32_t first = bo_u32(y + offsetof(struct jrec_archive_inline, first_name), as->swapped);
		uint32_t n = bo_u32(y + offsetof(struct jrec_archive_inline, nr_names), as->swapped);

		if (n > ELF_INLINE_MAX || (uint64_t)first + n > as->nr_inline_names ||
		    (i && addr <= inl[i - 1].addr))
			goto bad;
		inl[i] = (struct elf_inline){addr, (uint32_t)m, n};
		for (k = 0; k < n; k++) {
			uint32_t off = bo_u32(as->inline_names + (first + k) * sizeof(uint32_t),
					      as->swapped);

			if (off >= as->strtab_len)
				goto bad;
			names[m++] = as->strtab + off;
		}
	}
	elf_image__set_inlines(img, inl, f->nr_inlines, names);
	return 0;
bad:
	free(inl);
	free(names);
	return -EBADMSG;
}

int archive_syms__open(const struct archive_syms *as, const struct archive_file *f,
		       struct elf_image **out)
{
	uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
	struct elf_image *img;
	struct symtab *t;
	uint32_t i;
	int err;

	*out = NULL;
	for (i = 0; i < f->nr_loads; i++) {
		const uint8_t *l = f->loads + i * sizeof(struct jrec_symtab_load);

		loads[i][0] = bo_u64(l, as->swapped);
		loads[i][1] = bo_u64(l + 8, as->swapped);
		loads[i][2] = bo_u64(l + 16, as->swapped);
	}
	/* the names stay in the section's string table */
	err = elf_image__open_syms(NULL, (const uint64_t(*)[3])loads, f->nr_loads, &img);
	if (err)
		return err;
	t = elf_image__symtab_mut(img);
	err = f->nr_syms > SIZE_MAX / sizeof(struct sym) ? -ENOMEM : symtab__reserve(t, f->nr_syms);
	if (!err)
		err = add_syms(as, f, t, 0);
	if (!err)
		err = open_lines(as, f, img);
	if (!err)
		err = open_inlines(as, f, img);
	if (err) {
		elf_image__close(img);
		return err;
	}
	symtab__finish(t, 1 << 20);
	elf_image__set_full_symtab(img, f->flags & JREC_ARCHIVE_F_FULL_SYMTAB);
	*out = img;
	return 0;
}

void archive_syms__release(struct archive_syms *as)
{
	if (!as)
		return;
	free(as->files);
	memset(as, 0, sizeof(*as));
}
