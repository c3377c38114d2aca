// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the feature sections written at the end of the recording.
 * Standard ones as perf writes them (BUILD_ID, HOSTNAME, OSRELEASE, VERSION,
 * ARCH, NRCPUS, CMDLINE, CLOCKID, CLOCK_DATA) and jrec's private ones
 * (perf-file.h, Documentation/jrec-data.rst).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "elf-image.h"
#include "jrec-sections.h"
#include "kernel-syms.h"
#include "perf-file.h"
#include "procfs.h"
#include "record.h"
#include "tracefs.h"

/*
 * zstd levels for jrec's own sections: the strongest for small ones, zstd's
 * default for the rest. Level 19 takes about a millisecond a KiB (measured:
 * 16 KiB of the module's records 21 ms, 1 MiB of them 780 ms against 10 ms at
 * level 3, for a third less), which a recording that ends would make its
 * user wait for, so it stops at 16 KiB.
 */
#define SECTION_ZSTD_SMALL (16u << 10)
#define SECTION_ZSTD_LEVEL_SMALL 19
#define SECTION_ZSTD_LEVEL 3

static int add(struct record *r, unsigned int id, struct buf *b, int err)
{
	if (!err && id >= JREC_FEAT_INFO)
		err = jrec_section__compress(b, b->len < SECTION_ZSTD_SMALL ? SECTION_ZSTD_LEVEL_SMALL
									    : SECTION_ZSTD_LEVEL);
	if (!err)
		err = perf_writer__add_feature(r->w, id, b);
	buf__release(b);
	return err;
}

static int add_string(struct record *r, unsigned int id, const char *s)
{
	struct buf b = BUF_INIT;

	return add(r, id, &b, buf__append_perf_string(&b, s));
}

static int build_id_entry(struct buf *b, uint16_t misc, int32_t pid, const uint8_t *id,
			  uint8_t id_len, const char *path)
{
	struct perf_file_build_id e;
	size_t n = strlen(path) + 1, padded = (n + 63) & ~(size_t)63;
	int err;

	memset(&e, 0, sizeof(e));
	e.header.type = 0;
	e.header.misc = misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
	e.header.size = (uint16_t)(sizeof(e) + padded);
	e.pid = pid;
	memcpy(e.build_id, id, id_len);
	e.build_id[20] = id_len;
	err = buf__append(b, &e, sizeof(e));
	if (!err)
		err = buf__append(b, path, n);
	if (!err)
		err = buf__append_zeros(b, padded - n);
	return err;
}

/*
 * The vdso's entry, as perf record writes one: without it perf inject finds
 * no build-id of a hit file to write back (it counts the vdso as hit
 * always), reports "failed to write feature BUILD_ID" and leaves the
 * feature out of its output. The recorder's vdso is the recorded
 * process's: the same kernel's (a 32-bit process's vdso is another, which
 * perf's own entry does not name either). None when it cannot be read.
 */
static int vdso_build_id(struct buf *b)
{
	struct elf_image *img;
	uint8_t id[20];
	size_t n, len;
	void *mem;

	if (procfs_read_own_vdso(&mem, &len) || elf_image__open_mem(mem, len, &img))
		return 0;
	n = elf_image__build_id(img, id, sizeof(id));
	elf_image__close(img);
	return n ? build_id_entry(b, PERF_RECORD_MISC_USER, -1, id, (uint8_t)n, "[vdso]") : 0;
}

static int build_ids(struct record *r, const uint8_t *kid, uint8_t kid_len,
		     const struct bidcache_result *res, size_t n)
{
	struct buf b = BUF_INIT;
	size_t i, k;
	int err = 0;

	if (kid_len)
		err = build_id_entry(&b, PERF_RECORD_MISC_KERNEL, -1, kid, kid_len,
				     "[kernel.kallsyms]");
	for (i = 0; i < n && !err; i++) {
		const struct bidcache_result *x = &res[i];
		int dup = 0;

		if (x->cookie.kind != JMMAP_COOKIE_ELF_BUILD_ID || x->status == JREC_FILE_MISMATCH)
			continue;
		for (k = 0; k < i && !dup; k++)
			dup = jrec_cookie_equal(&res[k].cookie, &x->cookie) &&
			      !strcmp(res[k].path, x->path);
		if (!dup)
			err = build_id_entry(&b, PERF_RECORD_MISC_USER, -1, x->cookie.bytes,
					     x->cookie.len, x->path);
	}
	if (!err)
		err = vdso_build_id(&b);
	return add(r, PERF_FEAT_BUILD_ID, &b, err);
}

