// SPDX-License-Identifier: GPL-2.0
/* A perf.data file with feature sections added or replaced; see perf-amend.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fd-io.h"
#include "perf-amend.h"
#include "perf-file.h"

static int has_feat(const struct perf_file_header *h, unsigned int i)
{
	return (h->adds_features[i / 64] >> (i % 64)) & 1;
}

int perf_amend__write(const void *file, size_t len, const struct perf_amend_sec *secs, size_t nr,
		      int fd)
{
	static const uint8_t zeros[8];
	struct perf_file_section tab[PERF_FILE_FEAT_BITS];
	const void *data[PERF_FILE_FEAT_BITS];
	const uint8_t *p = file;
	struct perf_file_header h;
	uint64_t end, off;
	unsigned int i, nr_tab = 0;
	int err = 0;

	for (i = 0; i < nr; i++)
		if (secs[i].id >= PERF_FILE_FEAT_BITS)
			return -EINVAL;
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.magic == PERF_FILE_MAGIC_SWAPPED)
		return -EOPNOTSUPP;
	if (h.magic != PERF_FILE_MAGIC || h.size < sizeof(h) || h.size > len ||
	    h.data.offset > len || h.data.size > len - h.data.offset || h.data.offset < h.size)
		return -EBADMSG;
	end = h.data.offset + h.data.size;
	/* the sections the file has, checked, then the new ones over them */
	memset(data, 0, sizeof(data));
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++) {
		struct perf_file_section s;

		if (!has_feat(&h, i))
			continue;
		if ((nr_tab + 1) * sizeof(s) > len - end)
			return -EBADMSG;
		memcpy(&s, p + end + nr_tab++ * sizeof(s), sizeof(s));
		if (s.offset > len || s.size > len - s.offset)
			return -EBADMSG;
		data[i] = p + s.offset;
		tab[i] = s;
	}
	for (i = 0; i < nr; i++) {
		h.adds_features[secs[i].id / 64] |= 1ULL << (secs[i].id % 64);
		data[secs[i].id] = secs[i].data;
		tab[secs[i].id].size = secs[i].len;
	}
	/* the table right after the data, then each section in id order, 8-aligned */
	for (i = 0, nr_tab = 0; i < PERF_FILE_FEAT_BITS; i++)
		nr_tab += has_feat(&h, i);
	off = end + nr_tab * sizeof(*tab);
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!has_feat(&h, i))
			continue;
		off = (off + 7) & ~7ULL;
		tab[i].offset = off;
		off += tab[i].size;
	}
	err = fd__write_all(fd, &h, sizeof(h));
	if (!err)
		err = fd__write_all(fd, p + sizeof(h), end - sizeof(h));
	for (i = 0; !err && i < PERF_FILE_FEAT_BITS; i++)
		if (has_feat(&h, i))
			err = fd__write_all(fd, &tab[i], sizeof(tab[i]));
	off = end + nr_tab * sizeof(*tab);
	for (i = 0; !err && i < PERF_FILE_FEAT_BITS; i++) {
		if (!has_feat(&h, i))
			continue;
		err = fd__write_all(fd, zeros, tab[i].offset - off);
		if (!err)
			err = fd__write_all(fd, data[i], tab[i].size);
		off = tab[i].offset + tab[i].size;
	}
	return err;
}
