/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dso: the files samples land in, identified by path and cookie, and where
 * their symbols come from. A file is looked for by its cookie, best source
 * first: the symbols `jrec archive` stored in the recording
 * (JREC_FEAT_ARCHIVE: what the recording machine's report used), separate
 * debuginfo by build-id (/usr/lib/debug/.build-id/, then debuginfod when
 * DEBUGINFOD_URLS is set), jrec's build-id cache, perf's build-id cache, the
 * original path only if its cookie still matches, and last the symbols the
 * recorder stored (JREC_FEAT_SYMTAB). A file whose cookie does not match is
 * never used. With a symfs root (--symfs), the original path and the
 * separate debuginfo are looked for under it (and the kernel's vmlinux and
 * System.map, by kernel-symbols.c).
 */
#ifndef JREC_DSO_H
#define JREC_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cookie.h"

struct elf_image;
struct stored_syms;
struct archive_syms;

enum dso_status {
	DSO_NOT_LOADED = 0,
	DSO_OK,           /* symbols found */
	DSO_MISSING,      /* no file with this cookie anywhere */
	DSO_MISMATCH,     /* the file at the path has another cookie, nothing else found */
	DSO_STRIPPED,     /* found, but it has no symbols */
	DSO_NOT_ELF,      /* not an ELF file (a runtime's own image format) */
	DSO_NO_COOKIE,    /* no cookie was recorded and the path is gone */
	DSO_ANON,         /* anonymous memory, no JIT symbol covers it */
	DSO_KERNEL_NOSYMS, /* no kernel symbol source matched */
	DSO_NO_SYMBOL      /* symbols found, but none covers the address */
};

struct dso {
	char *path;
	char *short_name; /* base name, what the report shows */
	struct jrec_cookie cookie;
	bool kernel;
	enum dso_status status;
	const char *source; /* where the symbols came from: "debuginfo", "jrec-cache", ... */
	char *used_path;
	struct elf_image *img;
	struct dso *next; /* hash chain */
	/* for the "could not be symbolized" list */
	uint64_t unresolved_period, unresolved_samples;
	/* jrec script's brstackoff: a sample or frame has named this file, so
	 * perf, which reads a file's symbols on first use, would have by now */
	bool script_used;
};

struct dso_set {
	struct dso **buckets;
	size_t nbuckets, nr;
	char cache_dir[4096]; /* jrec's build-id cache, "" when none */
	char debug_dir[4096]; /* separate debuginfo root: $JREC_DEBUG_DIR, else /usr/lib/debug */
	bool use_debuginfod;
	bool own_vdso; /* the recording's kernel is the running one: its vdso is ours */
	bool debuginfod_failed; /* libdebuginfod could not be loaded: do not retry */
	void *debuginfod;       /* struct debuginfod_dl, lazily */
	const struct stored_syms *stored; /* the recording's JREC_FEAT_SYMTAB, or NULL */
	const struct archive_syms *archive; /* the recording's JREC_FEAT_ARCHIVE, or NULL */
	char symfs[4096]; /* --symfs root, "" when none */
};

int dso_set__init(struct dso_set *s);
/*
 * Look for the files the recording names under @dir (perf's --symfs), and
 * for separate debuginfo under DIR/usr/lib/debug unless $JREC_DEBUG_DIR
 * says where. 0, -ENOENT, -ENOTDIR or -ENAMETOOLONG.
 */
int dso_set__set_symfs(struct dso_set *s, const char *dir);
/* The dso for (path, cookie); created on first use. NULL on ENOMEM. */
struct dso *dso_set__get(struct dso_set *s, const char *path, const struct jrec_cookie *cookie);
/* Find and open the file for @d (once). Sets d->status. */
void dso__load(struct dso_set *s, struct dso *d);
/*
 * The file that holds @d's code and its .eh_frame, never a separate
 * debuginfo file: the build-id cache's copy, perf's, or the original path
 * while its cookie matches. 0 and the path in @buf, or -ENOENT. Call after
 * dso__load().
 */
int dso__code_file(struct dso_set *s, struct dso *d, char *buf, size_t len);
/*
 * The object file of kernel module @mod ("jmmap", as kallsyms names it) of
 * kernel release @rel, into @buf: with @which 0, the installed one under
 * <symfs>/lib/modules/REL/ (NAME.ko, .ko.xz or .ko.zst, '-' or '_', in any
 * folder below: kernel/, extra/, updates/); with @which 1, the debug copy
 * under <debug dir>/lib/modules/REL/. 0, or -ENOENT.
 */
int dso__module_file(const struct dso_set *s, const char *rel, const char *mod, int which,
		     char *buf, size_t len);
/* The separate debuginfo file @d's symbols came from, or NULL. */
const char *dso__debug_file(const struct dso *d);
const char *dso_status_str(enum dso_status st);
/*
 * This process's own vdso, copied out of its memory: the one every 64-bit
 * process of this kernel runs. 0, -ENOENT (none), -ENOMEM, or what
 * elf_image__open_mem() returned.
 */
int dso__open_own_vdso(struct elf_image **out);
void dso_set__release(struct dso_set *s);

#endif
