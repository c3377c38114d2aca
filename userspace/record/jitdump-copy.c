// SPDX-License-Identifier: GPL-2.0
/* Incremental jitdump copier; see jitdump-copy.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jrec-sections.h"
#include "jitdump-copy.h"

int jitdump_copy__new(int fd, uint32_t pid, uint64_t time, const char *path,
		      struct jitdump_copy **out)
{
	struct jitdump_copy *j;

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

int jitdump_copy__update(struct jitdump_copy *j)
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
	err = jitdump__scan(j->data.data, j->data.len, &j->committed);
	if (err && !j->error)
		j->error = err;
	return j->error;
}

void jitdump_copy__close(struct jitdump_copy *j)
{
	if (j && j->fd >= 0) {
		close(j->fd);
		j->fd = -1;
	}
}

int jitdump_copy__emit(const struct jitdump_copy *j, struct buf *b)
{
	struct jrec_jitdump_rec e = {j->pid, j->time, j->path, j->data.data, j->committed};

	return jrec_jitdumps__emit(b, &e);
}

void jitdump_copy__free(struct jitdump_copy *j)
{
	if (!j)
		return;
	jitdump_copy__close(j);
	buf__release(&j->data);
	free(j->path);
	free(j);
}
