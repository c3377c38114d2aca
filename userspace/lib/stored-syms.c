// SPDX-License-Identifier: GPL-2.0
/* The JREC_FEAT_SYMTAB section, written and read; see stored-syms.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "elf-image.h"
#include "perf-file.h"
#include "stored-syms.h"
#include "symtab.h"
#include "byteorder.h"

int stored_syms__emit(int fd, const char *path, const struct jrec_cookie *cookie, struct buf *b)
{
	uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
	struct jrec_symtab_entry e;
	const struct symtab *t;
	struct elf_image *img;
	uint64_t strtab_len = 0, off = 0;
	size_t i, path_len = strlen(path) + 1;
	char proc[64];
	unsigned int nl;
	int err;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	err = elf_image__open(proc, &img);
	if (err)
		return err;
	t = elf_image__symtab(img);
	if (!t->nr || t->nr > UINT32_MAX) {
		elf_image__close(img);
		return -ENOENT;
	}
	nl = elf_image__loads(img, loads, JREC_SYMTAB_MAX_LOADS);
	for (i = 0; i < t->nr; i++)
		strtab_len += strlen(t->syms[i].name) + 1;
	memset(&e, 0, sizeof(e));
	e.cookie_kind = cookie->kind;
	e.cookie_len = cookie->len > sizeof(e.cookie) ? sizeof(e.cookie) : cookie->len;
	memcpy(e.cookie, cookie->bytes, e.cookie_len);
	e.nr_loads = (uint16_t)nl;
	e.path_len = (uint32_t)path_len;
	e.nr_syms = (uint32_t)t->nr;
	e.strtab_len = strtab_len;
	err = buf__append(b, &e, sizeof(e));
	if (!err)
		err = buf__append(b, path, path_len);
	if (!err)
		err = buf__pad(b, 8);
	for (i = 0; !err && i < nl; i++) {
		struct jrec_symtab_load l = {loads[i][0], loads[i][1], loads[i][2]};

		err = buf__append(b, &l, sizeof(l));
	}
	for (i = 0; !err && i < t->nr; i++) {
		const struct sym *s = &t->syms[i];
		struct jrec_symtab_sym y;

		memset(&y, 0, sizeof(y));
		y.value = s->start;
		y.size = s->end - s->start;
		y.name_off = (uint32_t)off;
		y.bind = s->bind;
		y.flags = s->is_plt ? JREC_SYMTAB_SYM_PLT : 0;
		off += strlen(s->name) + 1;
		err = buf__append(b, &y, sizeof(y));
	}
	for (i = 0; !err && i < t->nr; i++)
		err = buf__append(b, t->syms[i].name, strlen(t->syms[i].name) + 1);
	if (!err)
		err = buf__pad(b, 8);
	elf_image__close(img);
	return err;
}

static uint32_t g32(const struct stored_syms *ss, const uint8_t *p)
{
	return bo_u32(p, ss->swapped);
}

static uint64_t g64(const struct stored_syms *ss, const uint8_t *p)
{
	return bo_u64(p, ss->swapped);
}

static uint16_t g16(const struct stored_syms *ss, const uint8_t *p)
{
	return bo_u16(p, ss->swapped);
}

#define PAD8(x) (((x) + 7) & ~(uint64_t)7)

int stored_syms__parse(struct stored_syms *ss, const void *data, size_t len, bool swapped)
{
	const uint8_t *p = data;
	size_t off = 0, cap = 0;
	int err = -EBADMSG;

	memset(ss, 0, sizeof(*ss));
	ss->swapped = swapped;
	while (off < len) {
		struct stored_file f;
		uint64_t path_len, need;
		const uint8_t *e = p + off;

		if (len - off < sizeof(struct jrec_symtab_entry))
			goto fail;
		memset(&f, 0, sizeof(f));
		f.cookie.kind = e[offsetof(struct jrec_symtab_entry, cookie_kind)];
		f.cookie.len = e[offsetof(struct jrec_symtab_entry, cookie_len)];
		f.nr_loads = g16(ss, e + offsetof(struct jrec_symtab_entry, nr_loads));
		path_len = g32(ss, e + offsetof(struct jrec_symtab_entry, path_len));
		f.nr_syms = g32(ss, e + offsetof(struct jrec_symtab_entry, nr_syms));
		f.strtab_len = g64(ss, e + offsetof(struct jrec_symtab_entry, strtab_len));
		if (f.cookie.len > 20 || f.cookie.len > sizeof(f.cookie.bytes) ||
		    f.nr_loads > JREC_SYMTAB_MAX_LOADS || !path_len || !f.strtab_len)
			goto fail;
		memcpy(f.cookie.bytes, e + offsetof(struct jrec_symtab_entry, cookie), f.cookie.len);
		off += sizeof(struct jrec_symtab_entry);
		/* every part checked against what is left, in 64 bits, before use */
		if (PAD8(path_len) > len - off)
			goto fail;
		f.path = (const char *)p + off;
		if (f.path[path_len - 1] || strlen(f.path) != path_len - 1)
			goto fail;
		off += PAD8(path_len);
		need = (uint64_t)f.nr_loads * sizeof(struct jrec_symtab_load);
		if (need > len - off)
			goto fail;
		f.loads = p + off;
		off += need;
		need = (uint64_t)f.nr_syms * sizeof(struct jrec_symtab_sym);
		if (need > len - off)
			goto fail;
		f.syms = p + off;
		off += need;
		if (f.strtab_len > len - off || PAD8(f.strtab_len) > len - off)
			goto fail;
		f.strtab = (const char *)p + off;
		if (f.strtab[f.strtab_len - 1])
			goto fail;
		off += PAD8(f.strtab_len);
		if (array_grow(&ss->files, &cap, ss->nr + 1)) {
			err = -ENOMEM;
			goto fail;
		}
		ss->files[ss->nr++] = f;
	}
	return 0;
