// SPDX-License-Identifier: GPL-2.0
/* A perf.data file with one feature section added or replaced; see perf-amend.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "perf-amend.h"
#include "perf-file.h"

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

static int has_feat(const struct perf_file_header *h, unsigned int i)
{
	return (h->adds_features[i / 64] >> (i % 64)) & 1;
}

int perf_amend__write(const void *file, size_t len, unsigned int id, const void *sec,
		      size_t sec_len, int fd)
{
	static const uint8_t zeros[8];
	struct perf_file_section old[PERF_FILE_FEAT_BITS], tab[PERF_FILE_FEAT_BITS];
	const uint8_t *p = file;
	struct perf_file_header h;
	uint64_t end, off;
	unsigned int i, nr_old = 0, nr = 0;
	int err;

	if (id >= PERF_FILE_FEAT_BITS || len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.magic == PERF_FILE_MAGIC_SWAPPED)
		return -EOPNOTSUPP;
	if (h.magic != PERF_FILE_MAGIC || h.size < sizeof(h) || h.size > len ||
	    h.data.offset > len || h.data.size > len - h.data.offset || h.data.offset < h.size)
		return -EBADMSG;
	end = h.data.offset + h.data.size;
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!has_feat(&h, i))
			continue;
		if (end + (nr_old + 1) * sizeof(*old) > len)
			return -EBADMSG;
		memcpy(&old[i], p + end + nr_old * sizeof(*old), sizeof(*old));
		if (old[i].offset > len || old[i].size > len - old[i].offset)
			return -EBADMSG;
		nr_old++;
	}
	h.adds_features[id / 64] |= 1ULL << (id % 64);
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++)
		nr += has_feat(&h, i);
	/* the table right after the data, then each section in id order, 8-aligned */
	off = end + nr * sizeof(*tab);
	for (i = 0, nr = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!has_feat(&h, i))
			continue;
		off = (off + 7) & ~7ULL;
		tab[nr].offset = off;
		tab[nr].size = i == id ? sec_len : old[i].size;
		off += tab[nr++].size;
	}
	err = write_all(fd, &h, sizeof(h));
	if (!err)
		err = write_all(fd, p + sizeof(h), end - sizeof(h));
	if (!err)
		err = write_all(fd, tab, nr * sizeof(*tab));
	off = end + nr * sizeof(*tab);
	for (i = 0, nr = 0; !err && i < PERF_FILE_FEAT_BITS; i++) {
		if (!has_feat(&h, i))
			continue;
		err = write_all(fd, zeros, tab[nr].offset - off);
		if (!err)
			err = write_all(fd, i == id ? sec : p + old[i].offset, tab[nr].size);
		off = tab[nr].offset + tab[nr].size;
		nr++;
	}
	return err;
}
