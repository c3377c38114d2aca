// SPDX-License-Identifier: GPL-2.0
/*
 * The JREC_FEAT_ARCHIVE section and the file rewrite behind jrec archive:
 * this test program's own symbols and the source lines of one function
 * written as jrec archive writes them, read back, looked up and compared
 * with what the DWARF says at every byte of that function; one string table
 * shared by entries that repeat names; every truncation and a set of corrupt
 * counts and offsets rejected. Then a recording amended with the section:
 * its data and other features kept, the section found, a second amend
 * replacing it, and a file of the other byte order refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-syms.h"
#include "cookie.h"
#include "elf-image.h"
#include "perf-amend.h"
#include "perf-file.h"
#include "perf-reader.h"
#include "perf-writer.h"
#include "symtab.h"
#include "tap.h"

__attribute__((noinline)) int test_archive_marker(int x);
__attribute__((noinline)) int test_archive_marker(int x)
{
	int i, acc = x;

	for (i = 0; i < x; i++)
		acc = acc * 3 + i;
	return acc ^ 0x55;
}

#define HDR sizeof(struct jrec_feat_prefix)

/* parse and open every entry: 0, or the first error */
static int parse_open(const void *p, size_t len)
{
	struct archive_syms as;
	struct elf_image *img;
	size_t i;
	int err = archive_syms__parse(&as, p, len, false);

	for (i = 0; !err && i < as.nr; i++) {
		err = archive_syms__open(&as, &as.files[i], &img);
		elf_image__close(img);
	}
	archive_syms__release(&as);
	return err;
}

/* The section for this program (with the marker's lines), itself again under @other, and a vdso. */
static int build(struct elf_image *own, const struct jrec_cookie *ck,
		 const struct jrec_cookie *other, const struct sym *m, int copies, struct buf *b,
		 size_t *nr_lines)
{
	static const char *const vnames[] = {"__vdso_time", "__vdso_clock_gettime"};
	uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
	struct symtab vdso = {0};
	struct elf_line *lines = NULL;
	size_t cap = 0, i;
	struct archive_writer *w;
	struct archive_file_in in;
	int err;

	*nr_lines = 0;
	err = archive_writer__new(&w);
	if (!err)
		err = elf_image__lines(own, m->start, m->end, &lines, nr_lines, &cap);
	memset(&in, 0, sizeof(in));
	in.cookie = *ck;
	in.path = "/some/where/test-archive-syms";
	in.full_symtab = elf_image__has_full_symtab(own);
	in.nr_loads = elf_image__loads(own, loads, JREC_SYMTAB_MAX_LOADS);
	in.loads = (const uint64_t(*)[3])loads;
	in.syms = elf_image__symtab(own);
	in.lines = lines;
	in.nr_lines = *nr_lines;
	if (!err)
		err = archive_writer__add(w, &in);
	if (!err && copies > 1) {
		in.cookie = *other;
		err = archive_writer__add(w, &in);
	}
	for (i = 0; !err && i < 2; i++)
		err = symtab__add(&vdso, 0x900 + i * 0x40, 0x30, vnames[i], 1);
	symtab__finish(&vdso, 1 << 20);
	memset(&in, 0, sizeof(in));
	in.path = "[vdso]";
	in.syms = &vdso;
	if (!err)
		err = archive_writer__add(w, &in);
	if (!err)
		err = archive_writer__finish(w, b);
	archive_writer__free(w);
	symtab__release(&vdso);
	free(lines);
	return err;
}

static int same_lines(struct elf_image *dwarf, struct elf_image *stored, const struct sym *m)
{
	char a[512], b[512];
	const char *x, *y;
	uint64_t v;
	int bad = 0, named = 0;

	for (v = m->start; v < m->end; v++) {
		x = elf_image__srcline(dwarf, v, a, sizeof(a));
		y = elf_image__srcline(stored, v, b, sizeof(b));
		named += x != NULL;
		if (!x != !y || (x && strcmp(x, y)))
			bad++;
	}
	return named && !bad;
}

