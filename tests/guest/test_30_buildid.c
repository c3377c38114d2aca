// SPDX-License-Identifier: GPL-2.0
/*
 * Cookies in MMAP3: build-ids equal what `readelf -n` printed for the file
 * on the host (NAME.id beside the library), wherever the note lies and
 * whether or not the page cache has seen the file; a replaced file and a
 * file rewritten in place get new cookies; a non-ELF file gets the content
 * cookie that userspace computes by the documented rule.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cookie.h"
#include "jsession.h"

static char dir[256];

/* dlopen in a child that stays until told; returns its pid, -1 on failure. */
static pid_t child_dlopen(const char *path, int *release_fd)
{
	int ready[2], release[2];
	pid_t pid;
	char c;

	if (pipe(ready) || pipe(release))
		return -1;
	pid = fork();
	if (pid == 0) {
		void *h;

		close(release[1]);
		close(ready[0]);
		h = dlopen(path, RTLD_NOW);

		c = h ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1 || read(release[0], &c, 1) < 0)
			_exit(2);
		_exit(h ? 0 : 1);
	}
	close(ready[1]);
	close(release[0]);
	if (pid < 0 || read(ready[0], &c, 1) != 1 || c != 'y') {
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	*release_fd = release[1];
	return pid;
}

static void test_dlopen(int fd, const char *lib, const char *what)
{
	struct js_records r = { 0 };
	const struct jmmap_rec_mmap3 *m;
	char path[512], want[64] = "", got[64];
	void *h;

	snprintf(path, sizeof(path), "%s/%s", dir, lib);
	js_read_id(dir, lib, want, sizeof(want));
	h = dlopen(path, RTLD_NOW);
	js_drain(fd, &r);
	m = js_find_exec_map(&r, getpid(), path);
	js_mmap3_cookie_hex(m, got);
	ktap_ok(h && m && m->cookie_kind == JMMAP_COOKIE_ELF_BUILD_ID && want[0] &&
			!strcmp(got, want),
		"%s: MMAP3 of dlopen'ed %s has build-id %s (readelf -n: %s)", what, lib, got, want);
	if (!m)
		js_dump(&r, getpid());
	if (h)
		dlclose(h);
	js_free(&r);
}

