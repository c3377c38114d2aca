// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer: the layout perf expects (header, ids, attrs, data,
 * section table right after the data, sections in id order), the data size
 * kept current by every flush so a killed writer leaves a readable prefix,
 * and nothing announced in the feature bitmap before finish. Files are read
 * back byte by byte here, independently of the writer's own structs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-file.h"
#include "perf-writer.h"
#include "tap.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *b;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	b = malloc((size_t)st.st_size + 1);
	if (b && read(fd, b, (size_t)st.st_size) != st.st_size) {
		free(b);
		b = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return b;
}

static uint64_t u64_at(const uint8_t *b, size_t off)
{
	uint64_t v;

	memcpy(&v, b + off, 8);
	return v;
}

struct rec {
	struct perf_event_header h;
	uint64_t payload;
};

int main(void)
{
	char path[] = "/tmp/test-writer.XXXXXX";
	struct perf_event_attr attr;
	uint64_t ids[2] = { 11, 22 };
	struct perf_writer *w = NULL;
	struct buf b = BUF_INIT;
	struct rec r = { { PERF_RECORD_SAMPLE, 0, sizeof(struct rec) }, 0 };
	uint8_t *f;
	size_t len, i;
	int fd, err;

	printf("TAP version 13\n");
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);

	check(perf_writer__new("/nonexistent-dir/x.data", &w) == -ENOENT,
	      "creating a file in a missing directory gives -ENOENT");

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER;
	err = perf_writer__new(path, &w);
	check(!err, "perf_writer__new");
	if (err)
		return 1;
	check(perf_writer__write(w, &r, sizeof(r)) == -EINVAL, "records before begin are refused");
	check(!perf_writer__add_attr(w, &attr, ids, 2), "add one attr with two ids");
	check(!perf_writer__begin(w), "begin");
	check(perf_writer__add_attr(w, &attr, ids, 2) == -EBUSY, "attrs after begin are refused");
	for (i = 0; i < 100; i++) {
		r.payload = i;
		perf_writer__write(w, &r, sizeof(r));
	}
	check(!perf_writer__flush(w), "flush");

	/* what a killed writer leaves */
	f = slurp(path, &len);
	check(f && u64_at(f, 0) == PERF_FILE_MAGIC && u64_at(f, 8) == sizeof(struct perf_file_header),
	      "magic and header size");
	check(f && u64_at(f, 16) == sizeof(struct perf_file_attr), "attr_size is one perf_file_attr");
	check(f && u64_at(f, 48) == 100 * sizeof(r), "after flush, data.size covers every record");
	check(f && !u64_at(f, 72) && !u64_at(f, 80) && !u64_at(f, 88) && !u64_at(f, 96),
	      "before finish, no feature is announced");
	if (f) {
		uint64_t attrs = u64_at(f, 24), data = u64_at(f, 40);
		const uint8_t *fa = f + attrs;
		uint64_t ids_off = u64_at(fa, sizeof(struct perf_event_attr));
		uint64_t ids_size = u64_at(fa, sizeof(struct perf_event_attr) + 8);

		check(ids_size == 16 && u64_at(f, ids_off) == 11 && u64_at(f, ids_off + 8) == 22,
		      "the attr's ids are where its section says");
		check(data + 100 * sizeof(r) == len, "records are contiguous from data.offset");
		check(u64_at(f, data + 99 * sizeof(r) + 8) == 99, "the last record is intact");
	}
	free(f);

	buf__append(&b, "abc", 3);
	check(!perf_writer__add_feature(w, 200, &b) && b.data == NULL, "a feature takes the buffer");
	buf__append_perf_string(&b, "host");
	check(!perf_writer__add_feature(w, PERF_FEAT_HOSTNAME, &b), "add HOSTNAME");
	buf__append(&b, "x", 1);
	check(perf_writer__add_feature(w, 200, &b) == -EEXIST, "the same feature twice is refused");
	buf__release(&b);
	check(perf_writer__add_feature(w, 0, &b) == -EINVAL && perf_writer__add_feature(w, 256, &b) == -EINVAL,
	      "feature ids outside 1..255 are refused");
	check(!perf_writer__finish(w), "finish");
	perf_writer__free(w);
	perf_writer__free(NULL);

	f = slurp(path, &len);
	if (f) {
		uint64_t data = u64_at(f, 40), dsize = u64_at(f, 48);
		uint64_t feat0 = u64_at(f, 72), feat3 = u64_at(f, 96);
		uint64_t s0off = u64_at(f, data + dsize), s0size = u64_at(f, data + dsize + 8);
		uint64_t s1off = u64_at(f, data + dsize + 16), s1size = u64_at(f, data + dsize + 24);
		uint32_t slen;

		check(feat0 == (1ull << PERF_FEAT_HOSTNAME) && feat3 == (1ull << (200 - 192)),
		      "the bitmap announces exactly HOSTNAME and 200");
		memcpy(&slen, f + s0off, 4);
		check(s0size == 4 + 64 && slen == 64 && !strcmp((char *)f + s0off + 4, "host"),
		      "HOSTNAME is a perf string padded to 64, first in id order");
		check(s1size == 3 && !memcmp(f + s1off, "abc", 3) && s1off + s1size == len,
		      "section 200 follows and ends the file");
	} else {
		check(0, "read back the finished file");
	}
	free(f);
	unlink(path);
	return tap_done();
}