static void section_tests(void)
{
	struct buf b = BUF_INIT, b2 = BUF_INIT;
	struct jrec_cookie ck, other, none = {0};
	struct archive_syms as;
	const struct archive_file *f;
	struct elf_image *own = NULL, *img = NULL;
	const struct sym *m = NULL, *s;
	struct jrec_archive_header *h;
	struct jrec_archive_file *e;
	size_t i, nr_lines = 0, nr2, bad = 0, body, need;
	uint8_t *copy;
	int err;

	check(test_archive_marker(3) != 0 && !elf_image__open("/proc/self/exe", &own) &&
		  !jrec_cookie_from_path("/proc/self/exe", &ck),
	      "own ELF image and cookie");
	if (!own)
		return;
	for (i = 0; i < elf_image__symtab(own)->nr; i++)
		if (!strcmp(elf_image__symtab(own)->syms[i].name, "test_archive_marker"))
			m = &elf_image__symtab(own)->syms[i];
	check(m && elf_image__has_dwarf(own), "own marker symbol and DWARF");
	if (!m)
		goto out;
	other = ck;
	other.bytes[0] ^= 0xff;
	err = build(own, &ck, &other, m, 1, &b, &nr_lines);
	check(!err && b.len % 8 == 0 && nr_lines >= 2,
	      "section written, 8-byte aligned, with lines");
	err = build(own, &ck, &other, m, 2, &b2, &nr2);
	h = (struct jrec_archive_header *)(b2.data + HDR);
	check(!err && h->nr_files == 3 &&
		  h->strtab_len == ((struct jrec_archive_header *)(b.data + HDR))->strtab_len,
	      "a second file with the same names adds nothing to the shared string table");

	err = archive_syms__parse(&as, b2.data + HDR, b2.len - HDR, false);
	check(!err && as.nr == 3, "three entries parsed");
	f = archive_syms__find(&as, "/elsewhere", &ck);
	check(f == &as.files[0] && !strcmp(f->path, "/some/where/test-archive-syms"),
	      "entry found by cookie, whatever the path, with its path");
	check(archive_syms__find(&as, "x", &other) == &as.files[1], "the copy found by its cookie");
	check(archive_syms__find(&as, "[vdso]", &none) == &as.files[2] &&
		  !archive_syms__find(&as, "/other", &none),
	      "an entry without cookie found by its path only");
	err = f ? archive_syms__open(&as, f, &img) : -ENOENT;
	s = err ? NULL : symtab__find(elf_image__symtab(img), m->start + 1);
	check(s && !strcmp(s->name, "test_archive_marker") && s->end == m->end,
	      "marker resolved from the archived symbols, same range");
	check(!err && elf_image__symtab(img)->nr == elf_image__symtab(own)->nr &&
		  elf_image__has_full_symtab(img) == elf_image__has_full_symtab(own),
	      "all symbols and the full-symtab flag kept");
	check(!err && elf_image__offset_to_vaddr(img, 0x1234) ==
			  elf_image__offset_to_vaddr(own, 0x1234),
	      "the PT_LOAD layout kept");
	check(!err && same_lines(own, img, m),
	      "srcline from the archive equals DWARF's at every byte of the marker");
	if (!err) {
		struct elf_line *again = NULL;
		size_t n = 0, cap = 0;

		err = elf_image__lines(img, m->start, m->end, &again, &n, &cap);
		check(!err && n == nr_lines,
		      "archived lines give the same lines again (re-archive)");
		free(again);
	}
	elf_image__close(img);
	archive_syms__release(&as);
	archive_syms__release(&as); /* twice is fine */

	/* every cut before the end of the string table is rejected, the padding is not needed */
	copy = malloc(b2.len);
	if (!copy)
		goto out;
	body = b2.len - HDR;
	h = (struct jrec_archive_header *)(b2.data + HDR);
	need = sizeof(*h) + h->nr_files * sizeof(*e) +
	       h->nr_loads * sizeof(struct jrec_symtab_load) +
	       h->nr_syms * sizeof(struct jrec_symtab_sym) +
	       h->nr_lines * sizeof(struct jrec_archive_line) + h->strtab_len;
	for (i = 0; i < body; i++) {
		memcpy(copy, b2.data + HDR, i);
		err = archive_syms__parse(&as, copy, i, false);
		bad += i < need ? err != -EBADMSG : err != 0;
		archive_syms__release(&as);
	}
	check(!bad && need <= body && body - need < 8,
	      "every cut inside the section rejected with -EBADMSG, only the padding optional");

#define CORRUPT(what, stmt)                                                                        \
	do {                                                                                       \
		memcpy(copy, b2.data + HDR, body);                                                 \
		h = (struct jrec_archive_header *)copy;                                            \
		e = (struct jrec_archive_file *)(h + 1);                                           \
		stmt;                                                                              \
		check(parse_open(copy, body) == -EBADMSG, "corrupt " what " rejected");            \
	} while (0)
	CORRUPT("file count", h->nr_files = 0xffffffffu);
	CORRUPT("symbol total", h->nr_syms = ~0ULL);
	CORRUPT("string table length", h->strtab_len = ~0ULL);
	CORRUPT("cookie length", e->cookie_len = 21);
	CORRUPT("load count", e->nr_loads = JREC_SYMTAB_MAX_LOADS + 1);
	CORRUPT("path offset", e->path_off = (uint32_t)h->strtab_len);
	CORRUPT("per-file counts that do not add up", e->nr_syms += 1);
	CORRUPT("string table without NUL",
		copy[sizeof(*h) + h->nr_files * sizeof(*e) +
		     h->nr_loads * sizeof(struct jrec_symtab_load) +
		     h->nr_syms * sizeof(struct jrec_symtab_sym) +
		     h->nr_lines * sizeof(struct jrec_archive_line) + h->strtab_len - 1] = 'x');
	CORRUPT("symbol name offset",
		((struct jrec_symtab_sym *)(copy + sizeof(*h) + h->nr_files * sizeof(*e) +
					    h->nr_loads * sizeof(struct jrec_symtab_load)))
		    ->name_off = (uint32_t)h->strtab_len);
	CORRUPT("unsorted lines",
		((struct jrec_archive_line *)(copy + sizeof(*h) + h->nr_files * sizeof(*e) +
					      h->nr_loads * sizeof(struct jrec_symtab_load) +
					      h->nr_syms * sizeof(struct jrec_symtab_sym)))
		    ->addr = ~0ULL);
	free(copy);
out:
	elf_image__close(own);
	buf__release(&b);
	buf__release(&b2);
}

