// SPDX-License-Identifier: GPL-2.0
/*
 * SNAPSHOT: adding a running process to a session emits MMAP3 records (cause
 * snapshot) for exactly the executable mappings /proc/PID/maps shows, with
 * their files' cookies. A snapshot that fails leaves the process as
 * followed as it was before the ioctl. Shared anonymous code has the same
 * shmem name in MMAP3 of every cause and in /proc/PID/maps.
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

/*
 * More executable mappings than a snapshot takes (65536): one page each,
 * apart from the next by a page that is not executable.
 */
#define MANY_EXEC (65536 + 1)
#define MAP_COUNT "/proc/sys/vm/max_map_count"

/* A child with MANY_EXEC code pages; each byte read maps one more, its address back. */
static void many_child(int req, int ans, void *arg)
{
	uint8_t *p;
	char c;
	long i;

	p = mmap(NULL, 2 * MANY_EXEC * JS_PAGE, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		_exit(2);
	for (i = 0; i < MANY_EXEC; i++)
		if (mprotect(p + 2 * i * JS_PAGE, JS_PAGE, PROT_READ | PROT_EXEC))
			_exit(3);
	p = NULL;
	while (write(ans, &p, sizeof(p)) == sizeof(p) && read(req, &c, 1) == 1)
		p = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* Whether session @fd gets the MMAP3 of a code page the child maps now. */
static int many_followed(int fd, int req, int ans)
{
	struct js_records r = { 0 };
	void *p = NULL;
	int found = 0;

	if (write(req, "m", 1) != 1 || read(ans, &p, sizeof(p)) != sizeof(p) || !p)
		return -1;
	js_drain(fd, &r);
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->start == (uintptr_t)p &&
		    m->cause == JMMAP_CAUSE_MMAP)
			found = 1;
	}
	js_free(&r);
	return found;
}

/*
 * A snapshot that fails (E2BIG): the process is not followed after it,
 * unless it already was.
 */
static void failed_snapshot(void)
{
	char old[32] = "";
	int req = -1, ans = -1, fd, fd2, e, ret;
	void *p;
	pid_t pid;
	FILE *f;

	f = fopen(MAP_COUNT, "r+");
	if (!f || !fgets(old, sizeof(old), f) || fseek(f, 0, SEEK_SET) ||
	    fprintf(f, "%d", 2 * MANY_EXEC + 1000) < 0 || fclose(f)) {
		ktap_skip("cannot raise " MAP_COUNT, "snapshot_too_many_e2big");
		return;
	}
	pid = js_fork_served(many_child, NULL, &req, &ans);
	if (pid < 0 || read(ans, &p, sizeof(p)) != sizeof(p)) {
		ktap_skip("the child could not make its mappings", "snapshot_too_many_e2big");
		goto out;
	}
	fd = js_open(0, 0);
	errno = 0;
	ret = js_add(fd, pid, 0);
	e = errno;
	ktap_ok(ret == -1 && e == E2BIG,
		"snapshot_too_many_e2big: ADD_TARGET of %d code mappings (%s)", MANY_EXEC,
		ret ? strerror(e) : "added");
	ret = many_followed(fd, req, ans);
	ktap_ok(ret == 0, "failed_add_target_not_followed: no MMAP3 after the failed ADD_TARGET (%s)",
		ret == 1 ? "followed" : ret == 0 ? "not followed" : "child failed");
	fd2 = js_open(0, 0);
	e = js_add(fd2, pid, JMMAP_TARGET_NO_SNAPSHOT) ? errno : 0;
	if (!e)
		e = js_add(fd2, pid, 0) ? errno : 0;
	ret = many_followed(fd2, req, ans);
	ktap_ok(e == E2BIG && ret == 1,
		"failed_snapshot_keeps_earlier_target: followed before, still followed (%s, %s)",
		strerror(e), ret == 1 ? "followed" : ret == 0 ? "not followed" : "child failed");
	close(fd);
	close(fd2);
out:
	close(req);
	close(ans);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	f = fopen(MAP_COUNT, "w");
	if (f) {
		fputs(old, f);
		fclose(f);
	}
}

/* The name of the MMAP3 of @cause at @addr in @r, or NULL; its inode in *ino. */
static const char *mmap3_name(struct js_records *r, void *addr, uint16_t cause, uint64_t *ino)
{
	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->start == (uintptr_t)addr && m->cause == cause) {
			*ino = m->ino;
			return js_mmap3_name(m);
		}
	}
	return NULL;
}

/*
 * Shared anonymous code appears under its shmem name, as /proc/PID/maps
 * shows it, whether mmap(), mprotect() or the snapshot reports it.
 */
static void shared_anon_names(void)
{
	struct js_records r = { 0 }, rs = { 0 };
	const char *mapped, *changed, *snap_a, *snap_b, *maps_a = NULL;
	uint64_t ino_m = 0, ino_c = 0, ino_sa = 1, ino_sb = 1;
	struct xmap maps[64];
	int fd, snap, n, i;
	void *a, *b;

	fd = js_open_self(0, 0);
	a = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	b = mmap(NULL, JS_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || b == MAP_FAILED || mprotect(b, JS_PAGE, PROT_READ | PROT_EXEC))
		ktap_diag("shared anonymous mappings failed");
	js_drain(fd, &r);
	snap = js_open(0, 0);
	js_add(snap, getpid(), 0);
	js_drain(snap, &rs);
	n = exec_maps(getpid(), maps, 64);
	for (i = 0; i < n; i++)
		if (maps[i].start == (uintptr_t)a)
			maps_a = maps[i].path;
	mapped = mmap3_name(&r, a, JMMAP_CAUSE_MMAP, &ino_m);
	changed = mmap3_name(&r, b, JMMAP_CAUSE_MPROTECT, &ino_c);
	snap_a = mmap3_name(&rs, a, JMMAP_CAUSE_SNAPSHOT, &ino_sa);
	snap_b = mmap3_name(&rs, b, JMMAP_CAUSE_SNAPSHOT, &ino_sb);
	ktap_ok(mapped && maps_a && snap_a && strcmp(mapped, "//anon") &&
			!strcmp(mapped, maps_a) && !strcmp(mapped, snap_a) && ino_m == ino_sa,
		"shared_anon_mmap_shmem_name: mmap \"%s\", maps \"%s\", snapshot \"%s\"",
		mapped ? mapped : "-", maps_a ? maps_a : "-", snap_a ? snap_a : "-");
	ktap_ok(changed && snap_b && strcmp(changed, "//anon") && !strcmp(changed, snap_b) &&
			ino_c == ino_sb,
		"shared_anon_mprotect_shmem_name: mprotect \"%s\", snapshot \"%s\"",
		changed ? changed : "-", snap_b ? snap_b : "-");
	js_free(&r);
	js_free(&rs);
	close(snap);
	close(fd);
	munmap(a, JS_PAGE);
	munmap(b, JS_PAGE);
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
	failed_snapshot();
	shared_anon_names();
	return ktap_finish();
}
