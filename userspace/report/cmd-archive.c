// SPDX-License-Identifier: GPL-2.0
/*
 * jrec archive: make a recording report the same on a machine without its
 * binaries. The recording is loaded as jrec report loads it; every sample
 * and call-chain address is resolved, and for each file that has samples the
 * symbol table the report used (from whichever source it came: separate
 * debuginfo, the build-id cache, the file itself) and the source lines of the
 * sampled functions go into one JREC_FEAT_ARCHIVE section (archive-syms.c).
 * The file is rewritten safely: a new file beside it, renamed over it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive-syms.h"
#include "array.h"
#include "commands.h"
#include "elf-image.h"
#include "perf-amend.h"
#include "session.h"

static const char archive_usage[] =
	"usage: jrec archive [OPTIONS]\n"
	"\n"
	"Store in the recording the symbols and source lines of every file that has\n"
	"samples, so that jrec report names them on a machine without these files.\n"
	"\n"
	"  -i, --input FILE        recording to rewrite in place (default jrec.data)\n"
	"  -q, --quiet             print nothing but errors\n"
	"  -h, --help              this text\n";

static const struct option archive_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A file that has samples, and the addresses sampled in it (file layout). */
struct hit_file {
	struct dso *dso;
	uint64_t *addrs;
	size_t nr, cap, sorted; /* addrs[0..sorted) sorted and distinct */
};

struct archiver {
	struct session s;
	struct hit_file *files;
	size_t nr_files, cap_files;
	size_t last; /* the file of the last hit */
	int err;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void compact(struct hit_file *f)
{
	size_t i, out = 0;

	if (!f->nr)
		return;
	qsort(f->addrs, f->nr, sizeof(*f->addrs), cmp_u64);
	for (i = 0; i < f->nr; i++)
		if (!out || f->addrs[out - 1] != f->addrs[i])
			f->addrs[out++] = f->addrs[i];
	f->nr = f->sorted = out;
}

static int add_hit(struct archiver *a, const struct resolved *res)
{
	struct hit_file *f;
	size_t i;

	if (!res->dso || !res->dso->img || res->jit)
		return 0;
	if (a->last < a->nr_files && a->files[a->last].dso == res->dso) {
		i = a->last;
	} else {
		for (i = 0; i < a->nr_files && a->files[i].dso != res->dso; i++)
			;
		if (i == a->nr_files) {
			if (array_grow(&a->files, &a->cap_files, a->nr_files + 1))
				return -ENOMEM;
			memset(&a->files[i], 0, sizeof(a->files[i]));
			a->files[i].dso = res->dso;
			a->nr_files++;
		}
		a->last = i;
	}
	f = &a->files[i];
	if (f->nr && f->addrs[f->nr - 1] == res->vaddr)
		return 0;
	if (f->nr == f->cap) {
		compact(f);
		/* still more than half full of distinct addresses: grow */
		if (f->nr * 2 >= f->cap && array_grow(&f->addrs, &f->cap, f->nr + 1))
			return -ENOMEM;
	}
	f->addrs[f->nr++] = res->vaddr;
	return 0;
}

/* Every address a report resolves for this sample: its ip and its call chain. */
static int on_sample(const struct pr_event *ev, void *ctx)
{
	struct archiver *a = ctx;
	uint16_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t t, i;
	struct resolved res;
	int err;

	if (ev->type != PERF_RECORD_SAMPLE)
		return 0;
	t = session__time(ev);
	session__resolve(&a->s, ev->id.pid, ev->sample.ip, t, ev->misc, &res);
	err = add_hit(a, &res);
	for (i = 0; !err && i < ev->sample.nr_callchain; i++) {
		uint64_t ip = pr_callchain_at(a->s.r, &ev->sample, i);

		if (ip >= PERF_CONTEXT_MAX) {
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL
			       : ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
							 : 0;
			continue;
		}
		if (!mode)
			continue;
		session__resolve(&a->s, ev->id.pid, ip, t, mode, &res);
		err = add_hit(a, &res);
	}
	return err;
}

/* The source lines of the sampled functions (or bytes, outside any function). */
static int file_lines(struct hit_file *f, struct elf_line **lines, size_t *nr, size_t *cap)
{
	const struct symtab *t = elf_image__symtab(f->dso->img);
	uint64_t lo = 0, hi = 0;
	size_t i;
	int err = 0;

	compact(f);
	for (i = 0; !err && i < f->nr; i++) {
		const struct sym *s = symtab__find(t, f->addrs[i]);
		uint64_t l = s ? s->start : f->addrs[i], h = s ? s->end : f->addrs[i] + 1;

		if (hi && l <= hi) { /* overlaps or touches the range so far */
			if (h > hi)
				hi = h;
			continue;
		}
		if (hi)
			err = elf_image__lines(f->dso->img, lo, hi, lines, nr, cap);
		lo = l;
		hi = h;
	}
	if (!err && hi)
		err = elf_image__lines(f->dso->img, lo, hi, lines, nr, cap);
	return err;
}

struct archive_counts {
	size_t files, syms, lines;
};

static int build_section(struct archiver *a, struct buf *sec, struct archive_counts *n)
{
	struct archive_writer *w;
	struct elf_line *lines = NULL;
	size_t i, nr_lines, cap_lines = 0;
	int err = archive_writer__new(&w);

	for (i = 0; !err && i < a->nr_files; i++) {
		struct hit_file *f = &a->files[i];
		struct dso *d = f->dso;
		uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
		struct archive_file_in in;

		nr_lines = 0;
		err = file_lines(f, &lines, &nr_lines, &cap_lines);
		if (err)
			break;
		memset(&in, 0, sizeof(in));
		in.cookie = d->cookie;
		in.path = d->path;
		in.full_symtab = elf_image__has_full_symtab(d->img);
		in.nr_loads = elf_image__loads(d->img, loads, JREC_SYMTAB_MAX_LOADS);
		in.loads = (const uint64_t (*)[3])loads;
		in.syms = elf_image__symtab(d->img);
		in.lines = lines;
		in.nr_lines = nr_lines;
		err = archive_writer__add(w, &in);
		n->files++;
		n->syms += in.syms->nr;
		n->lines += nr_lines;
	}
	if (!err)
		err = archive_writer__finish(w, sec);
	free(lines);
	archive_writer__free(w);
	return err;
}

/* Write @path's bytes with the section into a new file beside it, then rename it over. */
static int rewrite(const char *path, const struct buf *sec, char *msg, size_t msglen)
{
	char tmp[4200];
	struct stat st;
	void *map = NULL;
	int fd, out = -1, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(-err));
		goto out;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		map = NULL;
		err = -errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(-err));
		goto out;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.archive.XXXXXX", path) >= (int)sizeof(tmp)) {
		err = -ENAMETOOLONG;
		snprintf(msg, msglen, "%s: %s", path, strerror(-err));
		goto out;
	}
	out = mkstemp(tmp);
	if (out < 0) {
		err = -errno;
		snprintf(msg, msglen, "cannot create a file beside %s: %s", path, strerror(-err));
		goto out;
	}
	err = perf_amend__write(map, (size_t)st.st_size, JREC_FEAT_ARCHIVE, sec->data, sec->len,
				out);
	if (!err && (fchmod(out, st.st_mode & 07777) || fsync(out)))
		err = -errno;
	if (!err && close(out))
		err = -errno;
	out = -1;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		snprintf(msg, msglen, "%s: %s", path,
			 err == -EOPNOTSUPP ? "recorded on a machine of the other byte order"
			 : err == -EBADMSG  ? "not a complete recording"
					    : strerror(-err));
		unlink(tmp);
	}
