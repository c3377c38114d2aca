// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the code of perf-map JIT symbols, which no file holds. When
 * a perf-map line is seen (perfmap-watch.c hands the recorder each new line
 * with the time it appeared), the bytes it names are read out of the
 * process with process_vm_readv() and kept with the time they were read; a
 * later line for the same range reads it again. At the end only the copies
 * that samples hit are written (JREC_FEAT_CODE, code-bytes.c), so the
 * recording grows by the code that matters to jrec annotate.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "array.h"
#include "code-bytes.h"
#include "elf-code.h"
#include "jrec-sections.h"
#include "perfmap.h"
#include "record.h"

/* All the copies together stay under this; lines past it are not read. */
#define PERFMAP_CODE_BUDGET (64ull << 20)

struct pm_copy {
	uint64_t addr, time;
	uint32_t pid, len;
	uint16_t machine;
	uint8_t *bytes;
};

struct pm_ip {
	uint64_t pid, ip;
};

struct pm_machine {
	uint32_t pid;
	uint16_t machine;
};

struct perfmap_code {
	struct pm_copy *copies;
	size_t nr, cap;
	uint64_t bytes;
	struct pm_ip *ips; /* user addresses of samples, compacted now and then */
	size_t nr_ips, cap_ips, ips_compact;
	struct pm_machine *machines;
	size_t nr_machines, cap_machines;
	uint64_t unread, over_budget;
};

static struct perfmap_code *state(struct record *r)
{
	if (!r->pmcode)
		r->pmcode = calloc(1, sizeof(*r->pmcode));
	return r->pmcode;
}

/* The ELF machine of the executable at @path, 0 when it cannot be read. */
static uint16_t exe_machine(const char *path)
{
	struct elf_code ec;
	uint16_t m = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (!elf_code__open_fd(fd, &ec))
		m = ec.machine;
	elf_code__release(&ec);
	close(fd);
	return m;
}

/* The machine @pid's code is for: its executable's, else the recorder's own. */
static uint16_t pid_machine(struct perfmap_code *pc, uint32_t pid)
{
	char path[64];
	uint16_t m;
	size_t i;

	for (i = 0; i < pc->nr_machines; i++)
		if (pc->machines[i].pid == pid)
			return pc->machines[i].machine;
	snprintf(path, sizeof(path), "/proc/%u/exe", pid);
	m = exe_machine(path);
	if (!m)
		m = exe_machine("/proc/self/exe");
	if (!array_grow(&pc->machines, &pc->cap_machines, pc->nr_machines + 1))
		pc->machines[pc->nr_machines++] = (struct pm_machine){ pid, m };
	return m;
}

struct line_ctx {
	struct record *r;
	struct perfmap_code *pc;
};

static int on_line(const struct jrec_perfmap_rec *l, void *arg)
{
	struct line_ctx *c = arg;
	struct perfmap_code *pc = c->pc;
	struct pm_copy *cp;
	struct iovec local, remote;
	uint64_t start, size;
	const char *name;
	size_t name_len;
	ssize_t got;
	uint8_t *bytes;

	if (perfmap__parse_line(l->line, l->len, &start, &size, &name, &name_len) || !size)
		return 0;
	if (size > JREC_CODE_MAX)
		size = JREC_CODE_MAX;
	if (pc->bytes + size > PERFMAP_CODE_BUDGET) {
		pc->over_budget++;
		return 0;
	}
	bytes = malloc(size);
	if (!bytes || array_grow(&pc->copies, &pc->cap, pc->nr + 1)) {
		free(bytes);
		return -ENOMEM;
	}
	local = (struct iovec){ bytes, size };
	remote = (struct iovec){ (void *)(uintptr_t)start, size };
	got = process_vm_readv((pid_t)l->pid, &local, 1, &remote, 1, 0);
	if (got <= 0) {
		free(bytes);
		pc->unread++;
		return 0;
	}
	cp = &pc->copies[pc->nr++];
	cp->addr = start;
	cp->time = recorder__now();
	cp->pid = l->pid;
	cp->len = (uint32_t)got;
	cp->bytes = bytes;
	cp->machine = pid_machine(pc, l->pid);
	pc->bytes += (uint64_t)got;
	return 0;
}