static int cmdline(struct record *r)
{
	struct buf b = BUF_INIT;
	uint32_t nr = (uint32_t)r->opts.full_argc + 1;
	int i, err;

	err = buf__append(&b, &nr, sizeof(nr));
	if (!err)
		err = buf__append_perf_string(&b, "jrec");
	for (i = 0; i < r->opts.full_argc && !err; i++)
		err = buf__append_perf_string(&b, r->opts.full_argv[i]);
	return add(r, PERF_FEAT_CMDLINE, &b, err);
}

static int nrcpus(struct record *r)
{
	struct buf b = BUF_INIT;
	uint32_t v[2];

	v[0] = (uint32_t)sysconf(_SC_NPROCESSORS_CONF); /* available */
	v[1] = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN); /* online */
	return add(r, PERF_FEAT_NRCPUS, &b, buf__append(&b, v, sizeof(v)));
}

static int clock_features(struct record *r)
{
	struct buf b = BUF_INIT;
	struct timespec res, mono, real;
	struct {
		uint32_t version, clockid;
		uint64_t tod_ns, clockid_ns;
	} cd;
	uint64_t res_ns = 1;
	int err;

	if (!clock_getres(CLOCK_MONOTONIC, &res))
		res_ns = (uint64_t)res.tv_sec * 1000000000ull + (uint64_t)res.tv_nsec;
	err = add(r, PERF_FEAT_CLOCKID, &b, buf__append(&b, &res_ns, sizeof(res_ns)));
	if (err)
		return err;
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	cd.version = 1;
	cd.clockid = CLOCK_MONOTONIC;
	cd.tod_ns = (uint64_t)real.tv_sec * 1000000000ull + (uint64_t)real.tv_nsec;
	cd.clockid_ns = (uint64_t)mono.tv_sec * 1000000000ull + (uint64_t)mono.tv_nsec;
	return add(r, PERF_FEAT_CLOCK_DATA, &b, buf__append(&b, &cd, sizeof(cd)));
}

