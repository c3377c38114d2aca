// SPDX-License-Identifier: GPL-2.0
/*
 * The build-id cache writer: a mapped file is saved under its cookie,
 * byte-identical, once; a second cache run finds it cached; a mapping record
 * whose cookie does not match the file is recorded as a mismatch and not
 * saved; a process that is gone, with a path that now names another inode,
 * is recorded as vanished; without a directory nothing is saved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf-file.h"
#include "record/bidcache.h"
#include "tap.h"

static int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb, ca, cb;

	while (same) {
		ca = fgetc(fa);
		cb = fgetc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* Run one cache over maps[] and return the results' statuses in order. */
static size_t run(const char *dir, const struct bidcache_map *maps, size_t n, uint16_t *status,
		  struct jrec_cookie *cookies)
{
	const struct bidcache_result *res;
	struct bidcache *c = NULL;
	size_t i, nr;

	if (bidcache__new(dir, &c))
		return 0;
	for (i = 0; i < n; i++)
		bidcache__add(c, &maps[i]);
	bidcache__stop(c);
	nr = bidcache__results(c, &res);
	for (i = 0; i < nr; i++) {
		status[i] = res[i].status;
		cookies[i] = res[i].cookie;
	}
	bidcache__free(c);
	return nr;
}

int main(void)
{
	char exe[4096], dir[] = "/tmp/test-bidcache.XXXXXX", path[8300], hex[JREC_COOKIE_HEX_LEN];
	struct bidcache_map m[3];
	struct jrec_cookie ck, got[4];
	uint16_t st[4];
	struct stat sb, cs;
	ssize_t n;
	void *map;
	size_t nr;
	long page = sysconf(_SC_PAGESIZE);
	int fd;
	pid_t dead;

	printf("TAP version 13\n");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !mkdtemp(dir))
		return 1;
	exe[n] = '\0';
	fd = open(exe, O_RDONLY);
	map = mmap(NULL, (size_t)page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (fd < 0 || map == MAP_FAILED || fstat(fd, &sb) || jrec_cookie_from_fd(fd, &ck))
		return 1;
	jrec_cookie_hex(&ck, hex);

	memset(m, 0, sizeof(m));
	m[0].pid = (uint32_t)getpid();
	m[0].start = (uintptr_t)map;
	m[0].end = (uintptr_t)map + (uint64_t)page;
	m[0].path = exe;
	m[0].cookie = ck;
	m[1] = m[0]; /* the same mapping again: deduplicated */
	nr = run(dir, m, 2, st, got);
	snprintf(path, sizeof(path), "%s/%s/file", dir, hex);
	check(nr == 1 && st[0] == JREC_FILE_SAVED, "a mapped file is saved, once");
	check(same_file(path, exe), "the copy under DIR/<cookie>/file is byte-identical");
	if (!stat(dir, &cs) && cs.st_dev == sb.st_dev)
		check(!stat(path, &cs) && cs.st_ino == sb.st_ino && cs.st_dev == sb.st_dev,
		      "on the mapped file's filesystem, the entry is a hard link to its inode");
	else
		skip("on the mapped file's filesystem, the entry is a hard link to its inode",
		     "the cache is on another filesystem than the test binary");

	nr = run(dir, m, 1, st, got);
	check(nr == 1 && st[0] == JREC_FILE_CACHED, "a second run finds it cached");

	m[2] = m[0];
	m[2].cookie.bytes[0] ^= 0xff; /* what a replaced file looks like */
	nr = run(dir, &m[2], 1, st, got);
	check(nr == 1 && st[0] == JREC_FILE_MISMATCH && got[0].bytes[0] == m[2].cookie.bytes[0],
	      "a cookie mismatch is recorded with the expected cookie, not saved");

	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	memset(&m[2], 0, sizeof(m[2]));
	m[2].pid = (uint32_t)dead;
	m[2].start = 0x1000;
	m[2].end = 0x2000;
	m[2].path = exe;
	m[2].dev_major = major(sb.st_dev);
	m[2].dev_minor = minor(sb.st_dev);
	m[2].ino = sb.st_ino;
	nr = run(dir, &m[2], 1, st, got);
	check(nr == 1 && st[0] == JREC_FILE_CACHED,
	      "process gone, no cookie, the path still names the mapped inode: used");
	m[2].ino = sb.st_ino + 1; /* the path now names another inode */
	nr = run(dir, &m[2], 1, st, got);
	check(nr == 1 && st[0] == JREC_FILE_VANISHED,
	      "process gone and the path names another inode: vanished");

	nr = run(NULL, m, 1, st, got);
	check(nr == 1 && st[0] == JREC_FILE_NOT_SAVED && got[0].len == ck.len &&
		  !memcmp(got[0].bytes, ck.bytes, ck.len),
	      "without a directory: identified, not saved");

	bidcache__free(NULL);
	snprintf(path, sizeof(path), "%s/%s/file", dir, hex);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s/path", dir, hex);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, hex);
	rmdir(path);
	rmdir(dir);
	return tap_done();
}
