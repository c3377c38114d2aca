/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jrec-sections: jrec's private feature sections (layouts in perf-file.h,
 * Documentation/jrec-data.rst), written and read here and nowhere else:
 * INFO, FILES, JITDUMP, PERFMAP, KALLSYMS and JMMAP. SYMTAB has its own home,
 * stored-syms.c; the records inside JMMAP are jmmap-reader.c's.
 *
 * Every section starts with struct jrec_feat_prefix. Entries are a fixed
 * header followed by bytes padded to JREC_SECTION_ALIGN. The readers check
 * every length against the bytes left, return -EBADMSG at the first entry
 * that does not fit (after passing on the good ones before it) and never
 * assume the section is aligned in memory.
 */
#ifndef JREC_JREC_SECTIONS_H
#define JREC_JREC_SECTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cookie.h"
#include "perf-file.h"

#define JREC_SECTION_ALIGN 8

/* ------------------------------------------------------------ any section */

/*
 * Entries, for the sections whose home is another file (code-bytes.c): an
 * entry's header and then @n bytes of @p, padded to JREC_SECTION_ALIGN.
 * 0 or -ENOMEM.
 */
int jrec_entry__emit(struct buf *b, const void *hdr, size_t hdr_len, const void *p, size_t n);
/*
 * The read side: the @n bytes at *@off of a payload @p of @len bytes, and
 * *@off moved past them and their padding; NULL when they do not fit.
 */
const uint8_t *jrec_entry__take(const uint8_t *p, size_t len, size_t *off, uint64_t n);

/* Start section @id in @b: its prefix. 0 or -ENOMEM. */
int jrec_section__begin(struct buf *b, unsigned int id);
/* A whole section whose payload is @len bytes as they are (KALLSYMS, JMMAP). */
int jrec_section__raw(struct buf *b, unsigned int id, const void *data, size_t len);
/*
 * The payload of section @id after its prefix, the section's bytes being
 * @sec[0..@len) in the other byte order when @swapped. 0 or -EBADMSG.
 */
int jrec_section__payload(const void *sec, size_t len, bool swapped, unsigned int id,
			  const void **payload, size_t *payload_len);

/*
 * Compress the whole section in @b (prefix and payload) with zstd at @level:
 * the prefix gets JREC_FEAT_ZSTD in its feature field and is followed by
 * struct jrec_feat_zstd and one zstd frame of the payload. A section that
 * would not shrink is left as it is. 0 or -ENOMEM/-EINVAL.
 */
int jrec_section__compress(struct buf *b, int level);
/*
 * The read side: when the section at @sec (@len bytes, the other byte order
 * when @swapped) is a compressed section of @id, its plain form (prefix
 * without the flag, then the payload) is put in @out and 1 is returned; 0
 * when the section is not compressed (@out untouched); -EBADMSG when the
 * frame is corrupt, longer or shorter than it says, or over
 * JREC_SECTION_MAX_RAW; -ENOMEM.
 */
int jrec_section__decompress(const void *sec, size_t len, bool swapped, unsigned int id,
			     struct buf *out);

/* ------------------------------------------------------------ the table of sections */

/*
 * Append to @b the table of the private sections (struct jrec_section_table,
 * perf-file.h) with @nr entries @refs, whose ids must rise. 0, -EINVAL or
 * -ENOMEM.
 */
int jrec_section_table__emit(struct buf *b, const struct jrec_section_ref *refs, uint32_t nr);
/*
 * @fn for each entry of the table at @p (@len bytes, the other byte order
 * when @swapped), its fields in host order. 0 when done or when @p holds no
 * such table (another magic: an old perf's event types, or nothing); what
 * @fn returned; -EBADMSG when the entries run past @len, or an id is out of
 * range or not above the one before (the entries before it were passed on).
 */
int jrec_section_table__walk(const void *p, size_t len, bool swapped,
			     int (*fn)(unsigned int id, uint64_t offset, uint64_t size, void *ctx),
			     void *ctx);

/* ------------------------------------------------------------ INFO */

/* Append one "key=value" line; a newline inside the value becomes a space. */
int jrec_info__add(struct buf *b, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What the reporter takes from INFO; other keys are ignored. */
struct jrec_info {
	char mode[32];		  /* "" when absent */
	char kernel_release[128]; /* "" when absent */
	uint64_t kernel_text;	  /* 0 when absent */
	bool has_perfmap_poll, has_kernel_bid;
	/* mmap_records=jmmap: user space's MMAP2s were written from JMMAP's MMAP3s */
	bool mmap_records_jmmap;
	uint64_t perfmap_poll_ns;
	struct jrec_cookie kernel_bid;
};

/* Parse an INFO payload. Never fails: lines that do not parse are skipped. */
void jrec_info__parse(const char *text, size_t len, struct jrec_info *out);

/* ------------------------------------------------------------ FILES */

struct jrec_file_rec {
	uint32_t pid;
	uint16_t status; /* enum jrec_file_status */
	struct jrec_cookie cookie;
	const char *path; /* NUL-terminated (inside the section when read) */
};

int jrec_files__emit(struct buf *b, const struct jrec_file_rec *f);
/* @fn for each entry; what @fn returned, -EBADMSG, or 0. */
int jrec_files__walk(const void *payload, size_t len, bool swapped,
		     int (*fn)(const struct jrec_file_rec *f, void *ctx), void *ctx);

/* ------------------------------------------------------------ JITDUMP */

struct jrec_jitdump_rec {
	uint32_t pid;
	uint64_t time;	  /* when the dump was seen mapped */
	const char *path; /* the original path; NULL when the entry's is not a string */
	const uint8_t *data;
	uint64_t len; /* bytes of the jitdump copy */
};

int jrec_jitdumps__emit(struct buf *b, const struct jrec_jitdump_rec *j);
int jrec_jitdumps__walk(const void *payload, size_t len, bool swapped,
			int (*fn)(const struct jrec_jitdump_rec *j, void *ctx), void *ctx);

/* ------------------------------------------------------------ PERFMAP */

struct jrec_perfmap_rec {
	uint64_t time; /* when the line was first seen; 0 = unknown */
	uint32_t pid;
	const char *line; /* not NUL-terminated: len bytes */
	size_t len;
};

int jrec_perfmaps__emit(struct buf *b, const struct jrec_perfmap_rec *l);
int jrec_perfmaps__walk(const void *payload, size_t len, bool swapped,
			int (*fn)(const struct jrec_perfmap_rec *l, void *ctx), void *ctx);

#endif /* JREC_JREC_SECTIONS_H */
