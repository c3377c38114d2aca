// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record's output file: its writer with the events' attributes, and
 * --switch-output's rotation, which finishes the file as the end of the
 * recording does, renames it OUTPUT.<timestamp> as perf does and starts the
 * next one with the records of what exists already, so that each file is a
 * complete recording; with --switch-max-files, only the newest N files stay.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "perf-file.h"
#include "record.h"

/*
 * Each event's attribute with its fds' ids, named as perf names it (a
 * user-only recording's "cpu-clock" is "cpu-clock:u"); the groups in
 * GROUP_DESC.
 */
static int add_attrs(struct record *r)
{
	const struct event_list *l = &r->opts.events;
	uint64_t *ids;
	size_t n, i, k;
	int err = 0;

	ids = calloc(r->nr_fds + 1, sizeof(uint64_t));
	if (!ids)
		return -ENOMEM;
	for (k = 0; k < r->nr_ev && !err; k++) {
		const struct record_event *e = &r->ev[k];
		char name[96];

		for (i = n = 0; i < r->nr_fds; i++)
			if (r->fd_ev[i] == k)
				ids[n++] = r->ids[i];
		if (e->is_bpf)
			ids[n++] = r->offcpu_id;
		err = perf_writer__add_attr(r->w, &e->attr, ids, n);
		snprintf(name, sizeof(name), "%s%s", e->name,
			 e->attr.exclude_kernel && !e->is_cs && k < l->nr && !l->ev[k].has_modifiers
			     ? ":u"
			     : "");
		if (!err)
			err = perf_writer__name_attr(r->w, k, name);
	}
	for (k = 0; k < r->nr_ev && !err; k++)
		if (r->ev[k].leader == k && r->ev[k].nr_members > 1)
			err = perf_writer__group(r->w, k, r->ev[k].nr_members);
	free(ids);
	return err;
}

int output__open(struct record *r)
{
	int err = r->opts.pipe ? perf_writer__new_pipe(STDOUT_FILENO, &r->w)
			       : perf_writer__new(r->opts.output, &r->w);

	if (err) {
		fprintf(stderr, "jrec record: cannot create %s: %s\n", r->opts.output,
			strerror(-err));
		return err;
	}
	err = add_attrs(r);
	if (!err && r->opts.comp_level)
		err = perf_writer__set_compression(r->w, r->opts.comp_level);
	if (!err && r->opts.pipe)
		err = features__write_start(r); /* before the records, as perf's pipe has them */
	if (!err)
		err = perf_writer__begin(r->w);
	if (err)
		fprintf(stderr, "jrec record: cannot write %s: %s\n", r->opts.output,
			strerror(-err));
	return err;
}

/*
 * OUTPUT.<timestamp> as perf names its switched files: the local time
 * YYYYMMDDHHMMSS and hundredths of a second.
 */
static int timestamped(const char *output, char *name, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char dt[32];

	if (gettimeofday(&tv, NULL) || !localtime_r(&tv.tv_sec, &tm) ||
	    !strftime(dt, sizeof(dt), "%Y%m%d%H%M%S", &tm))
		return -EINVAL;
	if (snprintf(name, len, "%s.%s%02u", output, dt, (unsigned int)(tv.tv_usec / 10000)) >=
	    (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* The records of what exists already, at the head of a switched-to file. */
static int synth_existing(struct record *r)
{
	size_t i;
	int err;

	r->t0 = recorder__now();
	err = synth__kernel(r);
	for (i = 0; !err && i < r->opts.nr_pids; i++)
		err = synth__process(r, r->opts.pids[i]);
	if (!err && !r->opts.nr_pids && r->opts.system_wide)
		err = synth__all(r);
	else if (!err && !r->opts.nr_pids && r->child > 0 && !r->child_exited)
		err = synth__process(r, r->child);
	if (err == -ESRCH)
		err = 0; /* it exited meanwhile */
	return err ? err : perf_writer__flush(r->w);
}

/*
 * --switch-max-files N: the file just written takes the oldest's place in
 * the ring of the last N, and that one is removed, as perf does.
 */
static int keep_newest(struct record *r)
{
	unsigned int n = r->opts.switch_max_files, cur;
	char *name;

	if (!n)
		return 0;
	if (!r->kept) {
		r->kept = calloc(n, sizeof(*r->kept));
		if (!r->kept)
			return -ENOMEM;
		r->kept_cur = n - 1;
	}
	name = strdup(r->switched_name);
	if (!name)
		return -ENOMEM;
	cur = (r->kept_cur + 1) % n;
	if (r->kept[cur] && unlink(r->kept[cur]) && errno != ENOENT)
		fprintf(stderr, "jrec record: cannot remove %s: %s\n", r->kept[cur],
			strerror(errno));
	free(r->kept[cur]);
	r->kept[cur] = name;
	r->kept_cur = cur;
	return 0;
}

int output__switch(struct record *r, int at_exit)
{
	uint64_t samples = r->nr_samples - r->file_first_sample;
	int err;

	err = features__write(r, !at_exit);
	if (!err)
		err = perf_writer__finish(r->w);
	if (!err)
		err = timestamped(r->opts.output, r->switched_name, sizeof(r->switched_name));
	if (!err && rename(r->opts.output, r->switched_name))
		err = -errno;
	if (!err)
		err = keep_newest(r);
	if (err)
		return err;
	r->nr_switches++;
	if (!r->opts.quiet)
		fprintf(stderr, "[ jrec record: dump data: %s, %.3f MB, %llu samples ]\n",
			r->switched_name, (double)perf_writer__file_size(r->w) / (1024.0 * 1024.0),
			(unsigned long long)samples);
	if (at_exit)
		return 0;
	perf_writer__free(r->w);
	r->w = NULL;
	r->file_first_sample = r->nr_samples;
	r->file_t0 = recorder__now();
	err = output__open(r);
	return err ? err : synth_existing(r);
}