out:
	if (out >= 0)
		close(out);
	if (map)
		munmap(map, (size_t)st.st_size);
	if (fd >= 0)
		close(fd);
	return err;
}

int archive__file(const char *path, bool quiet)
{
	struct archiver a;
	struct archive_counts n = {0};
	struct buf sec = BUF_INIT;
	char msg[4400] = "";
	size_t i;
	int err;

	memset(&a, 0, sizeof(a));
	err = session__open(&a.s, path, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "jrec archive: %s\n", msg[0] ? msg : strerror(-err));
		return 1;
	}
	err = session__load(&a.s);
	if (!err)
		err = perf_reader__for_each_event(a.s.r, on_sample, &a);
	if (!err)
		err = build_section(&a, &sec, &n);
	if (err) {
		fprintf(stderr, "jrec archive: %s: %s\n", path, strerror(-err));
		goto out;
	}
	err = rewrite(path, &sec, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "jrec archive: %s\n", msg);
		goto out;
	}
	if (!quiet)
		fprintf(stderr,
			"jrec archive: %s: symbols of %zu files with samples (%zu symbols, %zu "
			"source lines, %zu bytes)\n",
			path, n.files, n.syms, n.lines, sec.len);
out:
	buf__release(&sec);
	for (i = 0; i < a.nr_files; i++)
		free(a.files[i].addrs);
	free(a.files);
	session__close(&a.s);
	return err ? 1 : 0;
}

int cmd_archive(int argc, char **argv)
{
	const char *input = "jrec.data";
	bool quiet = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh", archive_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(archive_usage, stdout);
			return 0;
		default:
			fputs(archive_usage, stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "jrec archive: unexpected argument '%s'\n", argv[optind]);
		return 1;
	}
	return archive__file(input, quiet);
}
