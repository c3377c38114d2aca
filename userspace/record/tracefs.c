// SPDX-License-Identifier: GPL-2.0
/* tracefs for jrec record's tracepoints (tracefs.h). */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs.h"
#include "tracefs.h"
#include "tracing-data.h"

static int usable(const char *dir)
{
	char path[4200];

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return 0;
	return !access(path, R_OK | X_OK);
}

int tracefs__find(char *dir, size_t len)
{
	static const char *const known[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	char line[4096], mnt[4096], type[64];
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (usable(known[i])) {
			snprintf(dir, len, "%s", known[i]);
			return 0;
		}
	}
	f = fopen("/proc/mounts", "re");
	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", mnt, type) == 2 && !strcmp(type, "tracefs") &&
		    usable(mnt)) {
			snprintf(dir, len, "%s", mnt);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

int tracefs__tp_id(const char *dir, const char *sys, const char *name, uint64_t *id, char *path,
		   size_t plen)
{
	struct buf b = BUF_INIT;
	char text[32] = "", *end;
	int err;

	snprintf(path, plen, "%s/events/%s/%s/id", dir, sys, name);
	err = procfs_read_file(path, &b);
	if (!err) {
		memcpy(text, b.data, b.len < sizeof(text) - 1 ? b.len : sizeof(text) - 1);
		*id = strtoull(text, &end, 10);
		if (end == text || (*end && *end != '\n'))
			err = -EINVAL;
	}
	buf__release(&b);
	return err;
}

/* The subdirectories of @path matching @pat, in directory order, to @fn. */
static int each_dir(const char *path, const char *pat, int (*fn)(const char *, void *), void *arg)
{
	struct dirent *d;
	DIR *dir = opendir(path);
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) ||
		    fnmatch(pat, d->d_name, 0))
			continue;
		err = fn(d->d_name, arg);
	}
	closedir(dir);
	return err;
}

struct glob_walk {
	const char *dir, *name;
	char sys[64];
	char (*out)[2][64];
	size_t max, nr;
};

static int add_event(const char *name, void *arg)
{
	struct glob_walk *w = arg;

	if (w->nr == w->max)
		return -E2BIG;
	snprintf(w->out[w->nr][0], sizeof(w->out[0][0]), "%s", w->sys);
	snprintf(w->out[w->nr][1], sizeof(w->out[0][1]), "%s", name);
	w->nr++;
	return 0;
}

static int add_system(const char *sys, void *arg)
{
	struct glob_walk *w = arg;
	char path[4400];

	snprintf(w->sys, sizeof(w->sys), "%s", sys);
	snprintf(path, sizeof(path), "%s/events/%s", w->dir, sys);
	return each_dir(path, w->name, add_event, w);
}

int tracefs__glob(const char *dir, const char *sys, const char *name, char (*out)[2][64],
		  size_t max, size_t *nr)
{
	struct glob_walk w = {dir, name, "", out, max, 0};
	char path[4200];
	int err;

	snprintf(path, sizeof(path), "%s/events", dir);
	err = each_dir(path, sys, add_system, &w);
	*nr = w.nr;
	return err == -ENOENT ? 0 : err;
}

static int read_in(const char *dir, const char *rel, struct buf *b)
{
	char path[4400];

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return procfs_read_file(path, b);
}

int tracefs__tracing_data(const char *dir, const struct event_list *l, struct buf *out)
{
	struct tracing_data_event ev[EVENT_LIST_MAX];
	struct buf fmt[EVENT_LIST_MAX], hp = BUF_INIT, he = BUF_INIT, pk = BUF_INIT, cl = BUF_INIT;
	const struct event_spec *tp[EVENT_LIST_MAX];
	size_t n = 0, i, k;
	int err = 0;

	/* each tracepoint once, those of a system together in the order first named */
	for (i = 0; i < l->nr; i++) {
		const struct event_spec *e = &l->ev[i];
		int dup = 0;

		if (!e->tracepoint)
			continue;
		for (k = 0; k < n && !dup; k++)
			dup = !strcmp(tp[k]->tp_sys, e->tp_sys) &&
			      !strcmp(tp[k]->tp_name, e->tp_name);
		if (dup)
			continue;
		for (k = n; k > 0 && strcmp(tp[k - 1]->tp_sys, e->tp_sys); k--)
			;
		if (!k) /* a system not seen yet goes last */
			k = n;
		memmove(&tp[k + 1], &tp[k], (n - k) * sizeof(tp[0]));
		tp[k] = e;
		n++;
	}
	for (i = 0; i < n; i++)
		fmt[i] = (struct buf)BUF_INIT;
	for (i = 0; i < n && !err; i++) {
		char rel[256];

		snprintf(rel, sizeof(rel), "events/%s/%s/format", tp[i]->tp_sys, tp[i]->tp_name);
		err = read_in(dir, rel, &fmt[i]);
		ev[i] = (struct tracing_data_event){tp[i]->tp_sys, &fmt[i]};
	}
	if (!err)
		err = read_in(dir, "events/header_page", &hp);
	if (!err)
		err = read_in(dir, "events/header_event", &he);
	if (!err && read_in(dir, "printk_formats", &pk))
		buf__release(&pk); /* optional, as for perf */
	if (!err && read_in(dir, "saved_cmdlines", &cl))
		buf__release(&cl);
	if (!err) {
		struct tracing_data_in in = {
		    (uint32_t)sysconf(_SC_PAGESIZE), &hp, &he, &pk, &cl, ev, n};

		err = tracing_data__emit(out, &in);
	}
	for (i = 0; i < n; i++)
		buf__release(&fmt[i]);
	buf__release(&hp);
	buf__release(&he);
	buf__release(&pk);
	buf__release(&cl);
	return err;
}
