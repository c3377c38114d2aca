// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: records for what existed before the events were enabled, as
 * perf synthesizes them: the kernel's text mapping, and for processes that
 * already run (-p, -a) COMM for each thread and MMAP2 for each executable
 * mapping from /proc. They carry the time taken before the events were
 * enabled, so they sort before every sample.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "procfs.h"
#include "record.h"

/* The sample_id_all trailer for attr.sample_type: TID, TIME, and CPU with -a. */
static void append_id(uint8_t **p, const struct record *r, uint32_t pid, uint32_t tid)
{
	uint32_t pt[2] = {pid, tid}, cpu[2] = {0, 0};
	uint64_t t = r->t0;

	memcpy(*p, pt, 8);
	memcpy(*p + 8, &t, 8);
	*p += 16;
	if (r->attr.sample_type & PERF_SAMPLE_CPU) {
		memcpy(*p, cpu, 8);
		*p += 8;
	}
}

static int emit(struct record *r, void *rec, uint8_t *end)
{
	struct perf_event_header *h = rec;
	int err;

	h->size = (uint16_t)(end - (uint8_t *)rec);
	err = perf_writer__write(r->w, h, h->size);
	if (!err)
		err = watch__record(r, h);
	return err;
}

int synth__kernel(struct record *r)
{
	union {
		struct perf_event_header h;
		uint8_t b[256];
	} u;
	uint8_t *p;
	uint64_t v;
	uint32_t pt[2] = {(uint32_t)-1, 0};
	static const char name[] = "[kernel.kallsyms]_text";

	if (!r->kernel_text)
		return 0;
	memset(&u, 0, sizeof(u));
	u.h.type = PERF_RECORD_MMAP;
	u.h.misc = PERF_RECORD_MISC_KERNEL;
	p = u.b + sizeof(u.h);
	memcpy(p, pt, 8);
	p += 8;
	v = r->kernel_text;
	memcpy(p, &v, 8); /* start */
	v = ~0ULL - r->kernel_text;
	memcpy(p + 8, &v, 8); /* len */
	v = r->kernel_text;
	memcpy(p + 16, &v, 8); /* pgoff: the reference symbol's address */
	p += 24;
	memcpy(p, name, sizeof(name));
	p += (sizeof(name) + 7) & ~(size_t)7;
	append_id(&p, r, (uint32_t)-1, 0);
	return emit(r, &u, p);
}

struct synth_ctx {
	struct record *r;
	uint32_t pid;
};

static int synth_map(const struct procfs_map *m, void *arg)
{
	struct synth_ctx *c = arg;
	union {
		struct perf_event_header h;
		uint8_t b[sizeof(struct perf_event_header) + 80 + PROCFS_PATH_MAX + 40];
	} u;
	const char *name = m->path[0] ? m->path : "//anon";
	uint32_t u32[2];
	uint64_t u64[3];
	size_t nlen;
	uint8_t *p;

	if (!(m->prot & PROT_EXEC))
		return 0;
	nlen = strlen(name) + 1;
	memset(&u, 0, sizeof(u));
	u.h.type = PERF_RECORD_MMAP2;
	u.h.misc = PERF_RECORD_MISC_USER;
	p = u.b + sizeof(u.h);
	u32[0] = c->pid;
	u32[1] = c->pid;
	memcpy(p, u32, 8);
	u64[0] = m->start;
	u64[1] = m->end - m->start;
	u64[2] = m->pgoff;
	memcpy(p + 8, u64, 24);
	u32[0] = m->dev_major;
	u32[1] = m->dev_minor;
	memcpy(p + 32, u32, 8);
	memcpy(p + 40, &m->ino, 8);
	/* ino_generation unknown: 0 */
	u32[0] = m->prot;
	u32[1] = m->flags;
	memcpy(p + 56, u32, 8);
	p += 64;
	memcpy(p, name, nlen);
	p += (nlen + 7) & ~(size_t)7;
	append_id(&p, c->r, c->pid, c->pid);
	return emit(c->r, &u, p);
}

static int synth_comm(struct record *r, uint32_t pid, uint32_t tid)
{
	union {
		struct perf_event_header h;
		uint8_t b[128];
	} u;
	struct buf b = BUF_INIT;
	char path[64], comm[16];
	uint32_t pt[2] = {pid, tid};
	uint8_t *p;
	int err;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/status", pid, tid);
	err = procfs_read_file(path, &b);
	if (!err)
		err = procfs_parse_comm((const char *)b.data, b.len, comm);
	buf__release(&b);
	if (err)
		return err;
	memset(&u, 0, sizeof(u));
	u.h.type = PERF_RECORD_COMM;
	p = u.b + sizeof(u.h);
	memcpy(p, pt, 8);
	memcpy(p + 8, comm, 16);
	p += 24;
	append_id(&p, r, pid, tid);
	return emit(r, &u, p);
}

int synth__process(struct record *r, pid_t pid)
{
	struct synth_ctx c = {r, (uint32_t)pid};
	struct dirent *de;
	char path[64];
	DIR *d;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid > 0)
			synth_comm(r, (uint32_t)pid, (uint32_t)tid); /* threads come and go */
	}
	closedir(d);
	err = procfs_read_maps(pid, synth_map, &c);
	if (err == -ENOENT || err == -ESRCH || err == -EACCES)
		err = 0; /* exited, a kernel thread, or not ours to read */
	return err;
}

int synth__all(struct record *r)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid <= 0)
			continue;
		err = synth__process(r, (pid_t)pid);
		if (err == -ESRCH || err == -ENOENT)
			err = 0;
		if (err)
			break;
	}
	closedir(d);
	return err;
}