static int write_recording(const char *path)
{
	struct perf_event_attr attr;
	struct perf_writer *w;
	struct buf b = BUF_INIT;
	uint64_t id = 7;
	struct perf_event_header r = {PERF_RECORD_FINISHED_ROUND, 0, sizeof(r)};
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	err = perf_writer__new(path, &w);
	if (err)
		return err;
	err = perf_writer__add_attr(w, &attr, &id, 1);
	if (!err)
		err = perf_writer__begin(w);
	if (!err)
		err = perf_writer__write(w, &r, sizeof(r));
	if (!err)
		err = buf__append_perf_string(&b, "host");
	if (!err)
		err = perf_writer__add_feature(w, PERF_FEAT_HOSTNAME, &b);
	if (!err)
		err = buf__append(&b, "abcde", 5);
	if (!err)
		err = perf_writer__add_feature(w, 210, &b);
	if (!err)
		err = perf_writer__finish(w);
	perf_writer__free(w);
	buf__release(&b);
	return err;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	int fd = open(path, O_RDONLY);

	if (fd >= 0 && !fstat(fd, &st) && (p = malloc((size_t)st.st_size + 1)) &&
	    read(fd, p, (size_t)st.st_size) != st.st_size) {
		free(p);
		p = NULL;
	}
	*len = p ? (size_t)st.st_size : 0;
	if (fd >= 0)
		close(fd);
	return p;
}

/* Amend @in with ARCHIVE = @sec into @out; 0 or -errno. */
static int amend(const char *in, const char *out, const char *sec, size_t len)
{
	size_t n;
	uint8_t *p = slurp(in, &n);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), err;

	struct perf_amend_sec a = {JREC_FEAT_ARCHIVE, sec, len};

	err = p && fd >= 0 ? perf_amend__write(p, n, &a, 1, fd) : -EIO;
	if (fd >= 0)
		close(fd);
	free(p);
	return err;
}

