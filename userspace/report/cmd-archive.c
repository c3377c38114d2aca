// SPDX-License-Identifier: GPL-2.0
/*
 * jrec archive: make a recording report the same on a machine without its
 * binaries. The recording is loaded as jrec report loads it; every sample
 * and call-chain address is resolved, and for each file that has samples the
 * symbols the report found at those addresses (from whichever source it
 * used: separate debuginfo, the build-id cache, the file itself) and the
 * source lines of those functions, with the inline scopes at those addresses,
 * go into one JREC_FEAT_ARCHIVE section
 * (archive-syms.c); so do the kernel's.
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
#include "annotate.h"
#include "array.h"
#include "commands.h"
#include "elf-image.h"
#include "jrec-sections.h"
#include "kernel-syms.h"
#include "machine-files.h"
#include "map-names.h"
#include "perf-amend.h"
#include "samples.h"
#include "session.h"

static const char archive_usage[] =
	"usage: jrec archive [OPTIONS]\n"
	"\n"
	"Store in the recording the symbols, source lines and inlined functions of\n"
	"every file that has samples, so that jrec report names them on a machine\n"
	"without these files.\n"
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

/* A set of u64 (addresses, symbol indexes, pids), sorted and distinct after compact(). */
struct u64_set {
	uint64_t *addrs;
	size_t nr, cap;
};

/* A file that has samples, and the addresses sampled in it (file layout). */
struct hit_file {
	struct dso *dso;
	struct u64_set hits;
};

