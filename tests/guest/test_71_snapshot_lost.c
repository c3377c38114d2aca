// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot record that cannot be built is lost to the snapshot's own
 * session only: another session following the same process was not asked
 * for a snapshot and loses nothing. Debian's kernels have no fault
 * injection, so the module's parameter fail_snapshot_records makes the
 * next records of snapshots fail as a failed allocation does.
 */
#include <sys/wait.h>

#include "jsession.h"

#define PARAM "/sys/module/jmmap/parameters/fail_snapshot_records"

static int set_param(const char *v)
{
	int fd = open(PARAM, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok;
}

static int read_stats(int fd, struct jmmap_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(fd, JMMAP_IOC_GET_STATS, st);
}

/* The LOST records in @r and the MMAP3s they count, for @pid's snapshot. */
static void lost_records(struct js_records *r, size_t *nlost, uint64_t *mmap3_lost,
			 size_t *nsnap)
{
	*nlost = 0;
	*mmap3_lost = 0;
	*nsnap = 0;
	js_for_each(r, h) {
		if (h->type == JMMAP_REC_LOST) {
			const struct jmmap_rec_lost *l = (const void *)h;

			(*nlost)++;
			*mmap3_lost += l->lost[JMMAP_REC_MMAP3];
		} else if (h->type == JMMAP_REC_MMAP3 &&
			   ((const struct jmmap_rec_mmap3 *)h)->cause == JMMAP_CAUSE_SNAPSHOT) {
			(*nsnap)++;
		}
	}
}

int main(void)
{
	struct js_records ra = {0}, rb = {0};
	struct jmmap_stats sa, sb;
	int release[2], a, b, ok;
	size_t lost_a, lost_b, snap_a, snap_b;
	uint64_t counted_a, counted_b;
	pid_t child;
	char c;

	ktap_begin();
	if (access(PARAM, W_OK))
		ktap_skip_all(PARAM " cannot be written: is jmmap loaded?");
	if (pipe(release))
		ktap_skip_all("pipe failed");
	child = fork();
	if (child == 0) {
		close(release[1]);
		if (read(release[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(release[0]);

	/* B follows the child first, without a snapshot of its own */
	b = js_open(0, 0);
	if (b < 0 || js_add(b, child, JMMAP_TARGET_NO_SNAPSHOT))
		ktap_skip_all("cannot open a session following the child");
	a = js_open(0, 0);
	if (a < 0)
		ktap_skip_all("cannot open a second session");
	ok = set_param("100000");
	ktap_ok(ok, "param_set: " PARAM " set to 100000");
	ktap_ok(js_add(a, child, 0) == 0, "add_with_snapshot: A adds pid %d with a snapshot (%s)",
		child, strerror(errno));
	set_param("0");

	js_drain(a, &ra);
	js_drain(b, &rb);
	lost_records(&ra, &lost_a, &counted_a, &snap_a);
	lost_records(&rb, &lost_b, &counted_b, &snap_b);
	read_stats(a, &sa);
	read_stats(b, &sb);
	ktap_ok(snap_a == 0 && lost_a >= 1 && counted_a >= 2 && sa.lost[JMMAP_REC_MMAP3] == counted_a,
		"snapshot_lost_in_own_session: A got no snapshot record, %zu LOST record(s) counting "
		"%llu MMAP3 (stats %llu)",
		lost_a, (unsigned long long)counted_a,
		(unsigned long long)sa.lost[JMMAP_REC_MMAP3]);
	ktap_ok(lost_b == 0 && counted_b == 0 && sb.lost[JMMAP_REC_MMAP3] == 0 && rb.count == 0,
		"other_session_loses_nothing: B, which follows the same process, has %zu LOST "
		"record(s), %llu MMAP3 lost in its stats, %zu records",
		lost_b, (unsigned long long)sb.lost[JMMAP_REC_MMAP3], rb.count);

	/* with the parameter back at 0, a snapshot is whole again */
	js_free(&ra);
	close(a);
	a = js_open(0, 0);
	js_add(a, child, 0);
	js_drain(a, &ra);
	lost_records(&ra, &lost_a, &counted_a, &snap_a);
	ktap_ok(snap_a >= 2 && lost_a == 0,
		"snapshot_whole_again: %zu snapshot records, %zu LOST, once the parameter is 0",
		snap_a, lost_a);
	js_free(&ra);
	js_free(&rb);
	close(a);
	close(b);
	close(release[1]);
	waitpid(child, NULL, 0);
	return ktap_finish();
}
