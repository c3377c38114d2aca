// SPDX-License-Identifier: GPL-2.0
/*
 * rec_featdump: print jrec's private feature sections of a recording, one
 * line per item, for the recorder suite to grep. Only the header, the
 * section tables (perf's and jrec's) and the private sections are read: this is a test probe,
 * not a perf.data reader.
 *
 *   rec_featdump FILE      INFO lines as "info KEY=VALUE", then
 *                          "jitdump PID PATH BYTES RECORDS LOADS TIME" + "jitload NAME",
 *                          "perfmap TIME PID LINE", "file STATUS KIND HEX PATH",
 *                          "jmmap BYTES" + "jmmaprec TYPE PID [START LEN CAUSE NAME]"
 *                          (MMAP3) or "jmmaprec TYPE PID START LEN CAUSE TIME" (MUNMAP),
 *                          "kallsyms BYTES", "zstd ID BYTES RAW_BYTES" before a
 *                          section stored compressed, "cutshort" when no
 *                          features were written. Exit 1 on a malformed file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../../userspace/lib/perf-file.h"
#include "jmmap.h"

static uint8_t *file;
static size_t file_len;

static int fail(const char *what)
{
	fprintf(stderr, "rec_featdump: malformed: %s\n", what);
	exit(1);
}

static const uint8_t *section(uint64_t off, uint64_t size)
{
	if (off > file_len || size > file_len - off)
		fail("section out of bounds");
	return file + off;
}

static void jitdump_summary(const uint8_t *d, uint64_t len, uint64_t *records, uint64_t *loads)
{
	uint64_t off;
	uint32_t hs;

	*records = *loads = 0;
	if (len < 40)
		return;
	memcpy(&hs, d + 8, 4);
	for (off = hs; len - off >= 16;) {
		uint32_t id, size;

		memcpy(&id, d + off, 4);
		memcpy(&size, d + off + 4, 4);
		if (size < 16 || size > len - off)
			fail("jitdump record");
		(*records)++;
		if (id == 0 && size > 16 + 40) {
			const char *name = (const char *)d + off + 56;

			if (!memchr(name, 0, size - 56))
				fail("jitdump name");
			(*loads)++;
			printf("jitload %s\n", name);
		}
		off += size;
	}
}

/*
 * A compressed section (feature id | JREC_FEAT_ZSTD): the prefix, the u64
 * raw_len, one zstd frame of the payload. Its plain form, prefix and all,
 * made here with libzstd directly; printed as "zstd BYTES RAW_BYTES".
 */
static const uint8_t *unzstd(unsigned int id, const uint8_t *p, uint64_t *size)
{
	struct jrec_feat_prefix pre;
	uint64_t raw;
	uint8_t *out;
	size_t n;

	if (*size < sizeof(pre) + 8)
		fail("short compressed section");
	memcpy(&pre, p, sizeof(pre));
	memcpy(&raw, p + sizeof(pre), 8);
	if (ZSTD_getFrameContentSize(p + sizeof(pre) + 8, *size - sizeof(pre) - 8) != raw)
		fail("zstd frame size");
	out = malloc(sizeof(pre) + raw + 1);
	if (!out)
		fail("out of memory");
	n = ZSTD_decompress(out + sizeof(pre), raw + 1, p + sizeof(pre) + 8,
			    *size - sizeof(pre) - 8);
	if (ZSTD_isError(n) || n != raw)
		fail("zstd frame");
	pre.feature = (uint16_t)id;
	memcpy(out, &pre, sizeof(pre));
	printf("zstd %u %llu %llu\n", id, (unsigned long long)*size, (unsigned long long)raw);
	*size = sizeof(pre) + raw;
	return out; /* a test probe: freed at exit */
}

