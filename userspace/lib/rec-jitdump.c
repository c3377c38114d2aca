// SPDX-License-Identifier: GPL-2.0
/* Incremental jitdump copier; see rec-jitdump.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jrec-sections.h"
#include "rec-jitdump.h"
#include "byteorder.h"

static uint32_t load_u32(const uint8_t *p, int swap)
{
	return bo_u32(p, swap);
}

int rec_jitdump_scan(const uint8_t *buf, size_t len, size_t *committed)
{
	size_t off = *committed;
	uint32_t magic, hdr_size;
	int swap;

	if (len < 12)
		return off ? -EINVAL : 0;
	memcpy(&magic, buf, sizeof(magic));
	if (magic == JITDUMP_MAGIC)
		swap = 0;
	else if (magic == JITDUMP_MAGIC_SWAPPED)
		swap = 1;
	else
		return -EINVAL;
	hdr_size = load_u32(buf + 8, swap);
	if (hdr_size < JITDUMP_HEADER_MIN || hdr_size > JITDUMP_HEADER_MAX)
		return -EINVAL;
	if (off == 0) {
		if (len < hdr_size)
			return 0;
		off = hdr_size;
	} else if (off < hdr_size || off > len) {
		return -EINVAL;
	}
	while (len - off >= JITDUMP_RECORD_MIN) {
		uint32_t size = load_u32(buf + off + 4, swap);

		if (size < JITDUMP_RECORD_MIN || size > JITDUMP_RECORD_MAX) {
			*committed = off;
			return -EINVAL;
		}
		if (size > len - off)
			break;
		off += size;
	}
	*committed = off;
	return 0;
}

int rec_jitdump__new(int fd, uint32_t pid, uint64_t time, const char *path,
		     struct rec_jitdump **out)
{
	struct rec_jitdump *j;

	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->path = strdup(path);
	if (!j->path) {
		free(j);
		return -ENOMEM;
	}
	j->fd = fd;
	j->pid = pid;
	j->time = time;
	*out = j;
	return 0;
}

int rec_jitdump__update(struct rec_jitdump *j)
{
	int err;

	if (j->error || j->fd < 0)
		return j->error;
	for (;;) {
		ssize_t n;

		if (j->data.len >= JITDUMP_COPY_MAX) {
			j->error = -EFBIG;
			break;
		}
		err = buf__reserve(&j->data, 64 * 1024);
		if (err) {
			j->error = err;
			break;
		}
		n = pread(j->fd, j->data.data + j->data.len, j->data.cap - j->data.len,
			  (off_t)j->data.len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			j->error = -errno;
			break;
		}
		if (n == 0)
			break;
		j->data.len += (size_t)n;
	}
	err = rec_jitdump_scan(j->data.data, j->data.len, &j->committed);
	if (err && !j->error)
		j->error = err;
	return j->error;
}

void rec_jitdump__close(struct rec_jitdump *j)
{
	if (j && j->fd >= 0) {
		close(j->fd);
		j->fd = -1;
	}
}

int rec_jitdump__emit(const struct rec_jitdump *j, struct buf *b)
{
	struct jrec_jitdump_rec e = {j->pid, j->time, j->path, j->data.data, j->committed};

	return jrec_jitdumps__emit(b, &e);
}

void rec_jitdump__free(struct rec_jitdump *j)
{
	if (!j)
		return;
	rec_jitdump__close(j);
	buf__release(&j->data);
	free(j->path);
	free(j);
}
