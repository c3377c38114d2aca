/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jmmap fixed-size records: MUNMAP and MMAP3 laid out from a description
 * a hook fills on its stack (struct jmmap_fixed_rec), the one place both
 * are laid out. A record without a file (MUNMAP, the MMAP3 of anonymous
 * memory, named "//anon") needs nothing from task context and has a fixed
 * size: a session writes it straight into its ring, in place, under the
 * ring's lock (jmmap_emit_fixed(), session.c), with no copy of the whole
 * record on the stack and none from there into the ring. A record of a
 * file gets its fixed part here, into its pending record (record.h), and
 * its file's fields, cookie and name when it is finished.
 */
#ifndef JMMAP_FIXED_REC_H
#define JMMAP_FIXED_REC_H

#include <linux/build_bug.h>
#include <linux/string.h>
#include <linux/types.h>

#include "jmmap.h"

/* The name of every MMAP3 without a file, padded to 8 bytes. */
#define JMMAP_ANON_NAME "//anon\0"

struct jmmap_fixed_rec {
	u16 type;  /* JMMAP_REC_MUNMAP or JMMAP_REC_MMAP3 */
	u16 cause; /* enum jmmap_unmap_cause, enum jmmap_cause */
	u32 pid, tid;
	u64 time, start, len;
	/* MMAP3 only */
	u64 vma_start, vma_end, pgoff;
	u32 prot, flags;
};

/* The bytes of a record without a file: MMAP3's name included. */
static inline u32 jmmap_fixed_rec_size(const struct jmmap_fixed_rec *f)
{
	BUILD_BUG_ON(sizeof(JMMAP_ANON_NAME) != 8 || sizeof(struct jmmap_rec_mmap3) % 8 ||
		     sizeof(struct jmmap_rec_munmap) % 8);
	return f->type == JMMAP_REC_MMAP3 ? sizeof(struct jmmap_rec_mmap3) + sizeof(JMMAP_ANON_NAME)
					  : sizeof(struct jmmap_rec_munmap);
}

/*
 * Lay out @f at @dst, every byte of it written, since @dst may hold old
 * bytes (a ring): the fixed part, hdr.size the size of a record without a
 * file, and with @anon_name MMAP3's name after it. The device, inode and
 * cookie are zero (none). @dst is 8-byte aligned.
 */
static inline void jmmap_fixed_rec_fill(void *dst, const struct jmmap_fixed_rec *f,
					bool anon_name)
{
	if (f->type == JMMAP_REC_MMAP3) {
		struct jmmap_rec_mmap3 *r = dst;

		r->hdr.type = JMMAP_REC_MMAP3;
		r->hdr.flags = 0;
		r->hdr.size = jmmap_fixed_rec_size(f);
		r->pid = f->pid;
		r->tid = f->tid;
		r->time = f->time;
		r->start = f->start;
		r->len = f->len;
		r->vma_start = f->vma_start;
		r->vma_end = f->vma_end;
		r->pgoff = f->pgoff;
		r->prot = f->prot;
		r->flags = f->flags;
		r->dev_major = 0;
		r->dev_minor = 0;
		r->ino = 0;
		r->ino_generation = 0;
		r->cause = f->cause;
		r->cookie_kind = JMMAP_COOKIE_NONE;
		r->cookie_len = 0;
		memset(r->cookie, 0, sizeof(r->cookie));
		if (anon_name)
			memcpy((u8 *)dst + sizeof(*r), JMMAP_ANON_NAME, sizeof(JMMAP_ANON_NAME));
	} else {
		struct jmmap_rec_munmap *r = dst;

		r->hdr.type = JMMAP_REC_MUNMAP;
		r->hdr.flags = 0;
		r->hdr.size = sizeof(*r);
		r->pid = f->pid;
		r->tid = f->tid;
		r->time = f->time;
		r->start = f->start;
		r->len = f->len;
		r->cause = f->cause;
		r->__reserved = 0;
	}
}

#endif
