/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Incremental copy of a jitdump file (jit-PID.dump) while its JIT appends to
 * it. Only whole records are kept: the copy is the header and every record
 * that was complete when last read, so a reader never sees half a record.
 * The file is read through a descriptor the recorder opened while the dump
 * was mapped, so a dump the runtime deletes at exit is still copied.
 */
#ifndef JREC_JITDUMP_COPY_H
#define JREC_JITDUMP_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "jitdump.h"

#define JITDUMP_COPY_MAX (512ull << 20) /* stop copying one dump beyond this */

struct jitdump_copy {
	int fd;
	uint32_t pid;
	uint64_t time; /* when the dump was seen mapped */
	char *path;
	struct buf data;  /* bytes read so far */
	size_t committed; /* bytes of data that form whole records */
	int error;	  /* first error: copying stopped */
};

/* Start copying from fd (taken over). 0 or -errno. */
int jitdump_copy__new(int fd, uint32_t pid, uint64_t time, const char *path,
		      struct jitdump_copy **out);
/* Read what was appended since the last call. 0 or -errno (also kept in error). */
int jitdump_copy__update(struct jitdump_copy *j);
/* Close the descriptor (after a last update). */
void jitdump_copy__close(struct jitdump_copy *j);
/* Append the JREC_FEAT_JITDUMP entry of this copy to b. */
int jitdump_copy__emit(const struct jitdump_copy *j, struct buf *b);
void jitdump_copy__free(struct jitdump_copy *j);

#endif
