// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer: the layout perf expects (header, ids, attrs, data,
 * section table right after the data, sections in id order), the data size
 * kept current by every flush so a killed writer leaves a readable prefix,
 * and nothing announced in the feature bitmap before finish; with -z, the
 * records in COMPRESSED records that libzstd alone gives back. Files are
 * read back byte by byte here, independently of the writer's own structs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "perf-file.h"
#include "perf-reader.h"
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

/*
 * Pipe mode: the 16-byte header, a HEADER_ATTR with the ids, the feature
 * queued before begin() as a HEADER_FEATURE (and EVENT_DESC's name), the
 * record, FINISHED_INIT, then a section of jrec's queued after begin(),
 * bigger than a piece, put back together from its JRPS pieces; nothing
 * written at an offset (the stream is read in order).
 */
static void pipe_mode(const struct perf_event_attr *attr)
{
	char path[] = "/tmp/test-writer-pipe.XXXXXX";
	uint64_t ids[2] = { 7, 9 }, id;
	struct rec r = { { PERF_RECORD_SAMPLE, 0, sizeof(struct rec) }, 0x1234 };
	struct perf_writer *w = NULL;
	struct buf host = BUF_INIT, big = BUF_INIT;
	size_t len = 0, o, big_len = 3 * JREC_PIPE_SECTION_PIECE / 2 + 5, got = 0, i;
	uint8_t *f = NULL, *back;
	int fd = mkstemp(path), err, seen_attr = 0, seen_host = 0, seen_desc = 0, seen_rec = 0,
	    seen_init = 0, pieces = 0, order_ok = 1, last = 0;

	if (fd < 0) {
		check(0, "pipe mode: a temporary file");
		return;
	}
	back = calloc(1, big_len);
	err = buf__append_perf_string(&host, "pipehost");
	for (i = 0; i < big_len && !err; i++)
		err = buf__append(&big, &(uint8_t){ (uint8_t)(i * 7) }, 1);
	if (!err)
		err = perf_writer__new_pipe(fd, &w);
	if (!err)
		err = perf_writer__add_attr(w, attr, ids, 2);
	if (!err)
		err = perf_writer__name_attr(w, 0, "cpu-clock:u");
	if (!err)
		err = perf_writer__add_feature(w, PERF_FEAT_HOSTNAME, &host);
	check(!err && perf_writer__is_pipe(w), "pipe mode: a writer on an fd");
	if (!err)
		err = perf_writer__begin(w);
	if (!err)
		err = perf_writer__write(w, &r, sizeof(r));
	if (!err)
		err = perf_writer__finished_init(w);
	if (!err)
		err = perf_writer__add_feature(w, 200, &big);
	if (!err)
		err = perf_writer__finish(w);
	perf_writer__free(w);
	check(!err && fcntl(fd, F_GETFD) >= 0, "pipe mode: written, the fd left open");
	close(fd);
	f = slurp(path, &len);
	check(f && len > 16 && u64_at(f, 0) == PERF_FILE_MAGIC && u64_at(f, 8) == 16,
	      "pipe mode: PERFILE2 and 16, the pipe header");
	for (o = 16; f && o + 8 <= len;) {
		struct perf_event_header h;

		memcpy(&h, f + o, sizeof(h));
		if (h.size < 8 || o + h.size > len)
			break;
		if (h.type == PERF_RECORD_HEADER_ATTR) {
			seen_attr = h.size == 8 + sizeof(*attr) + 16 && u64_at(f, o + 8 + sizeof(*attr)) == 7 &&
				    u64_at(f, o + 16 + sizeof(*attr)) == 9;
			order_ok &= last == 0;
			last = 1;
		} else if (h.type == PERF_RECORD_HEADER_FEATURE) {
			id = u64_at(f, o + 8);
			seen_host |= id == PERF_FEAT_HOSTNAME && !memcmp(f + o + 20, "pipehost", 9);
			seen_desc |= id == PERF_FEAT_EVENT_DESC &&
				     memmem(f + o, h.size, "cpu-clock:u", 11) != NULL;
			order_ok &= last == 1 || last == 2;
			last = 2;
		} else if (h.type == PERF_RECORD_SAMPLE) {
			seen_rec = h.size == sizeof(r) && u64_at(f, o + 8) == 0x1234;
			order_ok &= last == 2;
			last = 3;
		} else if (h.type == PERF_RECORD_FINISHED_INIT) {
			seen_init = 1;
			order_ok &= last == 3;
			last = 4;
		} else if (h.type == PERF_RECORD_HEADER_EVENT_TYPE && h.size >= 32) {
			struct jrec_pipe_section p;
			size_t n;

			memcpy(&p, f + o, sizeof(p));
			n = p.total - p.offset < h.size - 32u ? p.total - p.offset : h.size - 32u;
			if (p.magic == JREC_PIPE_SECTION_MAGIC && p.feature == 200 &&
			    p.total == big_len && p.offset == got && h.size % 8 == 0) {
				memcpy(back + got, f + o + 32, n);
				got += n;
				pieces++;
			}
			order_ok &= last == 4 || last == 5;
			last = 5;
		}
		o += h.size;
	}
	check(seen_attr, "pipe mode: HEADER_ATTR with the attr and its two ids");
	check(seen_host && seen_desc, "pipe mode: HOSTNAME and EVENT_DESC (the name) as HEADER_FEATUREs");
	check(seen_rec && seen_init, "pipe mode: the record, then FINISHED_INIT");
	for (i = 0; i < big_len && got == big_len; i++)
		got -= back[i] != (uint8_t)(i * 7); /* the bytes given, (i * 7) & 0xff */
	check(pieces == 2 && got == big_len && o == len,
	      "pipe mode: a section of jrec's after begin() comes back whole from its two pieces");
	check(order_ok, "pipe mode: attrs, features, records, FINISHED_INIT, then the pieces, in order");
	free(back);
	free(f);
	buf__release(&big);
	buf__release(&host);
	unlink(path);
}

