// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's perf-map watcher on this process's own map
 * (/tmp/perf-PID.map, removed at the end): with inotify, the map's creation
 * in /tmp and each write wake the watcher, a map replaced by a rename is read
 * from its start, and only whole lines are stored; without inotify, the map
 * is polled.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "jrec-sections.h"
#include "record/perfmap-watch.h"
#include "tap.h"

struct seen {
	size_t nr;
	char last[64];
};

static int on_rec(const struct jrec_perfmap_rec *l, void *ctx)
{
	struct seen *s = ctx;

	s->nr++;
	snprintf(s->last, sizeof(s->last), "%.*s", (int)l->len, l->line);
	return 0;
}

static struct seen stored(const struct buf *b)
{
	struct seen s = {0};

	jrec_perfmaps__walk(b->data, b->len, false, on_rec, &s);
	return s;
}

static void append(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		perror(path);
	if (fd >= 0)
		close(fd);
}

/* Wait up to a second for inotify; update @pm for each event that concerns it. How many did. */
static int pump(struct perfmap_watch *pm, int ifd, struct buf *out)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct pollfd p = {ifd, POLLIN, 0};
	int hits = 0;
	ssize_t n, off;

	if (poll(&p, 1, 1000) <= 0)
		return 0;
	while ((n = read(ifd, buf, sizeof(buf))) > 0) {
		for (off = 0; off + (ssize_t)sizeof(struct inotify_event) <= n;) {
			const struct inotify_event *ev = (const void *)(buf + off);

			if (perfmap_watch__wants(pm, ev)) {
				hits++;
				perfmap_watch__update(pm, ifd, 1, out);
			}
			off += (ssize_t)sizeof(*ev) + ev->len;
		}
	}
	return hits;
}

int main(void)
{
	struct perfmap_watch *pm = NULL;
	struct buf out = BUF_INIT;
	char path[64], tmp[80];
	struct seen s;
	int ifd, err;

	printf("TAP version 13\n");
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	unlink(path);
	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ifd < 0) {
		skip("perf-map watch with inotify", strerror(errno));
		return tap_done();
	}
	err = perfmap_watch__new((uint32_t)getpid(), ifd, &pm);
	check(!err && pm && !strcmp(pm->path, path) && !perfmap_watch__polled(pm),
	      "a map not yet created is watched through its /tmp, not polled");
	if (err) {
		close(ifd);
		return tap_done();
	}
	append(path, "1000 10 first\n20");
	check(pump(pm, ifd, &out) > 0 && pm->fd >= 0 && !perfmap_watch__polled(pm),
	      "the map's creation wakes the watcher; the file is then watched itself");
	s = stored(&out);
	check(s.nr == 1 && !strcmp(s.last, "1000 10 first"), "the whole line is stored, the half one kept");
	append(path, "00 10 second\n");
	check(pump(pm, ifd, &out) > 0, "a write to the map wakes the watcher");
	s = stored(&out);
	check(s.nr == 2 && !strcmp(s.last, "2000 10 second"), "the rest of the line completes it");
	append(tmp, "3000 10 replaced\n");
	rename(tmp, path);
	pump(pm, ifd, &out);
	s = stored(&out);
	check(s.nr == 3 && !strcmp(s.last, "3000 10 replaced"),
	      "a map replaced by a rename is read from its start");
	perfmap_watch__close(pm, ifd);
	perfmap_watch__free(pm);

	/* without inotify: polled, and read when updated */
	err = perfmap_watch__new((uint32_t)getpid(), -1, &pm);
	buf__release(&out);
	check(!err && perfmap_watch__polled(pm) && !perfmap_watch__update(pm, -1, 1, &out) &&
		      stored(&out).nr == 1,
	      "without inotify the map is polled, and read whole at the first update");
	perfmap_watch__free(pm);
	buf__release(&out);
	unlink(path);
	close(ifd);
	return tap_done();
}