int main(int argc, char **argv)
{
	struct js_records r = { 0 };
	struct jrec_cookie uc;
	char self[256], path[512], src[512], tmp2[600], tmpd[] = "/tmp/jmmap-buildid.XXXXXX";
	char want[64], want2[64], got[64], got2[64], uhex[64];
	const struct jmmap_rec_mmap3 *ma, *mb;
	const char *scratch = getenv("JMMAP_SCRATCH");
	uint8_t kind, kind2;
	int fd, rel_a = -1, rel_b = -1, f, err;
	pid_t a, b;
	ssize_t n;

	ktap_begin();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		ktap_skip_all("no /proc/self/exe");
	self[n] = 0;
	snprintf(dir, sizeof(dir), "%s", dirname(self));
	if (js_read_id(dir, "libjm_a.so", want, sizeof(want)))
		ktap_skip_all("libjm_a.so.id missing beside the test");
	if (!mkdtemp(tmpd))
		ktap_skip_all("mkdtemp failed");
	fd = js_open_self(0, 0);

	test_dlopen(fd, "libjm_a.so", "buildid_equals_readelf");
	test_dlopen(fd, "libjm_late.so", "buildid_note_past_4k");

	/* A file the page cache has never seen: on a disk, after drop_caches. */
	if (scratch) {
		snprintf(path, sizeof(path), "%s/jmmap-cold-%d.so", scratch, getpid());
		snprintf(src, sizeof(src), "%s/libjm_late.so", dir);
		js_read_id(dir, "libjm_late.so", want, sizeof(want));
		err = js_copy_file(src, path, O_TRUNC);
		err |= js_drop_caches();
		err |= js_map_exec_cookie(fd, &r, path, got2, &kind);
		ktap_ok(!err && kind == JMMAP_COOKIE_ELF_BUILD_ID && !strcmp(got2, want),
			"buildid_cold_file: uncached %s gets %s (readelf -n: %s)", path, got2,
			want);
		unlink(path);
		js_free(&r);
	} else {
		ktap_skip("JMMAP_SCRATCH is not set: no disk for an uncached file",
			  "buildid_cold_file");
	}

	/* Replaced by rename: two processes, two ids. */
	snprintf(path, sizeof(path), "%s/libjm_r.so", tmpd);
	js_read_id(dir, "libjm_v1.so", want, sizeof(want));
	js_read_id(dir, "libjm_v2.so", want2, sizeof(want2));
	snprintf(src, sizeof(src), "%s/libjm_v1.so", dir);
	err = js_copy_file(src, path, O_TRUNC);
	a = err ? -1 : child_dlopen(path, &rel_a);
	snprintf(src, sizeof(src), "%s/libjm_v2.so", dir);
	snprintf(tmp2, sizeof(tmp2), "%s/new.so", tmpd);
	err = js_copy_file(src, tmp2, O_TRUNC) || rename(tmp2, path);
	b = err ? -1 : child_dlopen(path, &rel_b);
	js_drain(fd, &r);
	ma = a > 0 ? js_find_exec_map(&r, a, path) : NULL;
	mb = b > 0 ? js_find_exec_map(&r, b, path) : NULL;
	js_mmap3_cookie_hex(ma, got);
	js_mmap3_cookie_hex(mb, got2);
	ktap_ok(ma && !strcmp(got, want), "replaced_file_old_id: first process maps v1 (%s, want %s)",
		got, want);
	ktap_ok(mb && !strcmp(got2, want2),
		"replaced_file_new_id: after rename, second process maps v2 (%s, want %s)", got2,
		want2);
	if (!ma || !mb)
		js_dump(&r, 0);
	if (rel_a >= 0)
		close(rel_a);
	if (rel_b >= 0)
		close(rel_b);
	while (wait(NULL) > 0)
		;
	js_free(&r);

	/* Rewritten in place (same inode), after the first cookie was cached. */
	sleep(2);
	err = js_map_exec_cookie(fd, &r, path, got, &kind);
	js_free(&r);
	snprintf(src, sizeof(src), "%s/libjm_v1.so", dir);
	err |= js_copy_file(src, path, O_TRUNC);
	err |= js_map_exec_cookie(fd, &r, path, got2, &kind2);
	js_free(&r);
	ktap_ok(!err && !strcmp(got, want2) && !strcmp(got2, want),
		"rewritten_in_place_new_id: same inode, v2 then v1 content: %s then %s", got, got2);

	/* Non-ELF: the content cookie, equal to userspace's rule. */
	snprintf(path, sizeof(path), "%s/image.bin", tmpd);
	f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	{
		uint8_t buf[10000];
		size_t i;

		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)(i * 31 + 7);
		buf[0] = 'J';
		err = f < 0 || write(f, buf, sizeof(buf)) != (ssize_t)sizeof(buf);
		if (f >= 0)
			close(f);
	}
	err |= js_map_exec_cookie(fd, &r, path, got, &kind);
	js_free(&r);
	err |= jrec_cookie_from_path(path, &uc);
	jrec_cookie_hex(&uc, uhex);
	ktap_ok(!err && kind == JMMAP_COOKIE_CONTENT && uc.kind == JMMAP_COOKIE_CONTENT &&
			!strcmp(got, uhex),
		"non_elf_content_cookie: module %s, userspace rule %s", got, uhex);

	/* ... and rewritten in place after being cached. */
	sleep(2);
	err = js_map_exec_cookie(fd, &r, path, got, &kind);
	js_free(&r);
	f = open(path, O_WRONLY);
	err |= f < 0 || pwrite(f, "XYZ", 3, 100) != 3;
	if (f >= 0)
		close(f);
	err |= js_map_exec_cookie(fd, &r, path, got2, &kind);
	js_free(&r);
	err |= jrec_cookie_from_path(path, &uc);
	jrec_cookie_hex(&uc, uhex);
	ktap_ok(!err && strcmp(got, got2) && !strcmp(got2, uhex),
		"non_elf_rewritten_in_place: %s became %s (userspace %s)", got, got2, uhex);

	close(fd);
	snprintf(tmp2, sizeof(tmp2), "rm -rf %s", tmpd);
	if (system(tmp2))
		ktap_diag("could not remove %s", tmpd);
	(void)argc;
	(void)argv;
	return ktap_finish();
}