static int info(struct record *r, const struct utsname *u, const uint8_t *kid, uint8_t kid_len)
{
	struct buf b = BUF_INIT, cmd = BUF_INIT;
	char host[256] = "", hex[JREC_COOKIE_HEX_LEN];
	int i, err;

	gethostname(host, sizeof(host) - 1);
	err = jrec_section__begin(&b, JREC_FEAT_INFO);
	if (!err && r->jm) {
		err = jrec_info__add(&b, "mode", "jmmap");
		if (!err && r->mmap2_from_jmmap)
			err = jrec_info__add(&b, "mmap_records", "jmmap");
		if (!err)
			err = jrec_info__add(&b, "jmmap_abi", "%u", r->jm->version.abi_version);
		if (!err)
			err = jrec_info__add(&b, "jmmap_version", "%s",
					     r->jm->version.module_version);
	} else if (!err) {
		err = jrec_info__add(&b, "mode", "fallback");
		if (!err)
			err = jrec_info__add(&b, "fallback_reason", "%s", r->jmmap_reason);
	}
	if (!err)
		err = jrec_info__add(&b, "clockid", "%d", CLOCK_MONOTONIC);
	if (!err && r->kernel_text)
		err =
		    jrec_info__add(&b, "kernel_text", "0x%llx", (unsigned long long)r->kernel_text);
	if (!err)
		err = jrec_info__add(&b, "kernel_release", "%s", u->release);
	if (!err && kid_len) {
		struct jrec_cookie c = {JMMAP_COOKIE_ELF_BUILD_ID, kid_len, {0}};

		memcpy(c.bytes, kid, kid_len);
		jrec_cookie_hex(&c, hex);
		err = jrec_info__add(&b, "kernel_build_id", "%s", hex);
	}
	if (!err)
		err = jrec_info__add(&b, "hostname", "%s", host);
	if (!err)
		err = jrec_info__add(&b, "nr_cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	for (i = 0; i < (int)r->nr_ev && !err; i++)
		if (!r->ev[i].is_cs && !r->ev[i].is_bpf)
			err = buf__append(&cmd, r->ev[i].name, strlen(r->ev[i].name) + 1);
	for (i = 0; i + 1 < (int)cmd.len; i++)
		if (!cmd.data[i])
			cmd.data[i] = ','; /* the events' names, as -e would list them */
	if (!err)
		err = jrec_info__add(&b, "event", "%s", cmd.len ? (const char *)cmd.data : "");
	cmd.len = 0;
	if (!err && r->bid && r->buildid_dir[0])
		err = jrec_info__add(&b, "buildid_dir", "%s", r->buildid_dir);
	if (!err)
		err = jrec_info__add(&b, "perfmap_poll_ns", "%llu",
				     (unsigned long long)RECORDER_TICK_NS);
	if (!err)
		err = jrec_info__add(&b, "samples", "%llu",
				     (unsigned long long)(r->nr_samples - r->file_first_sample));
	if (!err)
		err = jrec_info__add(&b, "lost_samples", "%llu", (unsigned long long)r->nr_lost);
	if (!err)
		err = jrec_info__add(&b, "module_records", "%llu",
				     (unsigned long long)(r->jm ? r->jm->nr_records : 0));
	if (!err)
		err = jrec_info__add(&b, "lost_module_records", "%llu",
				     (unsigned long long)(r->jm ? r->jm->lost : 0));
	if (!err && r->stop_signal)
		err = jrec_info__add(&b, "stopped_by_signal", "%d", r->stop_signal);
	if (!err)
		err = buf__append(&cmd, "jrec", 4);
	for (i = 0; i < r->opts.full_argc && !err; i++) {
		err = buf__append(&cmd, " ", 1);
		if (!err)
			err = buf__append(&cmd, r->opts.full_argv[i], strlen(r->opts.full_argv[i]));
	}
	if (!err)
		err = buf__append(&cmd, "", 1);
	if (!err)
		err = jrec_info__add(&b, "cmdline", "%s", (const char *)cmd.data);
	buf__release(&cmd);
	return add(r, JREC_FEAT_INFO, &b, err);
}

/*
 * Only the kernel symbols the samples need (kernel_syms__select()): the
 * whole table is megabytes, and a report finds it again by the kernel's
 * build-id in a vmlinux, System.map or perf's cache when it needs more.
 */
static int kallsyms(struct record *r)
{
	struct buf all = BUF_INIT, b = BUF_INIT;
	const uint64_t *addrs;
	size_t nr;
	int err;

	if (!r->kernel_text)
		return 0; /* addresses hidden: a copy would be useless */
	nr = ksamples__sorted(r, &addrs);
	err = procfs_read_file("/proc/kallsyms", &all);
	if (!err)
		err = jrec_section__begin(&b, JREC_FEAT_KALLSYMS);
	if (!err)
		err = kernel_syms__select((const char *)all.data, all.len, addrs, nr, &b);
	buf__release(&all);
	if (err) {
		buf__release(&b);
		return 0; /* optional */
	}
	return add(r, JREC_FEAT_KALLSYMS, &b, 0);
}

static int side_files(struct record *r, const struct bidcache_result *res, size_t nr_res)
{
	struct buf b = BUF_INIT;
	size_t i, n;
	int err;

	if (r->jm) {
		err = jrec_section__begin(&b, JREC_FEAT_JMMAP);
		if (!err)
			err = jmmap_client__append_records(r->jm, &b);
		err = add(r, JREC_FEAT_JMMAP, &b, err);
		if (err)
			return err;
	}
	if (r->nr_jitdumps) {
		err = jrec_section__begin(&b, JREC_FEAT_JITDUMP);
		for (i = 0; i < r->nr_jitdumps && !err; i++)
			err = jitdump_copy__emit(r->jitdumps[i], &b);
		err = add(r, JREC_FEAT_JITDUMP, &b, err);
		if (err)
			return err;
	}
	if (r->perfmap_lines.len) {
		err = jrec_section__raw(&b, JREC_FEAT_PERFMAP, r->perfmap_lines.data,
					r->perfmap_lines.len);
		err = add(r, JREC_FEAT_PERFMAP, &b, err);
		if (err)
			return err;
		err = perfmap_code__emit(r, &b, &n);
		if (!err && n)
			err = add(r, JREC_FEAT_CODE, &b, err);
		else
			buf__release(&b);
		if (err)
			return err;
	}
	if (r->bid) {
		err = jrec_section__begin(&b, JREC_FEAT_FILES);
		for (i = 0; i < nr_res && !err; i++) {
			struct jrec_file_rec f = {res[i].pid, res[i].status, res[i].cookie,
						  res[i].path};

			err = jrec_files__emit(&b, &f);
		}
		err = add(r, JREC_FEAT_FILES, &b, err);
		if (err)
			return err;
		err = jrec_section__begin(&b, JREC_FEAT_SYMTAB);
		for (i = 0; i < nr_res && !err; i++)
			if (res[i].syms.len)
				err = buf__append(&b, res[i].syms.data, res[i].syms.len);
		err = add(r, JREC_FEAT_SYMTAB, &b, err);
		if (err)
			return err;
	}
	return 0;
}

/* perf's TRACING_DATA, the formats of the tracepoints of -e. */
static int tracing_data(struct record *r)
{
	struct buf b = BUF_INIT;

	if (!r->opts.tracefs[0])
		return 0;
	return add(r, PERF_FEAT_TRACING_DATA, &b,
		   tracefs__tracing_data(r->opts.tracefs, &r->opts.events, &b));
}

/*
 * What is known at the start: the tracepoints' formats, the machine, the
 * command line, the clock. In a file they are written at the end with the
 * rest; in a pipe before the records, as perf writes them there.
 */
int features__write_start(struct record *r)
{
	struct utsname u;
	char version[64], host[256] = "";
	int err;

	uname(&u);
	snprintf(version, sizeof(version), "jrec %s", JREC_VERSION);
	gethostname(host, sizeof(host) - 1);
	err = tracing_data(r);
	if (!err)
		err = add_string(r, PERF_FEAT_HOSTNAME, host);
	if (!err)
		err = add_string(r, PERF_FEAT_OSRELEASE, u.release);
	if (!err)
		err = add_string(r, PERF_FEAT_VERSION, version);
	if (!err)
		err = add_string(r, PERF_FEAT_ARCH, u.machine);
	if (!err)
		err = nrcpus(r);
	if (!err)
		err = cmdline(r);
	if (!err)
		err = clock_features(r);
	return err;
}

int features__write(struct record *r, int so_far)
{
	const struct bidcache_result *res = NULL;
	struct bidcache_result *copy = NULL;
	size_t nr_res = 0;
	uint8_t kid[20];
	uint8_t kid_len = 0;
	struct utsname u;
	int err = 0;

	if (r->bid && so_far) {
		err = bidcache__results_so_far(r->bid, &copy, &nr_res);
		if (err)
			return err;
		res = copy;
	} else if (r->bid) {
		nr_res = bidcache__results(r->bid, &res);
	}
	if (procfs_read_kernel_build_id(kid, &kid_len))
		kid_len = 0;
	uname(&u);
	if (!perf_writer__is_pipe(r->w))
		err = features__write_start(r);
	if (!err)
		err = build_ids(r, kid, kid_len, res, nr_res);
	if (!err)
		err = info(r, &u, kid, kid_len);
	if (!err)
		err = kallsyms(r);
	if (!err)
		err = side_files(r, res, nr_res);
	free(copy);
	return err;
}
