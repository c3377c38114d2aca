// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's side-file helpers: the incremental jitdump copier keeps
 * only whole records however the bytes arrive, and the perf-map splitter
 * gives the same lines whatever the chunking.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/jitdump-copy.h"
#include "record/perfmap-watch.h"
#include "tap.h"

static size_t put32(uint8_t *b, size_t off, uint32_t v, int swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(b + off, &v, 4);
	return off + 4;
}

/* header (40) + records of sizes 16, 24, 32 */
static size_t make_dump(uint8_t *b, int swap)
{
	static const uint32_t sizes[] = {16, 24, 32};
	size_t off = 0, i;

	memset(b, 0, 256);
	put32(b, 0, JITDUMP_MAGIC, swap);
	put32(b, 4, 1, swap);
	put32(b, 8, 40, swap);
	off = 40;
	for (i = 0; i < 3; i++) {
		put32(b, off, 0, swap);
		put32(b, off + 4, sizes[i], swap);
		off += sizes[i];
	}
	return off;
}

struct lines {
	char text[4096];
	int n;
};

static int add_line(const char *line, size_t len, void *ctx)
{
	struct lines *l = ctx;

	strncat(l->text, line, len);
	strcat(l->text, "|");
	l->n++;
	return 0;
}

int main(void)
{
	uint8_t d[256];
	size_t len, committed, i;
	struct perfmap_split s = {BUF_INIT, 0, 0};
	struct lines a = {"", 0}, c = {"", 0};
	static const char map[] = "7f00 10 fn_a\r\n\n7f10 20 fn b\n7f30 8 tail";
	char *longline;
	int swap;

	printf("TAP version 13\n");
	for (swap = 0; swap < 2; swap++) {
		len = make_dump(d, swap);
		committed = 0;
		check(!jitdump__scan(d, 39, &committed) && committed == 0,
		      swap ? "swapped: half a header commits nothing"
			   : "half a header commits nothing");
		check(!jitdump__scan(d, 40 + 20, &committed) && committed == 56,
		      swap ? "swapped: header and the first whole record"
			   : "header and the first whole record, not the partial second");
		check(!jitdump__scan(d, len, &committed) && committed == len,
		      swap ? "swapped: everything once complete" : "everything once complete");
	}
	len = make_dump(d, 0);
	put32(d, 40 + 16 + 4, 8, 0); /* second record claims 8 bytes */
	committed = 0;
	check(jitdump__scan(d, len, &committed) == -EINVAL && committed == 56,
	      "an impossible record size stops at the last good record");
	committed = 0;
	check(jitdump__scan((const uint8_t *)"not a jitdump at all, no", 24, &committed) == -EINVAL,
	      "a wrong magic is -EINVAL");

	{
		/* the copier through a file descriptor, appended in two steps */
		char path[] = "/tmp/test-jitdump.XXXXXX";
		int fd = mkstemp(path), rfd;
		struct jitdump_copy *j = NULL;
		struct buf out = BUF_INIT;

		len = make_dump(d, 0);
		if (write(fd, d, 60) != 60)
			return 1;
		rfd = open(path, O_RDONLY);
		unlink(path); /* a runtime deleting its dump must not matter */
		check(!jitdump_copy__new(rfd, 42, 7, "/tmp/jit-42.dump", &j), "copier created");
		check(!jitdump_copy__update(j) && j->committed == 56,
		      "first update: whole records only");
		if (write(fd, d + 60, len - 60) != (ssize_t)(len - 60))
			return 1;
		check(!jitdump_copy__update(j) && j->committed == len, "second update: the rest");
		check(!jitdump_copy__emit(j, &out) && out.len == 24 + 24 + ((len + 7) & ~7u) &&
			  !memcmp(out.data + 24, "/tmp/jit-42.dump", 17) &&
			  !memcmp(out.data + 48, d, len),
		      "the JITDUMP entry: header, padded name, the copy");
		buf__release(&out);
		jitdump_copy__free(j);
		jitdump_copy__free(NULL);
		close(fd);
	}

	perfmap_split__feed(&s, map, sizeof(map) - 1, add_line, &a);
	check(a.n == 2 && !strcmp(a.text, "7f00 10 fn_a|7f10 20 fn b|"),
	      "complete lines only; CR and empty lines dropped; spaces kept in names");
	perfmap_split__feed(&s, "\n", 1, add_line, &a);
	check(a.n == 3 && strstr(a.text, "|7f30 8 tail|"),
	      "the last line once its newline arrives");
	perfmap_split__release(&s);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < sizeof(map) - 1; i++)
		perfmap_split__feed(&s, map + i, 1, add_line, &c);
	check(c.n == 2 && !strcmp(c.text, "7f00 10 fn_a|7f10 20 fn b|"),
	      "byte by byte: the same lines");
	perfmap_split__release(&s);
	memset(&s, 0, sizeof(s));
	longline = malloc(PERFMAP_LINE_MAX + 2);
	memset(longline, 'x', PERFMAP_LINE_MAX + 1);
	longline[PERFMAP_LINE_MAX + 1] = '\n';
	a.n = 0;
	a.text[0] = 0;
	perfmap_split__feed(&s, longline, PERFMAP_LINE_MAX + 2, add_line, &a);
	perfmap_split__feed(&s, "1 2 ok\n", 7, add_line, &a);
	check(a.n == 1 && s.dropped == 1 && !strcmp(a.text, "1 2 ok|"),
	      "an over-long line is dropped and counted; the next line is intact");
	free(longline);
	perfmap_split__release(&s);
	return tap_done();
}
