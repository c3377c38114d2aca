// SPDX-License-Identifier: GPL-2.0
/* perf script's srccode field (script-srccode.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dso.h"
#include "elf-image.h"
#include "procfs.h"
#include "resolve.h"
#include "script-srccode.h"

#define SRC_FILES 8 /* source files kept read */

struct src_file {
	char *path;
	struct buf text;
	bool readable;
};

struct thread_line {
	uint32_t tid;
	char *file;
	int line;
};

struct script_srccode {
	struct src_file files[SRC_FILES];
	unsigned int nr_files, next; /* the slot the next file takes when full */
	struct thread_line *threads;
	size_t nr_threads, cap_threads;
};

static void src_file__clear(struct src_file *f)
{
	free(f->path);
	buf__release(&f->text);
	memset(f, 0, sizeof(*f));
}

/* The text of @path, read once; NULL when unreadable */
static struct src_file *src_file(struct script_srccode *sc, const char *path)
{
	struct src_file *f;
	unsigned int i;

	for (i = 0; i < sc->nr_files; i++)
		if (!strcmp(sc->files[i].path, path))
			return &sc->files[i];
	if (sc->nr_files < SRC_FILES) {
		f = &sc->files[sc->nr_files++];
	} else {
		f = &sc->files[sc->next];
		sc->next = (sc->next + 1) % SRC_FILES;
		src_file__clear(f);
	}
	f->path = strdup(path);
	if (!f->path) {
		sc->nr_files--;
		return NULL;
	}
	f->readable = !procfs_read_file(path, &f->text);
	return f;
}

/* Line @line (from 1) of @f: its start and length without the newline, or NULL */
static const char *src_line(const struct src_file *f, int line, size_t *len)
{
	const char *p = (const char *)f->text.data, *end, *nl;

	if (!f->readable || !p || line < 1)
		return NULL;
	end = p + f->text.len;
	while (--line > 0) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p >= end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	return p;
}

static struct thread_line *thread_line(struct script_srccode *sc, uint32_t tid)
{
	struct thread_line *t;
	size_t i;

	for (i = 0; i < sc->nr_threads; i++)
		if (sc->threads[i].tid == tid)
			return &sc->threads[i];
	if (sc->nr_threads == sc->cap_threads) {
		size_t cap = sc->cap_threads ? sc->cap_threads * 2 : 16;

		t = realloc(sc->threads, cap * sizeof(*t));
		if (!t)
			return NULL;
		sc->threads = t;
		sc->cap_threads = cap;
	}
	t = &sc->threads[sc->nr_threads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

int script_srccode__print(struct script_srccode **scp, const struct resolved *res, uint32_t tid,
			  FILE *out)
{
	struct script_srccode *sc = *scp;
	struct thread_line *t;
	struct src_file *f;
	const char *text;
	char file[4096], *copy;
	size_t len;
	int line;

	if (!res->dso || !res->dso->img || res->jit ||
	    elf_image__line(res->dso->img, res->vaddr, file, sizeof(file), &line))
		return 0;
	if (!sc) {
		sc = calloc(1, sizeof(*sc));
		if (!sc)
			return -ENOMEM;
		*scp = sc;
	}
	t = thread_line(sc, tid);
	if (!t)
		return -ENOMEM;
	if (t->file && t->line == line && !strcmp(t->file, file))
		return 0; /* (the thread's last line printed) */
	f = src_file(sc, file);
	text = f ? src_line(f, line, &len) : NULL;
	if (!text)
		return 0;
	copy = strdup(file);
	if (!copy)
		return -ENOMEM;
	free(t->file);
	t->file = copy;
	t->line = line;
	fprintf(out, "|%-8d %.*s\n", line, (int)len, text);
	return 0;
}

void script_srccode__delete(struct script_srccode *sc)
{
	size_t i;

	if (!sc)
		return;
	for (i = 0; i < sc->nr_files; i++)
		src_file__clear(&sc->files[i]);
	for (i = 0; i < sc->nr_threads; i++)
		free(sc->threads[i].file);
	free(sc->threads);
	free(sc);
}