int perfmap_code__lines(struct record *r, size_t from)
{
	struct line_ctx c = { r, NULL };
	int err;

	if (r->opts.no_perfmap_code || from >= r->perfmap_lines.len)
		return 0;
	c.pc = state(r);
	if (!c.pc)
		return -ENOMEM;
	err = jrec_perfmaps__walk((const uint8_t *)r->perfmap_lines.data + from,
				  r->perfmap_lines.len - from, false, on_line, &c);
	return err == -ENOMEM ? err : 0;
}

static int cmp_ip(const void *a, const void *b)
{
	const struct pm_ip *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* Sort and drop duplicates: the set stays as small as the distinct addresses. */
static void compact(struct perfmap_code *pc)
{
	size_t i, n = 0;

	if (pc->nr_ips)
		qsort(pc->ips, pc->nr_ips, sizeof(*pc->ips), cmp_ip);
	for (i = 0; i < pc->nr_ips; i++)
		if (!n || cmp_ip(&pc->ips[n - 1], &pc->ips[i]))
			pc->ips[n++] = pc->ips[i];
	pc->nr_ips = n;
	pc->ips_compact = n;
}

int perfmap_code__sample(struct record *r, const struct perf_event_header *h,
			 const struct record_event *e)
{
	const uint8_t *p = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	uint64_t st = e->attr.sample_type, ip;
	struct perfmap_code *pc;
	uint32_t pid;

	if (r->opts.no_perfmap_code || !r->nr_perfmaps ||
	    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
	    !(st & PERF_SAMPLE_IP) || !(st & PERF_SAMPLE_TID))
		return 0;
	if (st & PERF_SAMPLE_IDENTIFIER)
		p += 8;
	if (end - p < 16)
		return 0;
	memcpy(&ip, p, 8);
	memcpy(&pid, p + 8, 4);
	pc = state(r);
	if (!pc)
		return -ENOMEM;
	if (pc->nr_ips == pc->cap_ips && pc->nr_ips >= 2 * pc->ips_compact + 1024)
		compact(pc);
	if (array_grow(&pc->ips, &pc->cap_ips, pc->nr_ips + 1))
		return -ENOMEM;
	pc->ips[pc->nr_ips++] = (struct pm_ip){ pid, ip };
	return 0;
}

/* Whether a sample of @cp's process hit its bytes. */
static bool sampled(const struct perfmap_code *pc, const struct pm_copy *cp)
{
	struct pm_ip key = { cp->pid, cp->addr };
	size_t lo = 0, hi = pc->nr_ips;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_ip(&pc->ips[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pc->nr_ips && pc->ips[lo].pid == cp->pid && pc->ips[lo].ip < cp->addr + cp->len;
}

int perfmap_code__emit(struct record *r, struct buf *b, size_t *nr)
{
	struct perfmap_code *pc = r->pmcode;
	size_t i;
	int err = 0;

	*nr = 0;
	if (!pc)
		return 0;
	compact(pc);
	for (i = 0; i < pc->nr && !err; i++) {
		const struct pm_copy *cp = &pc->copies[i];
		struct code_rec c = { .kind = JREC_CODE_PROCESS, .addr = cp->addr, .time = cp->time,
				      .pid = cp->pid, .machine = cp->machine, .bytes = cp->bytes,
				      .len = cp->len };

		if (!sampled(pc, cp))
			continue;
		if (!*nr)
			err = jrec_section__begin(b, JREC_FEAT_CODE);
		if (!err)
			err = code_bytes__emit(b, &c);
		if (!err)
			(*nr)++;
	}
	if (r->opts.verbose && (pc->nr || pc->unread || pc->over_budget))
		fprintf(stderr, "jrec record: perf-map code: %zu symbols read, %zu sampled kept, "
				"%llu unreadable, %llu over the %llu MiB budget\n",
			pc->nr, *nr, (unsigned long long)pc->unread,
			(unsigned long long)pc->over_budget, PERFMAP_CODE_BUDGET >> 20);
	return err;
}

void perfmap_code__free(struct record *r)
{
	struct perfmap_code *pc = r->pmcode;
	size_t i;

	if (!pc)
		return;
	for (i = 0; i < pc->nr; i++)
		free(pc->copies[i].bytes);
	free(pc->copies);
	free(pc->ips);
	free(pc->machines);
	free(pc);
	r->pmcode = NULL;
}