fail:
	stored_syms__release(ss);
	return err;
}

const struct stored_file *stored_syms__find(const struct stored_syms *ss,
					    const struct jrec_cookie *cookie)
{
	size_t i;

	if (!ss || !cookie->len)
		return NULL;
	for (i = 0; i < ss->nr; i++) {
		const struct stored_file *f = &ss->files[i];

		if (f->cookie.kind == cookie->kind && f->cookie.len == cookie->len &&
		    !memcmp(f->cookie.bytes, cookie->bytes, cookie->len))
			return f;
	}
	return NULL;
}

int stored_syms__open(const struct stored_syms *ss, const struct stored_file *f,
		      struct elf_image **out)
{
	uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
	struct elf_image *img;
	struct symtab *t;
	char *strings;
	uint32_t i;
	int err;

	*out = NULL;
	for (i = 0; i < f->nr_loads; i++) {
		const uint8_t *l = f->loads + i * sizeof(struct jrec_symtab_load);

		loads[i][0] = g64(ss, l);
		loads[i][1] = g64(ss, l + 8);
		loads[i][2] = g64(ss, l + 16);
	}
	/* names plus room for an "@plt" suffix per symbol, owned by the image */
	if (f->strtab_len > SIZE_MAX / 2 - 5ULL * f->nr_syms)
		return -ENOMEM;
	strings = malloc(f->strtab_len + 5ULL * f->nr_syms + 1);
	if (!strings)
		return -ENOMEM;
	memcpy(strings, f->strtab, f->strtab_len);
	err = elf_image__open_syms(strings, (const uint64_t (*)[3])loads, f->nr_loads, &img);
	if (err)
		return err;
	t = elf_image__symtab_mut(img);
	err = symtab__reserve(t, f->nr_syms);
	for (i = 0; !err && i < f->nr_syms; i++) {
		const uint8_t *y = f->syms + (size_t)i * sizeof(struct jrec_symtab_sym);
		uint64_t value = g64(ss, y), size = g64(ss, y + 8);
		uint32_t name_off = g32(ss, y + 16);
		uint8_t bind = y[20], flags = y[21];

		if (name_off >= f->strtab_len) {
			err = -EBADMSG;
			break;
		}
		/* strtab ends with NUL (checked at parse): every name is terminated */
		err = symtab__add(t, value, size, strings + name_off, bind);
		if (!err && (flags & JREC_SYMTAB_SYM_PLT))
			t->syms[t->nr - 1].is_plt = 1;
	}
	if (err) {
		elf_image__close(img);
		return err;
	}
	symtab__finish(t, 1 << 20);
	elf_image__set_full_symtab(img, true);
	*out = img;
	return 0;
}

void stored_syms__release(struct stored_syms *ss)
{
	if (!ss)
		return;
	free(ss->files);
	memset(ss, 0, sizeof(*ss));
}