/* Amend @in with ARCHIVE = "3rd", 211 = "two" and 210 = "new" (replacing "abcde") into @out. */
static int amend2(const char *in, const char *out)
{
	const struct perf_amend_sec secs[] = {
		{211, "two", 3}, {JREC_FEAT_ARCHIVE, "3rd", 3}, {210, "new", 3}};
	size_t n;
	uint8_t *p = slurp(in, &n);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), err;

	err = p && fd >= 0 ? perf_amend__write(p, n, secs, 3, fd) : -EIO;
	if (fd >= 0)
		close(fd);
	free(p);
	return err;
}

static bool feature_is(const char *path, unsigned int id, const char *want, size_t want_len)
{
	struct perf_reader *r;
	const void *p;
	size_t len;
	bool ok;

	if (perf_reader__open(path, &r, NULL, 0))
		return false;
	ok = !perf_reader__feature(r, id, &p, &len) && len == want_len && !memcmp(p, want, len);
	perf_reader__close(r);
	return ok;
}

static bool features_ok(const char *path, const char *want, size_t want_len)
{
	struct perf_reader *r;
	const void *p;
	size_t len;
	char host[16] = "";
	bool ok;

	if (perf_reader__open(path, &r, NULL, 0))
		return false;
	ok = perf_reader__feature_string(r, PERF_FEAT_HOSTNAME, host, sizeof(host)) &&
	     !strcmp(host, "host") && !perf_reader__feature(r, JREC_FEAT_ARCHIVE, &p, &len) &&
	     len == want_len && !memcmp(p, want, len) && perf_reader__data_size(r) == 8 &&
	     !perf_reader__cut_short(r);
	perf_reader__close(r);
	return ok;
}

/*
 * @in (HOSTNAME and 210, from write_recording()) into @out as jrec wrote it
 * before private sections left the feature bitmap: bit 210 set, its entry
 * in perf's table after HOSTNAME's, event_types zero. 0 or -1.
 */
static int old_layout(const char *in, const char *out)
{
	struct perf_file_header h;
	struct perf_file_section tab[2], priv;
	size_t n;
	uint8_t *p = slurp(in, &n);
	uint64_t end;
	int fd, err = -1;

	if (!p)
		return -1;
	memcpy(&h, p, sizeof(h));
	end = h.data.offset + h.data.size;
	memcpy(&tab[0], p + end, sizeof(tab[0]));
	memcpy(&priv, p + h.event_types.offset + sizeof(struct jrec_section_table) + 8,
	       sizeof(priv));
	h.adds_features[3] |= 1ULL << (210 - 192);
	memset(&h.event_types, 0, sizeof(h.event_types));
	tab[0].offset = end + sizeof(tab);
	tab[1].offset = tab[0].offset + tab[0].size;
	tab[1].size = priv.size;
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && write(fd, &h, sizeof(h)) == sizeof(h) &&
	    write(fd, p + sizeof(h), end - sizeof(h)) == (ssize_t)(end - sizeof(h)) &&
	    write(fd, tab, sizeof(tab)) == sizeof(tab) &&
	    write(fd, p + end + sizeof(tab[0]), tab[0].size) == (ssize_t)tab[0].size &&
	    write(fd, p + priv.offset, priv.size) == (ssize_t)priv.size)
		err = 0;
	if (fd >= 0)
		close(fd);
	free(p);
	return err;
}

/* Does @path announce private feature @id in perf's bitmap? */
static bool in_bitmap(const char *path, unsigned int id)
{
	struct perf_file_header h;
	size_t n;
	uint8_t *p = slurp(path, &n);
	bool set = false;

	if (p && n >= sizeof(h)) {
		memcpy(&h, p, sizeof(h));
		set = (h.adds_features[id / 64] >> (id % 64)) & 1;
	}
	free(p);
	return set;
}