#define NR_ZREC 40000

static int count_rec(const struct pr_event *ev, void *ctx)
{
	uint64_t *n = ctx, v;

	memcpy(&v, (const uint8_t *)ev->raw + 8, 8);
	if (ev->type == 99 && v == *n)
		(*n)++;
	return 0;
}

/*
 * -z: the records go into PERF_RECORD_COMPRESSED records, one zstd stream
 * over all of them (decompressed here with libzstd alone), and the
 * COMPRESSED feature says zstd, the level and the buffer a record needs.
 */
static void compressed(const struct perf_event_attr *attr)
{
	char path[] = "/tmp/test-writer-z.XXXXXX";
	struct rec r = { { 99, 0, sizeof(struct rec) }, 0 };
	uint64_t id = 1, raw, comp, n = 0, data, dsize, off, feat;
	struct perf_writer *w = NULL;
	struct perf_reader *pr;
	ZSTD_DStream *ds = ZSTD_createDStream();
	uint8_t *f, *out = malloc(NR_ZREC * sizeof(r));
	size_t len, i, got = 0, only81 = 1;
	int fd = mkstemp(path);

	if (fd < 0 || !ds || !out)
		return;
	close(fd);
	check(!perf_writer__new(path, &w) && !perf_writer__add_attr(w, attr, &id, 1) &&
		  !perf_writer__set_compression(w, 3) && !perf_writer__begin(w),
	      "-z: a writer compressing at level 3");
	check(perf_writer__set_compression(w, 3) == -EINVAL, "-z: not once records may come");
	for (i = 0; i < NR_ZREC; i++) {
		r.payload = i;
		perf_writer__write(w, &r, sizeof(r));
		if (i % 1000 == 999)
			perf_writer__flush(w); /* as the recorder does after each pass */
	}
	check(!perf_writer__finish(w), "-z: finish");
	perf_writer__compression(w, &raw, &comp);
	check(raw == NR_ZREC * sizeof(r) && comp && comp < raw / 4,
	      "-z: every record went in; alike records shrink to under a quarter");
	perf_writer__free(w);
	f = slurp(path, &len);
	if (!f) {
		check(0, "-z: read back");
		goto out;
	}
	data = u64_at(f, 40);
	dsize = u64_at(f, 48);
	for (off = data; off + 8 <= data + dsize;) {
		struct perf_event_header h;
		ZSTD_inBuffer in;
		ZSTD_outBuffer o = {out + got, NR_ZREC * sizeof(r) - got, 0};

		memcpy(&h, f + off, sizeof(h));
		if (h.type != 81 || h.size <= 8) {
			only81 = 0;
			break;
		}
		in = (ZSTD_inBuffer){f + off + 8, h.size - 8u, 0};
		while (in.pos < in.size && !ZSTD_isError(ZSTD_decompressStream(ds, &o, &in)))
			;
		only81 &= o.pos > 0; /* perf refuses a record that decompresses to nothing */
		got += o.pos;
		off += h.size;
	}
	check(only81 && off == data + dsize, "-z: the data section is COMPRESSED records, each with records in it");
	for (i = 0; got == NR_ZREC * sizeof(r) && i < NR_ZREC; i++)
		if (u64_at(out, i * sizeof(r) + 8) != i)
			break;
	check(got == NR_ZREC * sizeof(r) && i == NR_ZREC,
	      "-z: libzstd alone gives back every record, in order");
	feat = u64_at(f, 72);
	if (feat & (1ull << PERF_FEAT_COMPRESSED)) {
		uint32_t v[5];

		memcpy(v, f + u64_at(f, data + dsize), sizeof(v));
		check(v[0] == 0 && v[1] == 1 && v[2] == 3 && v[4] >= 256 * 1024,
		      "-z: COMPRESSED says version 0, zstd, level 3, a buffer of at least 256 KiB");
	} else {
		check(0, "-z: the COMPRESSED feature is announced");
	}
	check(!perf_reader__open(path, &pr, NULL, 0) &&
		  !perf_reader__for_each_event(pr, count_rec, &n) && n == NR_ZREC,
	      "-z: perf_reader hands out every record, in order");
	perf_reader__close(pr);
	free(f);
out:
	ZSTD_freeDStream(ds);
	free(out);
	unlink(path);
}

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
		uint64_t toff = u64_at(f, 56), tsize = u64_at(f, 64);
		uint32_t slen, id = 0, nr = 0;
		uint64_t s1off = 0, s1size = 0;

		check(feat0 == (1ull << PERF_FEAT_HOSTNAME) && !u64_at(f, 80) && !u64_at(f, 88) &&
			  !feat3,
		      "the bitmap announces exactly HOSTNAME: no private id, which perf inject dies on");
		memcpy(&slen, f + s0off, 4);
		check(s0size == 4 + 64 && slen == 64 && !strcmp((char *)f + s0off + 4, "host"),
		      "HOSTNAME is a perf string padded to 64, first in id order");
		if (tsize == sizeof(struct jrec_section_table) + sizeof(struct jrec_section_ref) &&
		    toff + tsize == len && toff % 8 == 0 && toff >= s0off + s0size) {
			memcpy(&nr, f + toff + 12, 4);
			memcpy(&id, f + toff + 16, 4);
			s1off = u64_at(f, toff + 24);
			s1size = u64_at(f, toff + 32);
		}
		check(u64_at(f, toff) == JREC_SECTIONS_MAGIC && nr == 1 && id == 200,
		      "event_types points at the table of private sections, at the end: one entry, 200");
		check(s1size == 3 && s1off == s0off + s0size && !memcmp(f + s1off, "abc", 3),
		      "section 200 follows HOSTNAME");
	} else {
		check(0, "read back the finished file");
	}
	free(f);
	unlink(path);
	compressed(&attr);
	pipe_mode(&attr);
	return tap_done();
}
