// SPDX-License-Identifier: GPL-2.0
/* A perf.data file with feature sections added or replaced; see perf-amend.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fd-io.h"
#include "jrec-sections.h"
#include "perf-amend.h"
#include "perf-file.h"

/* the sections of the file being amended, by id: where in it, or the new bytes */
struct amend {
	const uint8_t *file;
	size_t len;
	const void *data[PERF_FILE_FEAT_BITS];
	struct perf_file_section tab[PERF_FILE_FEAT_BITS];
};

static int has_feat(const struct perf_file_header *h, unsigned int i)
{
	return (h->adds_features[i / 64] >> (i % 64)) & 1;
}

static int keep(unsigned int id, uint64_t offset, uint64_t size, void *ctx)
{
	struct amend *a = ctx;

	if (offset > a->len || size > a->len - offset)
		return -EBADMSG;
	a->data[id] = a->file + offset;
	a->tab[id].size = size;
	return 0;
}

int perf_amend__write(const void *file, size_t len, const struct perf_amend_sec *secs, size_t nr,
		      int fd)
{
	static const uint8_t zeros[8];
	struct amend a = {.file = file, .len = len};
	struct jrec_section_ref refs[PERF_FILE_FEAT_BITS - JREC_FEAT_FIRST];
	struct perf_file_header h;
	struct buf priv = BUF_INIT;
	uint64_t end, off;
	unsigned int i, nr_tab = 0, nr_priv = 0;
	int err = 0;

	for (i = 0; i < nr; i++)
		if (secs[i].id >= PERF_FILE_FEAT_BITS)
			return -EINVAL;
	if (len >= 16 && !memcmp(file, "PERFILE2", 8) && ((const uint8_t *)file)[8] == 16 &&
	    !memcmp((const uint8_t *)file + 9, "\0\0\0\0\0\0\0", 7))
		return -ESPIPE; /* pipe mode: no header sections to add to */
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, file, sizeof(h));
	if (h.magic == PERF_FILE_MAGIC_SWAPPED)
		return -EOPNOTSUPP;
	if (h.magic != PERF_FILE_MAGIC || h.size < sizeof(h) || h.size > len ||
	    h.data.offset > len || h.data.size > len - h.data.offset || h.data.offset < h.size)
		return -EBADMSG;
	end = h.data.offset + h.data.size;
	/* the sections the file has (private ones in the bitmap in older files), checked */
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++) {
		struct perf_file_section s;

		if (!has_feat(&h, i))
			continue;
		if ((nr_tab + 1) * sizeof(s) > len - end)
			return -EBADMSG;
		memcpy(&s, a.file + end + nr_tab++ * sizeof(s), sizeof(s));
		err = keep(i, s.offset, s.size, &a);
		if (err)
			return err;
	}
	if (h.event_types.size) {
		if (h.event_types.offset > len || h.event_types.size > len - h.event_types.offset)
			return -EBADMSG;
		err = jrec_section_table__walk(a.file + h.event_types.offset, h.event_types.size,
					       false, keep, &a);
		if (err)
			return err;
	}
	a.data[0] = NULL; /* perf's RESERVED: never a section */
	/* then the new ones over them */
	for (i = 0; i < nr; i++) {
		a.data[secs[i].id] = secs[i].data;
		a.tab[secs[i].id].size = secs[i].len;
	}
	/*
	 * perf's in the bitmap, their table right after the data; each section
	 * in id order, 8-aligned; then the table of jrec's.
	 */
	memset(h.adds_features, 0, sizeof(h.adds_features));
	memset(refs, 0, sizeof(refs));
	for (i = 1, nr_tab = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!a.data[i])
			continue;
		if (i < JREC_FEAT_FIRST) {
			h.adds_features[i / 64] |= 1ULL << (i % 64);
			nr_tab++;
		} else {
			refs[nr_priv++].id = i;
		}
	}
	off = end + nr_tab * sizeof(struct perf_file_section);
	for (i = 1, nr_priv = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!a.data[i])
			continue;
		off = (off + 7) & ~7ULL;
		a.tab[i].offset = off;
		off += a.tab[i].size;
		if (i >= JREC_FEAT_FIRST)
			refs[nr_priv++].sec = a.tab[i];
	}
	memset(&h.event_types, 0, sizeof(h.event_types));
	if (nr_priv) {
		err = jrec_section_table__emit(&priv, refs, nr_priv);
		h.event_types.offset = (off + 7) & ~7ULL;
		h.event_types.size = priv.len;
	}
	if (!err)
		err = fd__write_all(fd, &h, sizeof(h));
	if (!err)
		err = fd__write_all(fd, a.file + sizeof(h), end - sizeof(h));
	for (i = 1; !err && i < JREC_FEAT_FIRST; i++)
		if (a.data[i])
			err = fd__write_all(fd, &a.tab[i], sizeof(a.tab[i]));
	off = end + nr_tab * sizeof(struct perf_file_section);
	for (i = 0; !err && i < PERF_FILE_FEAT_BITS; i++) {
		if (!a.data[i])
			continue;
		err = fd__write_all(fd, zeros, a.tab[i].offset - off);
		if (!err)
			err = fd__write_all(fd, a.data[i], a.tab[i].size);
		off = a.tab[i].offset + a.tab[i].size;
	}
	if (!err && nr_priv) {
		err = fd__write_all(fd, zeros, h.event_types.offset - off);
		if (!err)
			err = fd__write_all(fd, priv.data, priv.len);
	}
	buf__release(&priv);
	return err;
}
