// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader: header, attributes and ids,
 * every record of the data section, the BUILD_ID feature, and each of jrec's
 * private sections found through the reader, handed to its decoder (INFO,
 * FILES, JITDUMP, PERFMAP, KALLSYMS, SYMTAB, ARCHIVE, JMMAP). The report session is
 * not run: it reads files of this machine. Each decoder also has a target
 * of its own (fuzz-section-*), fed the section's payload directly.
 */
#include <stddef.h>
#include <stdint.h>

#include "archive-syms.h"
#include "elf-image.h"
#include "jmmap-reader.h"
#include "jrec-sections.h"
#include "kernel-syms.h"
#include "perf-reader.h"
#include "stored-syms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_ev(const struct pr_event *ev, void *ctx)
{
	uint64_t *sum = ctx, i;
	unsigned int n, k;

	*sum += ev->type + ev->id.time;
	if (ev->type == PERF_RECORD_SAMPLE) {
		for (i = 0; i < ev->sample.nr_callchain; i++)
			*sum += ((const uint8_t *)ev->sample.callchain)[i * 8];
		/* the registers at the interrupt: every one the attr's mask says */
		n = ev->attr && ev->sample.iregs
			? (unsigned int)__builtin_popcountll(ev->attr->sample_regs_intr)
			: 0;
		for (k = 0; k < n; k++)
			*sum += pr_regs_at(&ev->sample, ev->sample.iregs, k);
		*sum += ev->sample.data_src + ev->sample.phys_addr + ev->sample.ins_lat;
	}
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

static int on_file(const struct jrec_file_rec *f, void *ctx)
{
	uint64_t *sum = ctx;

	*sum += f->pid + (uint8_t)f->path[0];
	return 0;
}

static int on_jitdump(const struct jrec_jitdump_rec *j, void *ctx)
{
	uint64_t *sum = ctx;

	*sum += j->len ? j->data[0] : 0;
	return 0;
}

static int on_perfmap(const struct jrec_perfmap_rec *l, void *ctx)
{
	uint64_t *sum = ctx;

	*sum += l->len ? (uint8_t)l->line[l->len - 1] : 0;
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
	if (!perf_reader__jrec_feature(r, JREC_FEAT_ARCHIVE, &p, &len)) {
		struct archive_syms as;
		struct elf_image *img;
		size_t i;

		if (!archive_syms__parse(&as, p, len, perf_reader__swapped(r))) {
			for (i = 0; i < as.nr; i++)
				if (!archive_syms__open(&as, &as.files[i], &img)) {
					symtab__find(elf_image__symtab(img), sum);
					elf_image__close(img);
				}
			archive_syms__release(&as);
		}
	}
	if (!perf_reader__jrec_feature(r, JREC_FEAT_INFO, &p, &len)) {
		struct jrec_info info;

		jrec_info__parse(p, len, &info);
		sum += info.kernel_text;
	}
	if (!perf_reader__jrec_feature(r, JREC_FEAT_FILES, &p, &len))
		jrec_files__walk(p, len, perf_reader__swapped(r), on_file, &sum);
	if (!perf_reader__jrec_feature(r, JREC_FEAT_JITDUMP, &p, &len))
		jrec_jitdumps__walk(p, len, perf_reader__swapped(r), on_jitdump, &sum);
	if (!perf_reader__jrec_feature(r, JREC_FEAT_PERFMAP, &p, &len))
		jrec_perfmaps__walk(p, len, perf_reader__swapped(r), on_perfmap, &sum);
	perf_reader__close(r);
	return 0;
}
