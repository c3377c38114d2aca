// SPDX-License-Identifier: GPL-2.0
/* The recording's header in perf report --header-only's form (header-info.h). */
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "header-info.h"
#include "perf-file.h"
#include "perf-reader.h"
#include "session.h"

/* perf's names of its feature sections, by id (1 to 31) */
static const char *const feat_names[] = {
	NULL,	       "TRACING_DATA", "BUILD_ID",	"HOSTNAME",	"OSRELEASE",
	"VERSION",     "ARCH",	       "NRCPUS",	"CPUDESC",	"CPUID",
	"TOTAL_MEM",   "CMDLINE",      "EVENT_DESC",	"CPU_TOPOLOGY", "NUMA_TOPOLOGY",
	"BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",	"AUXTRACE",	"STAT",
	"CACHE",       "SAMPLE_TIME",  "MEM_TOPOLOGY", "CLOCKID",	"DIR_FORMAT",
	"BPF_PROG_INFO", "BPF_BTF",    "COMPRESSED",	"CPU_PMU_CAPS", "CLOCK_DATA",
	"HYBRID_TOPOLOGY", "PMU_CAPS",
};
#define NR_FEATS (sizeof(feat_names) / sizeof(feat_names[0]))

static void string_feat(const struct perf_reader *r, unsigned int id, const char *label, FILE *out)
{
	char buf[1024];

	if (perf_reader__feature_string(r, id, buf, sizeof(buf)))
		fprintf(out, "# %s : %s\n", label, buf);
}

/* CMDLINE: a count, then that many perf strings (u32 length, NUL-padded) */
static void cmdline(const struct perf_reader *r, FILE *out)
{
	const uint8_t *p;
	size_t len, off = 4;
	uint32_t n, i, l;

	if (perf_reader__feature(r, PERF_FEAT_CMDLINE, (const void **)&p, &len) || len < 4)
		return;
	n = perf_reader__u32(r, p);
	fputs("# cmdline : ", out);
	for (i = 0; i < n && len - off >= 4; i++) {
		l = perf_reader__u32(r, p + off);
		off += 4;
		if (l > len - off)
			break;
		fprintf(out, "%.*s ", (int)strnlen((const char *)p + off, l), p + off);
		off += l;
	}
	fputc('\n', out);
}

static void print_secs(FILE *out, const char *label, uint64_t t)
{
	fprintf(out, "# %s : %llu.%06llu\n", label, (unsigned long long)(t / 1000000000ULL),
		(unsigned long long)(t % 1000000000ULL / 1000));
}

void header_info__print(struct session *s, const char *path, FILE *out)
{
	const struct perf_reader *r = s->r;
	uint64_t off = perf_reader__data_offset(r), size = perf_reader__data_size(r);
	const uint8_t *p;
	struct stat st;
	size_t len, i;
	char when[64];

	fputs("# ========\n", out);
	if (!stat(path, &st) && ctime_r(&st.st_mtime, when)) {
		when[strcspn(when, "\n")] = 0;
		fprintf(out, "# captured on    : %s\n", when);
	}
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %llu\n", (unsigned long long)off);
	fprintf(out, "# data size      : %llu\n", (unsigned long long)size);
	fprintf(out, "# feat offset    : %llu\n", (unsigned long long)(off + size));
	string_feat(r, PERF_FEAT_HOSTNAME, "hostname", out);
	string_feat(r, PERF_FEAT_OSRELEASE, "os release", out);
	string_feat(r, PERF_FEAT_VERSION, "perf version", out);
	string_feat(r, PERF_FEAT_ARCH, "arch", out);
	if (!perf_reader__feature(r, PERF_FEAT_NRCPUS, (const void **)&p, &len) && len >= 8) {
		fprintf(out, "# nrcpus online : %u\n", perf_reader__u32(r, p + 4));
		fprintf(out, "# nrcpus avail : %u\n", perf_reader__u32(r, p));
	}
	string_feat(r, PERF_FEAT_CPUDESC, "cpudesc", out);
	string_feat(r, PERF_FEAT_CPUID, "cpuid", out);
	if (!perf_reader__feature(r, PERF_FEAT_TOTAL_MEM, (const void **)&p, &len) && len >= 8)
		fprintf(out, "# total memory : %llu kB\n",
			(unsigned long long)perf_reader__u64(r, p));
	cmdline(r, out);
	if (!perf_reader__feature(r, PERF_FEAT_SAMPLE_TIME, (const void **)&p, &len) && len >= 16) {
		uint64_t first = perf_reader__u64(r, p), last = perf_reader__u64(r, p + 8);

		print_secs(out, "time of first sample", first);
		print_secs(out, "time of last sample", last);
		fprintf(out, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
	}
	fputs("# missing features:", out);
	for (i = 1; i < NR_FEATS; i++)
		if (perf_reader__feature(r, (unsigned int)i, (const void **)&p, &len))
			fprintf(out, " %s", feat_names[i]);
	fputs(" \n# ========\n#\n", out);
}
