// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader: header, attributes and ids,
 * every record of the data section, the BUILD_ID feature and jrec's private
 * sections (jmmap records, kallsyms copy, stored symbol tables); then the report's first pass over
 * the same bytes (address spaces, jitdump and perf-map sections, comms).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../report/session.h"
#include "jmmap-reader.h"
#include "kernel-syms.h"
#include "elf-image.h"
#include "perf-reader.h"
#include "stored-syms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_ev(const struct pr_event *ev, void *ctx)
{
	uint64_t *sum = ctx, i;

	*sum += ev->type + ev->id.time;
	if (ev->type == PERF_RECORD_SAMPLE)
		for (i = 0; i < ev->sample.nr_callchain; i++)
			*sum += ((const uint8_t *)ev->sample.callchain)[i * 8];
	if ((ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2) && ev->mmap.filename)
		*sum += (uint8_t)ev->mmap.filename[0];
	if (ev->type == PERF_RECORD_COMM && ev->comm.comm)
		*sum += (uint8_t)ev->comm.comm[0];
	return 0;
}

static int on_bid(int32_t pid, uint16_t misc, const uint8_t *id, size_t id_len,
		  const char *filename, void *ctx)
{
	uint64_t *sum = ctx;

	*sum += id_len + (uint8_t)filename[0];
	return 0;
}

static int on_jm(const struct jm_event *e, void *ctx)
{
	uint64_t *sum = ctx;

	*sum += e->type + (uint8_t)e->filename[0];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_reader *r;
	struct kernel_syms k;
	uint64_t sum = 0;
	const void *p;
	size_t len;
	char err[256], s[64];

	if (perf_reader__open_mem(data, size, &r, err, sizeof(err)))
		return 0;
	perf_reader__for_each_event(r, on_ev, &sum);
	perf_reader__for_each_build_id(r, on_bid, &sum);
	perf_reader__feature_string(r, PERF_FEAT_HOSTNAME, s, sizeof(s));
	if (!perf_reader__jrec_feature(r, JREC_FEAT_JMMAP, &p, &len))
		jmmap_reader__walk(p, len, perf_reader__swapped(r), on_jm, &sum);
	if (!perf_reader__jrec_feature(r, JREC_FEAT_KALLSYMS, &p, &len) &&
	    !kernel_syms__parse(&k, p, len)) {
		symtab__find(&k.tab, sum);
		kernel_syms__release(&k);
	}
	if (!perf_reader__jrec_feature(r, JREC_FEAT_SYMTAB, &p, &len)) {
		struct stored_syms ss;
		struct elf_image *img;
		size_t i;

		if (!stored_syms__parse(&ss, p, len, perf_reader__swapped(r))) {
			for (i = 0; i < ss.nr; i++)
				if (!stored_syms__open(&ss, &ss.files[i], &img)) {
					symtab__find(elf_image__symtab(img), sum);
					elf_image__offset_to_vaddr(img, sum);
					elf_image__close(img);
				}
			stored_syms__release(&ss);
		}
	}
	perf_reader__close(r);

	/* the report's pass 1, through a memfd since a session opens a path */
	{
		int fd = memfd_create("fuzz-perfdata", MFD_CLOEXEC);
		char path[64];
		struct session ss;

		if (fd < 0)
			return 0;
		if (write(fd, data, size) == (ssize_t)size) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			if (!session__open(&ss, path, err, sizeof(err))) {
				session__load(&ss);
				session__close(&ss);
			}
		}
		close(fd);
	}
	return 0;
}
