// SPDX-License-Identifier: GPL-2.0
/* perf.data writer: see perf-writer.h for the layout and crash safety. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf-file.h"
#include "perf-writer.h"

#define WRITER_BUF_SIZE (256 * 1024)

struct writer_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
};

struct perf_writer {
	int fd;
	struct perf_file_header hdr;
	struct writer_attr *attrs;
	size_t nr_attrs;
	struct buf feat[PERF_FILE_FEAT_BITS];
	uint8_t *buf;
	size_t buf_len;
	uint64_t data_written; /* bytes of the data section already in the file */
	uint64_t file_size;
	int begun;
};

static int write_full(int fd, const void *p, size_t len, uint64_t off)
{
	const uint8_t *b = p;

	while (len) {
		ssize_t n = pwrite(fd, b, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int perf_writer__new(const char *path, struct perf_writer **out)
{
	struct perf_writer *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->buf = malloc(WRITER_BUF_SIZE);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int err = -errno;

		free(w->buf);
		free(w);
		return err;
	}
	*out = w;
	return 0;
}

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const uint64_t *ids, size_t nr_ids)
{
	struct writer_attr *a;

	if (w->begun)
		return -EBUSY;
	a = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	w->attrs = a;
	a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(a->attr);
	if (nr_ids) {
		a->ids = calloc(nr_ids, sizeof(*ids));
		if (!a->ids)
			return -ENOMEM;
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	}
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

static int write_header(struct perf_writer *w)
{
	return write_full(w->fd, &w->hdr, sizeof(w->hdr), 0);
}

int perf_writer__begin(struct perf_writer *w)
{
	uint64_t off, ids_off;
	size_t i;
	int err;

	if (w->begun)
		return -EBUSY;
	w->hdr.magic = PERF_FILE_MAGIC;
	w->hdr.size = sizeof(w->hdr);
	w->hdr.attr_size = sizeof(struct perf_file_attr);

	/* header | id arrays | attrs | data, as perf lays it out */
	ids_off = sizeof(w->hdr);
	off = ids_off;
	for (i = 0; i < w->nr_attrs; i++)
		off += w->attrs[i].nr_ids * sizeof(uint64_t);
	w->hdr.attrs.offset = off;
	w->hdr.attrs.size = w->nr_attrs * sizeof(struct perf_file_attr);
	off += w->hdr.attrs.size;
	w->hdr.data.offset = off;
	w->hdr.data.size = 0;

	for (i = 0; i < w->nr_attrs; i++) {
		struct perf_file_attr fa;
		size_t n = w->attrs[i].nr_ids * sizeof(uint64_t);

		memset(&fa, 0, sizeof(fa));
		fa.attr = w->attrs[i].attr;
		fa.ids.offset = ids_off;
		fa.ids.size = n;
		err = write_full(w->fd, w->attrs[i].ids, n, ids_off);
		if (err)
			return err;
		err = write_full(w->fd, &fa, sizeof(fa),
				 w->hdr.attrs.offset + i * sizeof(struct perf_file_attr));
		if (err)
			return err;
		ids_off += n;
	}
	err = write_header(w);
	if (err)
		return err;
	w->file_size = w->hdr.data.offset;
	w->begun = 1;
	return 0;
}

static int flush_buf(struct perf_writer *w)
{
	int err;

	if (!w->buf_len)
		return 0;
	err = write_full(w->fd, w->buf, w->buf_len, w->hdr.data.offset + w->data_written);
	if (err)
		return err;
	w->data_written += w->buf_len;
	w->file_size = w->hdr.data.offset + w->data_written;
	w->buf_len = 0;
	return 0;
}

int perf_writer__write(struct perf_writer *w, const void *rec, size_t len)
{
	int err;

	if (!w->begun)
		return -EINVAL;
	if (len > WRITER_BUF_SIZE - w->buf_len) {
		err = flush_buf(w);
		if (err)
			return err;
		if (len > WRITER_BUF_SIZE) {
			err = write_full(w->fd, rec, len, w->hdr.data.offset + w->data_written);
			if (err)
				return err;
			w->data_written += len;
			w->file_size = w->hdr.data.offset + w->data_written;
			return 0;
		}
	}
	memcpy(w->buf + w->buf_len, rec, len);
	w->buf_len += len;
	return 0;
}

int perf_writer__flush(struct perf_writer *w)
{
	int err;

	if (!w->begun)
		return -EINVAL;
	err = flush_buf(w);
	if (err)
		return err;
	if (w->hdr.data.size == w->data_written)
		return 0;
	/* Records first, then the size that covers them. */
	w->hdr.data.size = w->data_written;
	return write_full(w->fd, &w->hdr.data, sizeof(w->hdr.data),
			  offsetof(struct perf_file_header, data));
}

int perf_writer__add_feature(struct perf_writer *w, unsigned int id, struct buf *b)
{
	if (id == 0 || id >= PERF_FILE_FEAT_BITS)
		return -EINVAL;
	if (w->feat[id].data)
		return -EEXIST;
	w->feat[id] = *b;
	if (!w->feat[id].data) {
		/* an empty section still gets announced */
		if (buf__reserve(&w->feat[id], 1))
			return -ENOMEM;
	}
	b->data = NULL;
	b->len = b->cap = 0;
	return 0;
}

int perf_writer__finish(struct perf_writer *w)
{
	struct perf_file_section *sec = NULL;
	uint64_t features[PERF_FILE_FEAT_BITS / 64] = {0};
	uint64_t table_off, off;
	size_t nr = 0, i, k;
	int err;

	err = perf_writer__flush(w);
	if (err)
		return err;
	for (i = 1; i < PERF_FILE_FEAT_BITS; i++)
		if (w->feat[i].data)
			nr++;
	table_off = w->hdr.data.offset + w->hdr.data.size;
	off = table_off + nr * sizeof(*sec);
	if (nr) {
		sec = calloc(nr, sizeof(*sec));
		if (!sec)
			return -ENOMEM;
	}
	for (i = 1, k = 0; i < PERF_FILE_FEAT_BITS; i++) {
		if (!w->feat[i].data)
			continue;
		sec[k].offset = off;
		sec[k].size = w->feat[i].len;
		err = write_full(w->fd, w->feat[i].data, w->feat[i].len, off);
		if (err)
			goto out;
		off += w->feat[i].len;
		features[i / 64] |= 1ULL << (i % 64);
		k++;
	}
	err = write_full(w->fd, sec, nr * sizeof(*sec), table_off);
	if (err)
		goto out;
	/* drop bytes of an unfinished batch; not possible (EINVAL) on a device */
	if (ftruncate(w->fd, (off_t)off) && errno != EINVAL) {
		err = -errno;
		goto out;
	}
	/* Sections are complete on disk before the header announces them. */
	if (fdatasync(w->fd) && errno != EINVAL) {
		err = -errno;
		goto out;
	}
	memcpy(w->hdr.adds_features, features, sizeof(features));
	err = write_header(w);
	if (err)
		goto out;
	w->file_size = off;
out:
	free(sec);
	return err;
}

uint64_t perf_writer__data_size(const struct perf_writer *w)
{
	return w->data_written + w->buf_len;
}

uint64_t perf_writer__file_size(const struct perf_writer *w)
{
	return w->file_size;
}

void perf_writer__free(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	for (i = 0; i < w->nr_attrs; i++)
		free(w->attrs[i].ids);
	free(w->attrs);
	for (i = 0; i < PERF_FILE_FEAT_BITS; i++)
		buf__release(&w->feat[i]);
	free(w->buf);
	free(w);
}