struct archiver {
	struct session s;
	struct hit_file *files;
	size_t nr_files, cap_files;
	struct u64_set kernel; /* the kernel symbols sampled: their indexes in s.ksyms.tab */
	/* JIT side files the report read from this machine, for the recording's sections */
	struct u64_set jd_pids, pm_pids; /* pids the recording has jitdumps, perf-map lines for */
	struct buf jitdumps, perfmaps;    /* entries to add */
	size_t nr_jitdumps, nr_perfmap_lines;
	size_t last; /* the file of the last hit */
	struct samples it;
	struct annotate an; /* the sampled functions, for their code (JREC_FEAT_ARCHIVE_CODE) */
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void compact(struct u64_set *f)
{
	size_t i, out = 0;

	if (!f->nr)
		return;
	qsort(f->addrs, f->nr, sizeof(*f->addrs), cmp_u64);
	for (i = 0; i < f->nr; i++)
		if (!out || f->addrs[out - 1] != f->addrs[i])
			f->addrs[out++] = f->addrs[i];
	f->nr = out;
}

static int add_addr(struct u64_set *f, uint64_t addr)
{
	if (f->nr && f->addrs[f->nr - 1] == addr)
		return 0;
	if (f->nr == f->cap) {
		compact(f);
		/* still more than half full of distinct addresses: grow */
		if (f->nr * 2 >= f->cap && array_grow(&f->addrs, &f->cap, f->nr + 1))
			return -ENOMEM;
	}
	f->addrs[f->nr++] = addr;
	return 0;
}

/* Address @vaddr (file layout) of @d, which has symbols, and it holds samples or a call's target. */
static int add_file_addr(struct archiver *a, struct dso *d, uint64_t vaddr)
{
	size_t i;

	if (a->last < a->nr_files && a->files[a->last].dso == d) {
		i = a->last;
	} else {
		for (i = 0; i < a->nr_files && a->files[i].dso != d; i++)
			;
		if (i == a->nr_files) {
			if (array_grow(&a->files, &a->cap_files, a->nr_files + 1))
				return -ENOMEM;
			memset(&a->files[i], 0, sizeof(a->files[i]));
			a->files[i].dso = d;
			a->nr_files++;
		}
		a->last = i;
	}
	return add_addr(&a->files[i].hits, vaddr);
}

static int add_kernel_addr(struct archiver *a, uint64_t addr)
{
	const struct sym *k = symtab__find(&a->s.ksyms.tab, addr);

	return k ? add_addr(&a->kernel, (uint64_t)(k - a->s.ksyms.tab.syms)) : 0;
}

static int add_hit(struct archiver *a, const struct resolved *res)
{
	if (res->level == RES_KERNEL)
		return res->sym ? add_kernel_addr(a, res->addr) : 0;
	if (!res->dso || !res->dso->img || res->jit)
		return 0;
	return add_file_addr(a, res->dso, res->vaddr);
}

/* A direct jump's or call's target in an archived function: its symbol is kept too. */
static int on_target(void *ctx, const struct resolved *in, uint64_t target)
{
	struct archiver *a = ctx;

	if (in->level == RES_KERNEL)
		return add_kernel_addr(a, target);
	return in->dso && in->dso->img ? add_file_addr(a, in->dso, target) : 0;
}

static bool has_pid(const struct u64_set *pids, uint32_t pid)
{
	size_t lo = 0, hi = pids->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pids->addrs[mid] == pid)
			return true;
		if (pids->addrs[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int on_recorded_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	return add_addr(ctx, j->pid);
}

static int on_recorded_line(const struct jrec_perfmap_rec *l, void *ctx)
{
	return add_addr(ctx, l->pid);
}

/* The pids the recording's own JITDUMP and PERFMAP sections cover, sorted. */
static int recorded_pids(struct archiver *a)
{
	bool swapped = perf_reader__swapped(a->s.r);
	const void *p;
	size_t len;
	int err = 0;

	if (!perf_reader__jrec_feature(a->s.r, JREC_FEAT_JITDUMP, &p, &len))
		err = jrec_jitdumps__walk(p, len, swapped, on_recorded_jitdump, &a->jd_pids);
	if (!err && !perf_reader__jrec_feature(a->s.r, JREC_FEAT_PERFMAP, &p, &len))
		err = jrec_perfmaps__walk(p, len, swapped, on_recorded_line, &a->pm_pids);
	compact(&a->jd_pids);
	compact(&a->pm_pids);
	return err == -EBADMSG ? 0 : err;
}

struct jitdump_file {
	struct archiver *a;
	const struct pr_event *ev;
};

static int add_jitdump(const void *bytes, size_t len, void *ctx)
{
	struct jitdump_file *f = ctx;
	struct jrec_jitdump_rec j = {f->ev->mmap.pid, session__time(f->ev), f->ev->mmap.filename,
				     bytes, len};

	f->a->nr_jitdumps++;
	return jrec_jitdumps__emit(&f->a->jitdumps, &j);
}

/*
 * A jitdump the report reads from this machine (the recording has no copy
 * for its process, as in perf's own recordings): into the recording.
 */
static int machine_jitdump(struct archiver *a, const struct pr_event *ev)
{
	struct jitdump_file f = {a, ev};
	int err;

	if (ev->mmap.pid == UINT32_MAX || !map_name__is_jitdump(ev->mmap.filename) ||
	    has_pid(&a->jd_pids, ev->mmap.pid))
		return 0;
	err = machine_file__read(ev->mmap.filename, add_jitdump, &f);
	if (err == -ENOMEM)
		return err;
	/* one copy per process, as the report reads one */
	err = add_addr(&a->jd_pids, ev->mmap.pid);
	compact(&a->jd_pids);
	return err;
}

struct perfmap_file {
	struct archiver *a;
	uint32_t pid;
};

static int add_perfmap(const void *bytes, size_t len, void *ctx)
{
	struct perfmap_file *f = ctx;
	const char *p = bytes, *end = p + len;
	int err = 0;

	while (!err && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct jrec_perfmap_rec l = {0, f->pid, p, (size_t)((nl ? nl : end) - p)};

		if (l.len) {
			err = jrec_perfmaps__emit(&f->a->perfmaps, &l);
			f->a->nr_perfmap_lines++;
		}
		p = nl ? nl + 1 : end;
	}
	return err;
}

/* The perf maps the report reads from this machine, untimed as it reads them. */
static int machine_perfmaps(struct archiver *a)
{
	const struct as_proc *p;
	size_t it = 0;
	int err = 0;

	while (!err && (p = pidmap__next(&a->s.as.procs, &it))) {
		struct jit_proc *jp = jit_symbols__proc(&a->s.jit, p->pid);
		struct perfmap_file f = {a, p->pid};
		char path[64];

		if ((jp && jp->has_timed_perfmap) || has_pid(&a->pm_pids, p->pid) ||
		    map_name__perfmap_path(path, sizeof(path), "", p->pid))
			continue;
		err = machine_file__read(path, add_perfmap, &f);
		if (err != -ENOMEM)
			err = 0;
	}
	return err;
}

/* A side-file section: what the recording had, then the entries added. */
static int side_section(struct archiver *a, unsigned int id, const struct buf *added,
			struct buf *out)
{
	const void *p;
	size_t len;
	int err = jrec_section__begin(out, id);

	if (!err && !perf_reader__jrec_feature(a->s.r, id, &p, &len))
		err = buf__append(out, p, len);
	if (!err)
		err = buf__append(out, added->data, added->len);
	return err;
}

/* Every address a report resolves for this sample: its own, and its frames. */
static int on_sample(struct samples *it, const struct sample *smp, void *ctx)
{
	struct archiver *a = ctx;
	const struct sample_frames *fr = NULL;
	size_t i;
	int err = add_hit(a, samples__self(it));

	if (!err)
		err = annotate__sample(it, smp, &a->an);
	if (!err)
		err = samples__frames(it, &fr);
	for (i = 0; !err && i < fr->nr; i++)
		err = add_hit(a, &fr->res[i]);
	return err;
}

static int on_record(const struct pr_event *ev, void *ctx)
{
	if (ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2)
		return machine_jitdump(ctx, ev);
	return 0;
}

/* The source lines of the sampled functions (or bytes, outside any function). */
static int file_lines(struct hit_file *f, struct elf_line **lines, size_t *nr, size_t *cap)
{
	const struct symtab *t = elf_image__symtab(f->dso->img);
	uint64_t lo = 0, hi = 0;
	size_t i;
	int err = 0;

	compact(&f->hits);
	for (i = 0; !err && i < f->hits.nr; i++) {
		uint64_t v = f->hits.addrs[i];
		const struct sym *s = symtab__find(t, v);
		uint64_t l = s ? s->start : v, h = s ? s->end : v + 1;

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

/* Inline scopes to store, and their names. */
struct inline_set {
	struct elf_inline *inl;
	size_t nr, cap;
	const char **names;
	size_t nr_names, cap_names;
};

/*
 * The inline scopes at the sampled addresses (sorted by file_lines()) and
 * one byte before each, where the report looks a return address up.
 */
static int file_inlines(struct hit_file *f, struct inline_set *s)
{
	const char *names[ELF_INLINE_MAX];
	uint64_t next = 0; /* the lowest address not asked yet */
	size_t i, n;

	s->nr = s->nr_names = 0;
	for (i = 0; i < f->hits.nr; i++) {
		uint64_t v = f->hits.addrs[i], q = v ? v - 1 : v;

		for (q = q < next ? next : q; q <= v; q++) {
			n = elf_image__inlines(f->dso->img, q, names, ELF_INLINE_MAX);
			if (!n)
				continue;
			if (array_grow(&s->inl, &s->cap, s->nr + 1) ||
			    array_grow(&s->names, &s->cap_names, s->nr_names + n))
				return -ENOMEM;
			s->inl[s->nr++] = (struct elf_inline){q, (uint32_t)s->nr_names, (uint32_t)n};
			memcpy(s->names + s->nr_names, names, n * sizeof(*names));
			s->nr_names += n;
		}
		next = v + 1;
	}
	return 0;
}

struct archive_counts {
	size_t files, syms, lines, inlines;
};

/* The sampled kernel symbols, one entry per module ("[kernel.kallsyms]" the kernel's). */
static int kernel_entries(struct archiver *a, struct archive_writer *w, struct archive_counts *n)
{
	const struct kernel_syms *k = &a->s.ksyms;
	size_t mod, i;
	int err = 0;

	compact(&a->kernel);
	for (mod = 0; !err && mod < k->nr_modules; mod++) {
		struct archive_file_in in;
		struct symtab t = {0};

		for (i = 0; !err && i < a->kernel.nr; i++) {
			const struct sym *y = &k->tab.syms[a->kernel.addrs[i]];

			if (y->module == mod)
				err = symtab__add(&t, y->start, y->end - y->start, y->name, y->bind);
		}
		if (!err && t.nr) {
			symtab__finish(&t, 1 << 20);
			memset(&in, 0, sizeof(in));
			in.path = k->modules[mod];
			in.kernel = true;
			in.syms = &t;
			err = archive_writer__add(w, &in);
			n->files++;
			n->syms += t.nr;
		}
		symtab__release(&t);
	}
	return err;
}

/* The symbols of @full that the sampled addresses (sorted) fall in, finished. */
static int sampled_syms(const struct symtab *full, const struct u64_set *hits, struct symtab *out)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < hits->nr; i++) {
		const struct sym *y = symtab__find(full, hits->addrs[i]);

		if (y && (!out->nr || out->syms[out->nr - 1].start != y->start)) {
			err = symtab__add(out, y->start, y->end - y->start, y->name, y->bind);
			if (!err)
				out->syms[out->nr - 1].is_plt = y->is_plt;
		}
	}
	symtab__finish(out, 1 << 20);
	return err;
}

static int build_section(struct archiver *a, struct buf *sec, struct archive_counts *n)
{
	struct archive_writer *w;
	struct elf_line *lines = NULL;
	struct inline_set inl = {0};
	size_t i, nr_lines, cap_lines = 0;
	int err = archive_writer__new(&w);

	for (i = 0; !err && i < a->nr_files; i++) {
		struct hit_file *f = &a->files[i];
		struct dso *d = f->dso;
		uint64_t loads[JREC_SYMTAB_MAX_LOADS][3];
		struct archive_file_in in;
		struct symtab t = {0};

		nr_lines = 0;
		err = file_lines(f, &lines, &nr_lines, &cap_lines);
		if (!err)
			err = file_inlines(f, &inl);
		if (!err)
			err = sampled_syms(elf_image__symtab(d->img), &f->hits, &t);
		memset(&in, 0, sizeof(in));
		in.cookie = d->cookie;
		in.path = d->path;
		in.full_symtab = elf_image__has_full_symtab(d->img);
		in.had_symbols = elf_image__has_symbols(d->img);
		in.nr_loads = elf_image__loads(d->img, loads, JREC_SYMTAB_MAX_LOADS);
		in.loads = (const uint64_t (*)[3])loads;
		in.syms = &t;
		in.lines = lines;
		in.nr_lines = nr_lines;
		in.inlines = inl.inl;
		in.nr_inlines = inl.nr;
		in.inline_names = inl.names;
		if (!err)
			err = archive_writer__add(w, &in);
		n->files++;
		n->syms += t.nr;
		n->lines += nr_lines;
		n->inlines += inl.nr;
		symtab__release(&t);
	}
	if (!err)
		err = kernel_entries(a, w, n);
	if (!err)
		err = archive_writer__finish(w, sec);
	free(lines);
	free(inl.inl);
	free(inl.names);
	archive_writer__free(w);
	return err;
}

/* Write @path's bytes with the sections into a new file beside it, then rename it over. */
static int rewrite(const char *path, const struct perf_amend_sec *secs, size_t nr, char *msg,
		   size_t msglen)
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
	err = perf_amend__write(map, (size_t)st.st_size, secs, nr, out);
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
			 : err == -ESPIPE   ? "a pipe-mode recording has no header to add to "
					      "(write a file first: perf inject -i FILE -o NEW)"
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
	struct buf sec = BUF_INIT, jd = BUF_INIT, pm = BUF_INIT, code = BUF_INIT;
	struct perf_amend_sec secs[4];
	char msg[4400] = "";
	size_t i, nr = 0, nr_code = 0;
	int err;

	memset(&a, 0, sizeof(a));
	err = session__open(&a.s, path, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "jrec archive: %s\n", msg[0] ? msg : strerror(-err));
		return 1;
	}
	/* the rewrite keeps the data section the header announces: nothing may lie past it */
	if (session__cut_short(&a.s)) {
		fprintf(stderr, "jrec archive: %s was cut short (%s); only a complete recording can be "
				"archived\n",
			path, session__cut_short(&a.s));
		err = -EINVAL;
		goto out;
	}
	a.s.want_code = true; /* an archive made again keeps the code it had */
	annotate__init(&a.an, &a.s, NULL);
	err = session__load(&a.s);
	if (!err)
		err = recorded_pids(&a);
	if (!err)
		err = samples__init(&a.it, &a.s);
	if (!err)
		err = samples__for_each(&a.it, on_sample, on_record, &a);
	if (!err)
		err = machine_perfmaps(&a);
	if (!err)
		err = annotate__finish(&a.an);
	if (!err)
		err = annotate__archive_section(&a.an, &code, &nr_code, on_target, &a);
	if (!err)
		err = build_section(&a, &sec, &n);
	if (!err && a.jitdumps.len)
		err = side_section(&a, JREC_FEAT_JITDUMP, &a.jitdumps, &jd);
	if (!err && a.perfmaps.len)
		err = side_section(&a, JREC_FEAT_PERFMAP, &a.perfmaps, &pm);
	if (err) {
		fprintf(stderr, "jrec archive: %s: %s\n", path, strerror(-err));
		goto out;
	}
	secs[nr++] = (struct perf_amend_sec){JREC_FEAT_ARCHIVE, sec.data, sec.len};
	if (jd.len)
		secs[nr++] = (struct perf_amend_sec){JREC_FEAT_JITDUMP, jd.data, jd.len};
	if (pm.len)
		secs[nr++] = (struct perf_amend_sec){JREC_FEAT_PERFMAP, pm.data, pm.len};
	if (code.len)
		secs[nr++] = (struct perf_amend_sec){JREC_FEAT_ARCHIVE_CODE, code.data, code.len};
	err = rewrite(path, secs, nr, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "jrec archive: %s\n", msg);
		goto out;
	}
	if (!quiet)
		fprintf(stderr,
			"jrec archive: %s: symbols of %zu files with samples (%zu symbols, %zu "
			"source lines, %zu addresses in inlined code, %zu bytes); the code of %zu "
			"sampled functions (%zu bytes); %zu jitdumps and %zu perf-map lines of this "
			"machine added\n",
			path, n.files, n.syms, n.lines, n.inlines, sec.len, nr_code, code.len,
			a.nr_jitdumps,
			a.nr_perfmap_lines);
out:
	buf__release(&sec);
	buf__release(&jd);
	buf__release(&pm);
	buf__release(&code);
	annotate__release(&a.an);
	buf__release(&a.jitdumps);
	buf__release(&a.perfmaps);
	for (i = 0; i < a.nr_files; i++)
		free(a.files[i].hits.addrs);
	free(a.files);
	free(a.kernel.addrs);
	free(a.jd_pids.addrs);
	free(a.pm_pids.addrs);
	samples__release(&a.it);
	session__close(&a.s);
	return err ? 1 : 0;
}

int cmd_archive(int argc, char **argv)
{
	const char *input = "jrec.data";
	bool quiet = false;
	int c;

	optind = 1;
	opterr = 0;
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
			return cmd__bad_option("archive", argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "jrec archive: unexpected argument '%s'\n", argv[optind]);
		return JREC_EXIT_USAGE;
	}
	return archive__file(input, quiet);
}
