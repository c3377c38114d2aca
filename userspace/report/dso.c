// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "debuginfod-dl.h"
#include "dso.h"
#include "elf-image.h"
#include "ko-code.h"
#include "archive-syms.h"
#include "buildid-cache.h"
#include "perf-file.h"
#include "procfs.h"
#include "stored-syms.h"

static uint64_t hash_str(const char *s, uint64_t h)
{
	while (*s) {
		h ^= (uint8_t)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t dso_hash(const char *path, const struct jrec_cookie *c)
{
	uint64_t h = hash_str(path, 0xcbf29ce484222325ULL);
	unsigned int i;

	for (i = 0; c && i < c->len; i++) {
		h ^= c->bytes[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int dso_set__init(struct dso_set *s)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *env;

	memset(s, 0, sizeof(*s));
	s->nbuckets = 1024;
	s->buckets = calloc(s->nbuckets, sizeof(*s->buckets));
	if (!s->buckets)
		return -ENOMEM;
	if (buildid_cache__default_dir(s->cache_dir, sizeof(s->cache_dir)))
		s->cache_dir[0] = 0; /* none */
	s->use_debuginfod = urls && *urls;
	env = getenv("JREC_DEBUG_DIR");
	snprintf(s->debug_dir, sizeof(s->debug_dir), "%s", env && *env ? env : "/usr/lib/debug");
	return 0;
}

int dso_set__set_symfs(struct dso_set *s, const char *dir)
{
	const char *env = getenv("JREC_DEBUG_DIR");
	size_t n = strlen(dir);
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n + sizeof("/usr/lib/debug") > sizeof(s->debug_dir))
		return -ENAMETOOLONG;
	memcpy(s->symfs, dir, n);
	s->symfs[n] = 0;
	if (!env || !*env) {
		memcpy(s->debug_dir, dir, n);
		memcpy(s->debug_dir + n, "/usr/lib/debug", sizeof("/usr/lib/debug"));
	}
	return 0;
}

/* Where the recorded @path is on this machine: under the symfs root if there is one. */
static const char *machine_path(const struct dso_set *s, const char *path, char *buf, size_t len)
{
	if (!s->symfs[0])
		return path;
	snprintf(buf, len, "%s%s%s", s->symfs, path[0] == '/' ? "" : "/", path);
	return buf;
}

struct dso *dso_set__get(struct dso_set *s, const char *path, const struct jrec_cookie *cookie)
{
	static const struct jrec_cookie none;
	const struct jrec_cookie *c = cookie ? cookie : &none;
	size_t b = dso_hash(path, c) & (s->nbuckets - 1);
	struct dso *d;
	const char *base;

	for (d = s->buckets[b]; d; d = d->next)
		if (!strcmp(d->path, path) && jrec_cookie_equal(&d->cookie, c))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->path = strdup(path);
	if (!d->path) {
		free(d);
		return NULL;
	}
	base = strrchr(d->path, '/');
	d->short_name = base && base[1] ? (char *)base + 1 : d->path;
	d->cookie = *c;
	d->kernel = path[0] == '[';
	d->next = s->buckets[b];
	s->buckets[b] = d;
	s->nr++;
	return d;
}

/* Open @path and keep it only if its build-id is the one we look for. */
static bool try_elf(struct dso *d, const char *path, const char *source, bool check)
{
	struct elf_image *img;
	uint8_t id[20];
	size_t n;

	if (access(path, R_OK))
		return false;
	if (elf_image__open(path, &img))
		return false;
	if (check && d->cookie.kind == JMMAP_COOKIE_ELF_BUILD_ID) {
		n = elf_image__build_id(img, id, sizeof(id));
		if (n != d->cookie.len || memcmp(id, d->cookie.bytes, n)) {
			elf_image__close(img);
			return false;
		}
	}
	d->img = img;
	d->source = source;
	d->used_path = strdup(path);
	d->status = elf_image__has_symbols(img) ? DSO_OK : DSO_STRIPPED;
	return true;
}

static bool try_debuginfod(struct dso_set *s, struct dso *d)
{
	char *path = NULL;
	int fd;
	bool ok;

	if (!s->use_debuginfod)
		return false;
	if (!s->debuginfod && !s->debuginfod_failed &&
	    debuginfod_dl__open((struct debuginfod_dl **)&s->debuginfod))
		s->debuginfod_failed = true;
	if (!s->debuginfod)
		return false;
	fd = debuginfod_dl__find_debuginfo(s->debuginfod, d->cookie.bytes, d->cookie.len, &path);
	if (fd < 0)
		return false;
	close(fd);
	ok = try_elf(d, path, "debuginfod", true);
	free(path);
	return ok;
}

static void use_binary_layout(struct dso_set *s, struct dso *d);

/* The CRC-32 of the file at @path (.gnu_debuglink's checksum); false when it cannot be read. */
static bool file_crc(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	close(fd);
	*crc = (uint32_t)c;
	return n == 0;
}

/*
 * A binary with no DWARF of its own (found at its path @mpath, or a copy of
 * it in a build-id cache) may name its debug file in .gnu_debuglink (objcopy
 * --only-keep-debug, then --add-gnu-debuglink): looked for beside the
 * binary's path, in .debug/ there, and under the debuginfo root with the
 * binary's directory, as gdb does; taken when
 * its CRC is the one the link gives, for symbols and lines, with the
 * binary's layout.
 */
static void try_debuglink(struct dso_set *s, struct dso *d, const char *mpath)
{
	char name[256], dir[8300], path[8600], *slash;
	const char *ps = strrchr(d->path, '/');
	struct elf_image *dbg;
	uint32_t want, got;
	unsigned int i;

	if (elf_image__has_dwarf(d->img) || elf_image__debuglink(d->img, name, sizeof(name), &want))
		return;
	snprintf(dir, sizeof(dir), "%s", mpath);
	slash = strrchr(dir, '/');
	if (!slash)
		return;
	*slash = '\0';
	for (i = 0; i < 3; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "%s/%s", dir, name);
		else if (i == 1)
			snprintf(path, sizeof(path), "%s/.debug/%s", dir, name);
		else if (ps) /* the recorded path's directory under the debuginfo root (which --symfs moves) */
			snprintf(path, sizeof(path), "%s%.*s/%s", s->debug_dir, (int)(ps - d->path),
				 d->path, name);
		else
			break;
		if (!strcmp(path, mpath) || !file_crc(path, &got) || got != want ||
		    elf_image__open(path, &dbg))
			continue;
		if (!elf_image__has_dwarf(dbg)) {
			elf_image__close(dbg);
			continue;
		}
		elf_image__close(d->img);
		free(d->used_path);
		d->img = dbg;
		d->used_path = strdup(path);
		d->source = "debuglink";
		d->status = elf_image__has_symbols(dbg) ? DSO_OK : DSO_STRIPPED;
		use_binary_layout(s, d);
		return;
	}
}

int dso__open_own_vdso(struct elf_image **out)
{
	size_t len;
	void *buf;
	int err = procfs_read_own_vdso(&buf, &len);

	*out = NULL;
	return err ? err : elf_image__open_mem(buf, len, out);
}

/* This process's own vdso, which is the recorded one when the kernel is the same. */
static bool try_own_vdso(struct dso *d)
{
	struct elf_image *img;

	if (dso__open_own_vdso(&img))
		return false;
	if (d->cookie.kind == JMMAP_COOKIE_ELF_BUILD_ID) {
		uint8_t id[20];
		size_t n = elf_image__build_id(img, id, sizeof(id));

		if (n != d->cookie.len || memcmp(id, d->cookie.bytes, n)) {
			elf_image__close(img);
			return false;
		}
	}
	d->img = img;
	d->source = "running vdso";
	d->status = elf_image__has_symbols(img) ? DSO_OK : DSO_STRIPPED;
	return true;
}

/* Symbols stored in the recording for @d, in place of any image it had. */
static void use_stored(struct dso *d, struct elf_image *img, const char *source)
{
	elf_image__close(d->img);
	free(d->used_path);
	d->used_path = NULL;
	d->img = img;
	d->source = source;
	d->status = elf_image__has_symbols(img) ? DSO_OK : DSO_STRIPPED;
}

/*
 * The first source: the symbols `jrec archive` stored for this file, which
 * are those the recording machine's report used, from its best source.
 */
static bool try_archive(struct dso_set *s, struct dso *d)
{
	const struct archive_file *a = archive_syms__find(s->archive, d->path, &d->cookie);
	struct elf_image *img;

	if (!a || archive_syms__open(s->archive, a, &img))
		return false;
	use_stored(d, img, "archive");
	/* only the sampled symbols are stored: there may be none */
	if (a->flags & JREC_ARCHIVE_F_SYMBOLS)
		d->status = DSO_OK;
	return true;
}

/* The last source: the symbols the recorder stored for this cookie. */
static bool try_stored(struct dso_set *s, struct dso *d)
{
	const struct stored_file *f = stored_syms__find(s->stored, &d->cookie);
	struct elf_image *img;

	if (!f || stored_syms__open(s->stored, f, &img))
		return false;
	use_stored(d, img, "recording");
	return true;
}

/*
 * Separate debuginfo keeps the segments' addresses but not where their
 * bytes were in the file (objcopy --only-keep-debug zeroes p_filesz, and
 * often p_offset): take the layout of the binary itself, from the cache
 * copy, the original path if it is still this build, or the symbols stored
 * in the recording. Without any, the debug file's own headers are used.
 */
static void use_binary_layout(struct dso_set *s, struct dso *d)
{
	const struct stored_file *f = stored_syms__find(s->stored, &d->cookie);
	struct elf_image *st;
	uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
	char buf[8300];
	unsigned int n;

	if (s->cache_dir[0]) {
		char *file = buildid_cache__path(s->cache_dir, &d->cookie, BUILDID_CACHE_FILE);
		int err = file ? elf_image__take_layout(d->img, file) : -ENOMEM;

		free(file);
		if (!err)
			return;
	}
	if (!elf_image__take_layout(d->img, machine_path(s, d->path, buf, sizeof(buf))))
		return;
	if (f && !stored_syms__open(s->stored, f, &st)) {
		n = elf_image__loads(st, loads, JREC_SYMTAB_MAX_LOADS);
		if (n)
			elf_image__set_layout(d->img, loads, n);
		elf_image__close(st);
	}
}

/* Forget an image that was opened but is not to be used (a debug file without symbols). */
static void drop_image(struct dso *d)
{
	elf_image__close(d->img);
	d->img = NULL;
	free(d->used_path);
	d->used_path = NULL;
}

/* perf's build-id cache entry for build-id @hex: ~/.debug/.build-id/XX/REST/@leaf; false without $HOME. */
static bool perf_cache_path(char *buf, size_t len, const char *hex, const char *leaf)
{
	const char *home = getenv("HOME");

	if (!home)
		return false;
	snprintf(buf, len, "%s/.debug/.build-id/%.2s/%s/%s", home, hex, hex + 2, leaf);
	return true;
}

/* Separate debuginfo at @path, taken with the binary's layout when it has symbols. */
static bool try_debug_file(struct dso_set *s, struct dso *d, const char *path)
{
	if (try_elf(d, path, "debuginfo", true) && d->status == DSO_OK) {
		use_binary_layout(s, d);
		return true;
	}
	drop_image(d);
	return false;
}

void dso__load(struct dso_set *s, struct dso *d)
{
	char hex[JREC_COOKIE_HEX_LEN], path[8300], mbuf[8300];
	const char *mpath = machine_path(s, d->path, mbuf, sizeof(mbuf));
	struct jrec_cookie now;
	bool is_bid;

	if (d->status != DSO_NOT_LOADED)
		return;
	/*
	 * A recording that gives no cookie for a file (perf writes build-ids
	 * of some files only): the build-id of the file at the path, as perf
	 * reads it, so that its separate debuginfo is found as for the others.
	 */
	if (!d->cookie.len && !access(mpath, R_OK) && !jrec_cookie_from_path(mpath, &now) &&
	    now.kind == JMMAP_COOKIE_ELF_BUILD_ID)
		d->cookie = now;
	is_bid = d->cookie.kind == JMMAP_COOKIE_ELF_BUILD_ID && d->cookie.len;
	if (try_archive(s, d))
		return;
	jrec_cookie_hex(&d->cookie, hex);
	if (is_bid) {
		/* separate debuginfo first: symbols and DWARF */
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", s->debug_dir, hex, hex + 2);
		if (try_debug_file(s, d, path))
			return;
		/* perf's build-id cache keeps the debug file perf record found as "debug" */
		if (perf_cache_path(path, sizeof(path), hex, "debug") && try_debug_file(s, d, path))
			return;
		if (try_debuginfod(s, d) && d->status == DSO_OK) {
			use_binary_layout(s, d);
			return;
		}
		drop_image(d);
	}
	if (d->cookie.len && s->cache_dir[0]) {
		char *file = buildid_cache__path(s->cache_dir, &d->cookie, BUILDID_CACHE_FILE);
		struct jrec_cookie got;

		snprintf(path, sizeof(path), "%s", file ? file : "");
		free(file);
		/*
		 * An entry may be a hard link to the installed file, and a file
		 * written over in place changes with it: a build-id is checked by
		 * try_elf(), a content cookie here.
		 */
		if (!is_bid &&
		    (jrec_cookie_from_path(path, &got) || !jrec_cookie_equal(&got, &d->cookie)))
			path[0] = '\0';
		if (path[0] && try_elf(d, path, "jrec-cache", true)) {
			try_debuglink(s, d, mpath);
			return;
		}
		if (path[0] && !access(path, R_OK)) {
			d->status = DSO_NOT_ELF;
			d->source = "jrec-cache";
			return;
		}
	}
	if (is_bid && perf_cache_path(path, sizeof(path), hex, "elf")) {
		if (try_elf(d, path, "perf-cache", true)) {
			try_debuglink(s, d, mpath);
			return;
		}
		/* perf keeps the vdso it saw as "vdso" beside "elf" */
		perf_cache_path(path, sizeof(path), hex, "vdso");
		if (try_elf(d, path, "perf-cache", true))
			return;
	}
	if (!strcmp(d->path, "[vdso]") && (s->own_vdso || is_bid) && try_own_vdso(d))
		return;
	if (access(mpath, R_OK)) {
		if (try_stored(s, d))
			return;
		d->status = d->cookie.len ? DSO_MISSING : DSO_NO_COOKIE;
		return;
	}
	if (d->cookie.len) {
		if (jrec_cookie_from_path(mpath, &now) || !jrec_cookie_equal(&now, &d->cookie)) {
			/* the file at the path is another build: never use it */
			if (try_stored(s, d))
				return;
			d->status = DSO_MISMATCH;
			return;
		}
	}
	if (try_elf(d, mpath, s->symfs[0] ? "symfs" : "path", false)) {
		try_debuglink(s, d, mpath);
		if (d->status == DSO_STRIPPED)
			try_stored(s, d);
		return;
	}
	d->status = DSO_NOT_ELF;
	d->source = "path";
}

static bool is_source(const struct dso *d, const char *source)
{
	return d->source && !strcmp(d->source, source);
}

const char *dso__debug_file(const struct dso *d)
{
	return d->used_path && (is_source(d, "debuginfo") || is_source(d, "debuginfod"))
		       ? d->used_path
		       : NULL;
}

/* Whether @path is an ELF file with @d's cookie. */
static bool same_build(const struct dso *d, const char *path)
{
	struct jrec_cookie now;

	if (access(path, R_OK))
		return false;
	if (!d->cookie.len)
		return true;
	return !jrec_cookie_from_path(path, &now) && jrec_cookie_equal(&now, &d->cookie);
}

int dso__code_file(struct dso_set *s, struct dso *d, char *buf, size_t len)
{
	char hex[JREC_COOKIE_HEX_LEN];

	if (d->used_path && !dso__debug_file(d)) {
		snprintf(buf, len, "%s", d->used_path);
		return 0;
	}
	if (d->cookie.len && s->cache_dir[0]) {
		char *file = buildid_cache__path(s->cache_dir, &d->cookie, BUILDID_CACHE_FILE);
		bool ok = file && !access(file, R_OK);

		if (ok)
			snprintf(buf, len, "%s", file);
		free(file);
		if (ok)
			return 0;
	}
	jrec_cookie_hex(&d->cookie, hex);
	if (d->cookie.kind == JMMAP_COOKIE_ELF_BUILD_ID && d->cookie.len &&
	    perf_cache_path(buf, len, hex, "elf") && same_build(d, buf))
		return 0;
	if (d->path[0] == '/' && same_build(d, d->path)) {
		snprintf(buf, len, "%s", d->path);
		return 0;
	}
	return -ENOENT;
}

/* The file of module @mod in @dir or below (at most @depth folders down), into @buf. */
static int find_module(char *dir, size_t dlen, const char *mod, int depth, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t at = strlen(dir);
	int err = -ENOENT;

	if (!d)
		return -ENOENT;
	while (err && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (e->d_type != DT_DIR && ko_code__file_is(e->d_name, mod)) {
			snprintf(buf, len, "%s/%s", dir, e->d_name);
			err = 0;
		} else if ((e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) && depth > 0 &&
			   at + strlen(e->d_name) + 2 < dlen && strcmp(e->d_name, "build") &&
			   strcmp(e->d_name, "source")) {
			snprintf(dir + at, dlen - at, "/%s", e->d_name);
			err = find_module(dir, dlen, mod, depth - 1, buf, len);
			dir[at] = 0;
		}
	}
	closedir(d);
	return err;
}

int dso__module_file(const struct dso_set *s, const char *rel, const char *mod, int which,
		     char *buf, size_t len)
{
	char dir[4096];

	if (!rel[0] || !mod[0] || strchr(rel, '/'))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%.3800s/lib/modules/%.200s", which ? s->debug_dir : s->symfs, rel);
	return find_module(dir, sizeof(dir), mod, 8, buf, len);
}

const char *dso_status_str(enum dso_status st)
{
	switch (st) {
	case DSO_NOT_LOADED:
		return "not loaded";
	case DSO_OK:
		return "ok";
	case DSO_MISSING:
		return "binary missing";
	case DSO_MISMATCH:
		return "build-id mismatch: the file at the path is another build, this one is missing";
	case DSO_STRIPPED:
		return "stripped";
	case DSO_NOT_ELF:
		return "not ELF, no JIT symbols";
	case DSO_NO_COOKIE:
		return "binary missing (no build-id recorded)";
	case DSO_ANON:
		return "anonymous memory, no JIT symbols";
	case DSO_KERNEL_NOSYMS:
		return "no kernel symbols";
	case DSO_NO_SYMBOL:
		return "no symbol covers the address";
	}
	return "?";
}

void dso_set__release(struct dso_set *s)
{
	size_t i;

	if (!s || !s->buckets)
		return;
	for (i = 0; i < s->nbuckets; i++) {
		struct dso *d = s->buckets[i], *n;

		for (; d; d = n) {
			n = d->next;
			elf_image__close(d->img);
			free(d->used_path);
			free(d->path);
			free(d);
		}
	}
	free(s->buckets);
	debuginfod_dl__close(s->debuginfod);
	memset(s, 0, sizeof(*s));
}
