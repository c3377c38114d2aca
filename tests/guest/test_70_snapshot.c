// SPDX-License-Identifier: GPL-2.0
/*
 * SNAPSHOT: adding a running process to a session emits MMAP3 records (cause
 * snapshot) for exactly the executable mappings /proc/PID/maps shows, with
 * their files' cookies.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <sys/wait.h>

#include "jsession.h"

struct xmap {
	unsigned long start, end;
	char path[256];
};

static int exec_maps(pid_t pid, struct xmap *out, int max)
{
	char path[64], line[512], perms[8];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned long s, e;
		int off = 0;

		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &s, &e, perms, &off) < 3)
			continue;
		if (perms[2] != 'x')
			continue;
		out[n].start = s;
		out[n].end = e;
		snprintf(out[n].path, sizeof(out[n].path), "%s", off ? line + off : "");
		out[n].path[strcspn(out[n].path, "\n")] = 0;
		n++;
	}
	fclose(f);
	return n;
}

int main(void)
{
	struct js_records r = { 0 };
	struct xmap maps[64];
	char self[256], lib[512], want[64] = "", hex[64], idpath[600];
	int ready[2], release[2], fd, n, i, matched = 0, snaps = 0, lib_ok = 0;
	pid_t child;
	ssize_t len;
	FILE *f;
	char c;

	ktap_begin();
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		ktap_skip_all("no /proc/self/exe");
	self[len] = 0;
	snprintf(lib, sizeof(lib), "%s/libjm_a.so", dirname(self));
	snprintf(idpath, sizeof(idpath), "%s.id", lib);
	f = fopen(idpath, "r");
	if (!f || !fgets(want, sizeof(want), f))
		ktap_skip_all("libjm_a.so.id missing beside the test");
	fclose(f);
	want[strcspn(want, "\n")] = 0;

	if (pipe(ready) || pipe(release))
		ktap_skip_all("pipe failed");
	child = fork();
	if (child == 0) {
		close(ready[0]);
		close(release[1]);
		c = dlopen(lib, RTLD_NOW) ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1 || read(release[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(ready[1]);
	close(release[0]);
	if (read(ready[0], &c, 1) != 1 || c != 'y')
		ktap_skip_all("the child could not dlopen libjm_a.so");

	fd = js_open(0, 0);
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap");
	ktap_ok(js_add(fd, child, 0) == 0, "add_target_running_process: ADD_TARGET of pid %d", child);
	js_drain(fd, &r);
	n = exec_maps(child, maps, 64);

	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type != JMMAP_REC_MMAP3 || m->pid != (uint32_t)child ||
		    m->cause != JMMAP_CAUSE_SNAPSHOT)
			continue;
		snaps++;
		for (i = 0; i < n; i++) {
			if (maps[i].start == m->start && maps[i].end == m->start + m->len &&
			    (!strcmp(maps[i].path, js_mmap3_name(m)) ||
			     (!maps[i].path[0] && !strcmp(js_mmap3_name(m), "//anon")) ||
			     maps[i].path[0] == '['))
				matched++;
		}
		if (!strcmp(js_mmap3_name(m), lib)) {
			js_hex(m->cookie, m->cookie_len, hex);
			lib_ok = m->cookie_kind == JMMAP_COOKIE_ELF_BUILD_ID && !strcmp(hex, want);
		}
	}
	ktap_ok(n > 0 && snaps == n && matched == n,
		"snapshot_matches_proc_maps: %d SNAPSHOT records, %d executable maps, %d matched",
		snaps, n, matched);
	ktap_ok(lib_ok, "snapshot_carries_cookie: libjm_a.so's record has its build-id %s", want);
	if (snaps != n || matched != n || !lib_ok) {
		for (i = 0; i < n; i++)
			ktap_diag("maps: %lx-%lx %s", maps[i].start, maps[i].end, maps[i].path);
		js_dump(&r, child);
	}
	js_free(&r);

	/* NO_SNAPSHOT: nothing. */
	close(fd);
	fd = js_open(0, 0);
	js_add(fd, child, JMMAP_TARGET_NO_SNAPSHOT);
	js_drain(fd, &r);
	ktap_ok(r.count == 0, "no_snapshot_flag: JMMAP_TARGET_NO_SNAPSHOT emits nothing (%zu)",
		r.count);
	js_free(&r);
	close(fd);
	close(release[1]);
	waitpid(child, NULL, 0);
	return ktap_finish();
}