static void amend_tests(void)
{
	char a[] = "/tmp/test-archive-a.XXXXXX", b[] = "/tmp/test-archive-b.XXXXXX",
	     c[] = "/tmp/test-archive-c.XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b), fc = mkstemp(c);
	uint8_t *p;
	size_t n;

	close(fa);
	close(fb);
	close(fc);
	check(!write_recording(a), "a recording with HOSTNAME and a private feature");
	check(!amend(a, b, "first section", 13) && features_ok(b, "first section", 13) &&
		  feature_is(b, 210, "abcde", 5),
	      "amended: data and features kept, ARCHIVE added");
	check(!amend(b, c, "2nd", 3) && features_ok(c, "2nd", 3) && feature_is(c, 210, "abcde", 5),
	      "amended again: ARCHIVE replaced, the rest kept");
	check(!amend2(c, b) && features_ok(b, "3rd", 3) && feature_is(b, 211, "two", 3) &&
		  feature_is(b, 210, "new", 3),
	      "two sections at once: one added, one replaced, ARCHIVE kept");
	check(!in_bitmap(a, 210) && !in_bitmap(b, 210) && !in_bitmap(b, JREC_FEAT_ARCHIVE),
	      "private sections stay out of perf's feature bitmap, written or amended");
	check(!old_layout(a, c) && in_bitmap(c, 210) && feature_is(c, 210, "abcde", 5),
	      "an older recording, private sections in the bitmap, is read");
	check(!amend(c, b, "old", 3) && features_ok(b, "old", 3) && feature_is(b, 210, "abcde", 5) &&
		  !in_bitmap(b, 210),
	      "amending an older recording moves its private sections out of the bitmap");
	p = slurp(a, &n);
	if (p) {
		uint64_t swapped = PERF_FILE_MAGIC_SWAPPED;
		struct perf_amend_sec x = {JREC_FEAT_ARCHIVE, "x", 1};
		int fd = open(c, O_WRONLY | O_TRUNC);

		memcpy(p, &swapped, 8);
		check(fd >= 0 && perf_amend__write(p, n, &x, 1, fd) == -EOPNOTSUPP,
		      "a file of the other byte order is refused");
		check(perf_amend__write(p, 40, &x, 1, fd) == -EBADMSG,
		      "a file shorter than its header is refused");
		memcpy(p, &(uint64_t){PERF_FILE_MAGIC}, 8);
		memcpy(p + 48, &(uint64_t){~0ULL}, 8); /* data.size */
		check(perf_amend__write(p, n, &x, 1, fd) == -EBADMSG,
		      "a data section past the end is refused");
		x.id = PERF_FILE_FEAT_BITS;
		check(perf_amend__write(p, n, &x, 1, fd) == -EINVAL, "a feature id out of range is refused");
		if (fd >= 0)
			close(fd);
		free(p);
	}
	unlink(a);
	unlink(b);
	unlink(c);
}

/* A section of two files, the first with inline scopes at two addresses: 0, or -errno. */
static int build_inlines(struct buf *b, const struct elf_inline *inl, size_t nr)
{
	static const char *const names[] = {"in_leaf", "in_mid", "in_other"};
	static const uint64_t loads[1][3] = {{0, 0x1000, 0}};
	struct archive_writer *w;
	struct archive_file_in in;
	struct symtab t = {0};
	int err = archive_writer__new(&w);

	if (!err)
		err = symtab__add(&t, 0x80, 0x200, "in_outer", 1);
	symtab__finish(&t, 1 << 20);
	memset(&in, 0, sizeof(in));
	in.path = "/a";
	in.nr_loads = 1;
	in.loads = loads;
	in.syms = &t;
	in.inlines = inl;
	in.nr_inlines = nr;
	in.inline_names = names;
	if (!err)
		err = archive_writer__add(w, &in);
	in.path = "/b";
	in.inlines = NULL;
	in.nr_inlines = 0;
	if (!err)
		err = archive_writer__add(w, &in);
	if (!err)
		err = archive_writer__finish(w, b);
	archive_writer__free(w);
	symtab__release(&t);
	return err;
}

/* The names elf_image__inlines() gives at @vaddr, joined by ',' into @out. */
static const char *inlines_at(struct elf_image *img, uint64_t vaddr, char *out, size_t len)
{
	const char *names[ELF_INLINE_MAX];
	size_t i, n = elf_image__inlines(img, vaddr, names, ELF_INLINE_MAX);

	out[0] = 0;
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "," : "", names[i]);
	return out;
}