static void dump(unsigned int id, const uint8_t *p, uint64_t size)
{
	struct jrec_feat_prefix pre;
	uint64_t off = sizeof(pre);

	if (size < sizeof(pre))
		fail("short private section");
	memcpy(&pre, p, sizeof(pre));
	if (pre.magic == JREC_FEAT_MAGIC && pre.feature == (id | JREC_FEAT_ZSTD)) {
		p = unzstd(id, p, &size);
		memcpy(&pre, p, sizeof(pre));
	}
	if (pre.magic != JREC_FEAT_MAGIC || pre.feature != id)
		fail("private section prefix");
	switch (id) {
	case JREC_FEAT_INFO: {
		const char *s = (const char *)p + off, *end = (const char *)p + size;

		while (s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			int n = (int)((nl ? nl : end) - s);

			printf("info %.*s\n", n, s);
			s += n + 1;
		}
		break;
	}
	case JREC_FEAT_JITDUMP:
		while (size - off >= sizeof(struct jrec_jitdump_entry)) {
			struct jrec_jitdump_entry e;
			uint64_t nl, dl, recs, loads;

			memcpy(&e, p + off, sizeof(e));
			off += sizeof(e);
			nl = (e.name_len + 7ull) & ~7ull;
			dl = (e.data_len + 7ull) & ~7ull;
			if (nl > size - off || !e.name_len || p[off + e.name_len - 1])
				fail("jitdump entry name");
			if (dl > size - off - nl)
				fail("jitdump entry data");
			printf("jitdump %u %s %llu\n", e.pid, (const char *)p + off,
			       (unsigned long long)e.data_len);
			jitdump_summary(p + off + nl, e.data_len, &recs, &loads);
			printf("jitdump-summary %llu records %llu loads time %llu\n",
			       (unsigned long long)recs, (unsigned long long)loads,
			       (unsigned long long)e.time);
			off += nl + dl;
		}
		printf("\n");
		break;
	case JREC_FEAT_PERFMAP:
		while (size - off >= sizeof(struct jrec_perfmap_entry)) {
			struct jrec_perfmap_entry e;

			memcpy(&e, p + off, sizeof(e));
			off += sizeof(e);
			if (((e.len + 7ull) & ~7ull) > size - off)
				fail("perfmap entry");
			printf("perfmap %llu %u %.*s\n", (unsigned long long)e.time, e.pid,
			       (int)e.len, (const char *)p + off);
			off += (e.len + 7ull) & ~7ull;
		}
		break;
	case JREC_FEAT_FILES:
		while (size - off >= sizeof(struct jrec_file_entry)) {
			struct jrec_file_entry e;
			char hex[41];
			int i;

			memcpy(&e, p + off, sizeof(e));
			off += sizeof(e);
			if (((e.path_len + 7ull) & ~7ull) > size - off || !e.path_len ||
			    p[off + e.path_len - 1] || e.cookie_len > 20)
				fail("file entry");
			for (i = 0; i < e.cookie_len; i++)
				sprintf(hex + 2 * i, "%02x", e.cookie[i]);
			hex[2 * e.cookie_len] = 0;
			printf("file %u %u %s %s\n", e.status, e.cookie_kind,
			       e.cookie_len ? hex : "-", (const char *)p + off);
			off += (e.path_len + 7ull) & ~7ull;
		}
		break;
	case JREC_FEAT_JMMAP:
		printf("jmmap %llu\n", (unsigned long long)(size - off));
		while (size - off >= sizeof(struct jmmap_rec_header)) {
			struct jmmap_rec_header rh;
			uint32_t pid = 0;

			memcpy(&rh, p + off, sizeof(rh));
			if (rh.size < sizeof(rh) || rh.size % 8 || rh.size > size - off)
				fail("jmmap record size");
			if (rh.type != JMMAP_REC_LOST && rh.size >= 12)
				memcpy(&pid, p + off + 8, 4);
			if (rh.type == JMMAP_REC_MMAP3 && rh.size > sizeof(struct jmmap_rec_mmap3)) {
				struct jmmap_rec_mmap3 m;
				const char *name = (const char *)p + off + sizeof(m);

				memcpy(&m, p + off, sizeof(m));
				if (!memchr(name, 0, rh.size - sizeof(m)))
					fail("MMAP3 name");
				printf("jmmaprec %u %u %llx %llx %u %s\n", rh.type, pid,
				       (unsigned long long)m.start, (unsigned long long)m.len,
				       m.cause, name);
			} else if (rh.type == JMMAP_REC_MUNMAP &&
				   rh.size >= sizeof(struct jmmap_rec_munmap)) {
				struct jmmap_rec_munmap u;

				memcpy(&u, p + off, sizeof(u));
				printf("jmmaprec %u %u %llx %llx %u %llu\n", rh.type, pid,
				       (unsigned long long)u.start, (unsigned long long)u.len,
				       u.cause, (unsigned long long)u.time);
			} else {
				printf("jmmaprec %u %u\n", rh.type, pid);
			}
			off += rh.size;
		}
		break;
	case JREC_FEAT_KALLSYMS:
		printf("kallsyms %llu\n", (unsigned long long)(size - off));
		break;
	default:
		break;
	}
}

int main(int argc, char **argv)
{
	struct perf_file_header h;
	unsigned int bit, nr = 0, k = 0;
	const uint8_t *table;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: rec_featdump FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	file_len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc(file_len + 1);
	if (!file || fread(file, 1, file_len, f) != file_len)
		fail("read");
	fclose(f);
	if (file_len < sizeof(h))
		fail("short header");
	memcpy(&h, file, sizeof(h));
	if (h.magic != PERF_FILE_MAGIC)
		fail("magic");
	printf("data %llu %llu\n", (unsigned long long)h.data.offset,
	       (unsigned long long)h.data.size);
	for (bit = 0; bit < PERF_FILE_FEAT_BITS; bit++)
		if (h.adds_features[bit / 64] >> (bit % 64) & 1)
			nr++;
	if (!nr) {
		printf("cutshort\n");
		return 0;
	}
	table = section(h.data.offset + h.data.size, (uint64_t)nr * 16);
	for (bit = 0; bit < PERF_FILE_FEAT_BITS; bit++) {
		struct perf_file_section s;

		if (!(h.adds_features[bit / 64] >> (bit % 64) & 1))
			continue;
		memcpy(&s, table + 16 * k++, sizeof(s));
		printf("feature %u %llu\n", bit, (unsigned long long)s.size);
		if (bit >= JREC_FEAT_FIRST) /* a recording of the older layout */
			dump(bit, section(s.offset, s.size), s.size);
	}
	/* jrec's own sections: the table that event_types points at */
	if (h.event_types.size) {
		const uint8_t *t = section(h.event_types.offset, h.event_types.size);
		struct jrec_section_table th;
		struct jrec_section_ref e;

		if (h.event_types.size < sizeof(th))
			fail("short section table");
		memcpy(&th, t, sizeof(th));
		if (th.magic != JREC_SECTIONS_MAGIC ||
		    (h.event_types.size - sizeof(th)) / sizeof(e) < th.nr)
			fail("section table");
		for (k = 0; k < th.nr; k++) {
			memcpy(&e, t + sizeof(th) + k * sizeof(e), sizeof(e));
			if (e.id < JREC_FEAT_FIRST || e.id >= PERF_FILE_FEAT_BITS)
				fail("section table id");
			printf("feature %u %llu\n", e.id, (unsigned long long)e.sec.size);
			dump(e.id, section(e.sec.offset, e.sec.size), e.sec.size);
		}
	}
	return 0;
}
