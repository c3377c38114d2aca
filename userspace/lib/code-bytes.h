/* SPDX-License-Identifier: GPL-2.0 */
/*
 * code-bytes: the JREC_FEAT_CODE and JREC_FEAT_ARCHIVE_CODE sections
 * (perf-file.h): functions' machine code stored in a recording, written and
 * read here and nowhere else. The recorder stores the perf-map JIT code it
 * read out of processes, jrec archive the sampled functions of files, and
 * jrec annotate reads both into a table looked up by process and address or
 * by cookie and address.
 */
#ifndef JREC_CODE_BYTES_H
#define JREC_CODE_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cookie.h"
#include "perf-file.h"

struct code_rec {
	enum jrec_code_kind kind;
	uint64_t addr, time;
	uint32_t pid;
	uint16_t machine;
	struct jrec_cookie cookie; /* JREC_CODE_FILE */
	const uint8_t *bytes;	   /* inside the payload */
	uint32_t len;
};

/* One entry, after jrec_section__begin(). 0, -EINVAL (too long, bad kind) or -ENOMEM. */
int code_bytes__emit(struct buf *b, const struct code_rec *c);
/*
 * @fn for each entry of a payload of @len bytes (the other byte order when
 * @swapped). 0, @fn's return, or -EBADMSG at the first entry that does not
 * fit or says more than JREC_CODE_MAX bytes or an unknown kind (the good ones
 * before it were passed on).
 */
int code_bytes__walk(const void *payload, size_t len, bool swapped,
		     int (*fn)(const struct code_rec *c, void *ctx), void *ctx);

/* The entries of a recording, copied, for lookups. */
struct code_table {
	struct code_rec *recs; /* sorted by kind, pid or cookie, addr, time; bytes owned */
	size_t nr, cap;
	bool sorted;
};

/* Add every entry of a section's payload (copies). 0, -EBADMSG (after the good ones) or -ENOMEM. */
int code_table__add(struct code_table *t, const void *payload, size_t len, bool swapped);
/*
 * The code of process @pid at @addr read at or after @after (the first such
 * read), else the last read before it; NULL when none.
 */
const struct code_rec *code_table__process(struct code_table *t, uint32_t pid, uint64_t addr,
					   uint64_t after);
/* The code of the file with @cookie at @addr (its own layout); NULL when none. */
const struct code_rec *code_table__file(struct code_table *t, const struct jrec_cookie *cookie,
					uint64_t addr);
/* The kernel's code at run-time address @addr; NULL when none. */
const struct code_rec *code_table__kernel(struct code_table *t, uint64_t addr);
void code_table__release(struct code_table *t);

#endif