static void inline_tests(void)
{
	const struct elf_inline inl[] = {{0x100, 0, 2}, {0x180, 2, 1}};
	const struct elf_inline unsorted[] = {{0x180, 2, 1}, {0x100, 0, 2}};
	struct buf b = BUF_INIT, bad = BUF_INIT;
	struct archive_syms as;
	struct elf_image *img = NULL, *img2 = NULL;
	struct jrec_archive_header *h;
	struct jrec_archive_inline *y;
	size_t body, need, i, wrong = 0;
	char got[256], got2[256], got3[256];
	uint8_t *copy;
	int err = build_inlines(&b, inl, 2);

	check(!err && b.len % 8 == 0, "a section with inline scopes written, 8-byte aligned");
	check(build_inlines(&bad, unsorted, 2) == -EINVAL, "unsorted inline scopes refused");
	buf__release(&bad);
	err = err ? err : archive_syms__parse(&as, b.data + HDR, b.len - HDR, false);
	check(!err && as.nr == 2 && as.files[0].nr_inlines == 2 && as.files[1].nr_inlines == 0,
	      "parsed: the first file has two addresses with inline scopes, the second none");
	if (!err && !archive_syms__open(&as, &as.files[0], &img) &&
	    !archive_syms__open(&as, &as.files[1], &img2)) {
		check(!strcmp(inlines_at(img, 0x100, got, sizeof(got)), "in_leaf,in_mid") &&
			  !strcmp(inlines_at(img, 0x180, got2, sizeof(got2)), "in_other") &&
			  !*inlines_at(img, 0x101, got3, sizeof(got3)),
		      "an opened entry gives each stored address's names, innermost first, and none elsewhere");
		check(!*inlines_at(img2, 0x100, got, sizeof(got)), "the other entry has none");
	} else {
		check(false, "entries with inline scopes opened");
	}
	elf_image__close(img);
	elf_image__close(img2);
	archive_syms__release(&as);

	/*
	 * Cut anywhere: inside the symbols and strings, or inside the inline
	 * scopes, -EBADMSG; in the padding after the strings (a reader that
	 * predates the scopes stops there) or after the scopes, accepted.
	 */
	body = b.len - HDR;
	copy = malloc(body);
	if (!copy)
		goto out;
	h = (struct jrec_archive_header *)(b.data + HDR);
	need = sizeof(*h) + h->nr_files * sizeof(struct jrec_archive_file) +
	       h->nr_loads * sizeof(struct jrec_symtab_load) +
	       h->nr_syms * sizeof(struct jrec_symtab_sym) + h->strtab_len;
	for (i = 0; i < body; i++) {
		size_t scopes = ((need + 7) & ~(size_t)7) + sizeof(struct jrec_archive_inlines) +
				h->nr_files * 8 + 2 * sizeof(struct jrec_archive_inline) + 3 * 4;
		bool ok_cut = (i >= need && i <= ((need + 7) & ~(size_t)7)) || i >= scopes;

		memcpy(copy, b.data + HDR, i);
		err = archive_syms__parse(&as, copy, i, false);
		wrong += ok_cut ? err != 0 : err != -EBADMSG;
		archive_syms__release(&as);
	}
	check(!wrong, "every cut inside the inline scopes rejected, one after the strings accepted");
	y = (struct jrec_archive_inline *)(copy + ((need + 7) & ~(size_t)7) +
					   sizeof(struct jrec_archive_inlines) + h->nr_files * 8);
#define CORRUPT_INL(what, stmt)                                                                    \
	do {                                                                                       \
		memcpy(copy, b.data + HDR, body);                                                  \
		stmt;                                                                              \
		check(parse_open(copy, body) == -EBADMSG, "corrupt " what " rejected");            \
	} while (0)
	CORRUPT_INL("inline counts that do not add up",
		    ((uint64_t *)(copy + ((need + 7) & ~(size_t)7) +
				  sizeof(struct jrec_archive_inlines)))[1] = 1);
	CORRUPT_INL("inline name count", y[1].nr_names = ELF_INLINE_MAX + 1);
	CORRUPT_INL("inline names past the array", y[1].first_name = 3);
	CORRUPT_INL("unsorted inline addresses", y[1].addr = y[0].addr);
	CORRUPT_INL("inline name offset", ((uint32_t *)(y + 2))[0] = (uint32_t)h->strtab_len);
	free(copy);
out:
	buf__release(&b);
}

int main(void)
{
	printf("TAP version 13\n");
	section_tests();
	inline_tests();
	amend_tests();
	return tap_done();
}
