// SPDX-License-Identifier: GPL-2.0
/*
 * The user-side cookie rule against independent tools: build-ids against
 * what `readelf -n` prints, content cookies against `sha256sum` of the byte
 * stream the rule in jmmap.h describes, written out by this test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cookie.h"
#include "tap.h"

/* Run cmd and copy the first line of its output matching prefix, after it. */
static int run_grab(const char *cmd, const char *prefix, char *out, size_t outlen)
{
	char line[512];
	FILE *p = popen(cmd, "r");
	int found = -1;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *at = strstr(line, prefix);

		if (found == 0 || !at)
			continue;
		at += strlen(prefix);
		at[strcspn(at, " \t\r\n")] = '\0';
		snprintf(out, outlen, "%s", at);
		found = 0;
	}
	if (pclose(p) != 0)
		return -1;
	return found;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * The expected content cookie of data[0..size): write the rule's byte stream
 * to a file and let sha256sum hash it; the cookie is the first 40 hex digits.
 */
static int expected_content(const char *dir, const uint8_t *data, size_t size, char *hex)
{
	size_t edge = size < JMMAP_CONTENT_COOKIE_EDGE ? size : JMMAP_CONTENT_COOKIE_EDGE;
	size_t total = JMMAP_CONTENT_COOKIE_TAG_LEN + 8 + 2 * edge;
	uint8_t *s = calloc(1, total);
	char path[256], cmd[320], sum[80];
	int i, err;

	if (!s)
		return -1;
	memcpy(s, JMMAP_CONTENT_COOKIE_TAG, strlen(JMMAP_CONTENT_COOKIE_TAG));
	for (i = 0; i < 8; i++)
		s[JMMAP_CONTENT_COOKIE_TAG_LEN + i] = (uint8_t)((uint64_t)size >> (8 * i));
	memcpy(s + JMMAP_CONTENT_COOKIE_TAG_LEN + 8, data, edge);
	memcpy(s + JMMAP_CONTENT_COOKIE_TAG_LEN + 8 + edge, data + size - edge, edge);
	snprintf(path, sizeof(path), "%s/stream", dir);
	err = write_file(path, s, total);
	free(s);
	if (err)
		return -1;
	snprintf(cmd, sizeof(cmd), "sha256sum '%s'", path);
	if (run_grab(cmd, "", sum, sizeof(sum)) || strlen(sum) != 64)
		return -1;
	memcpy(hex, sum, 40);
	hex[40] = '\0';
	return 0;
}

static void test_content(const char *dir, size_t size, const char *what)
{
	uint8_t *data = malloc(size ? size : 1);
	struct jrec_cookie c = { 0 }, c2 = { 0 };
	char path[256], want[48] = "", got[JREC_COOKIE_HEX_LEN], name[128];
	size_t i;
	int fd, err = -1, err2 = -1;

	for (i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 7 + (i >> 12) * 13 + 1);
	data[0] = '#'; /* never an ELF magic */
	snprintf(path, sizeof(path), "%s/content", dir);
	if (write_file(path, data, size) == 0 && expected_content(dir, data, size, want) == 0) {
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			err = jrec_cookie_content(fd, &c);
			close(fd);
		}
		err2 = jrec_cookie_from_path(path, &c2);
	}
	jrec_cookie_hex(&c, got);
	if (err || strcmp(got, want))
		printf("# content %s: got %s err %d, sha256sum says %s\n", what, got, err, want);
	snprintf(name, sizeof(name), "content cookie of %s equals sha256sum of the rule's stream",
		 what);
	check(!err && c.kind == JMMAP_COOKIE_CONTENT && c.len == 20 && !strcmp(got, want), name);
	snprintf(name, sizeof(name), "non-ELF file of %s gets the content cookie by path", what);
	check(!err2 && c2.kind == JMMAP_COOKIE_CONTENT && !memcmp(&c, &c2, sizeof(c)), name);
	free(data);
}

static void test_build_id(const char *path, const char *what)
{
	struct jrec_cookie c = { 0 };
	char cmd[512], want[128] = "", got[JREC_COOKIE_HEX_LEN], name[160];
	int err;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", path);
	err = run_grab(cmd, "Build ID: ", want, sizeof(want));
	if (err) {
		snprintf(name, sizeof(name), "readelf -n shows a build-id for %s", what);
		check(0, name);
		return;
	}
	err = jrec_cookie_from_path(path, &c);
	jrec_cookie_hex(&c, got);
	if (err || strcmp(got, want))
		printf("# %s: got %s (kind %u, err %d), readelf says %s\n", what, got, c.kind, err,
		       want);
	snprintf(name, sizeof(name), "build-id of %s equals readelf -n", what);
	check(!err && c.kind == JMMAP_COOKIE_ELF_BUILD_ID && !strcmp(got, want), name);
}

int main(void)
{
	char dir[] = "/tmp/test-cookie.XXXXXX";
	char self[256], cmd[1024], path[300], name[300];
	struct jrec_cookie c = { 0 }, content = { 0 };
	char hex[JREC_COOKIE_HEX_LEN];
	ssize_t n;
	int fd, err;

	printf("TAP version 13\n");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';

	/* An ELF file with its build-id in a PT_NOTE segment: this very test. */
	test_build_id(self, "this test binary");

	/*
	 * The note moved past the first 4 KiB: strip it and append a fresh
	 * .note.gnu.build-id section at the end of the file (SHT_NOTE only).
	 */
	{
		static const uint8_t note[] = {
			4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
			0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67,
		};

		snprintf(path, sizeof(path), "%s/note.bin", dir);
		write_file(path, note, sizeof(note));
		snprintf(cmd, sizeof(cmd),
			 "objcopy --remove-section .note.gnu.build-id --add-section "
			 ".note.gnu.build-id='%s/note.bin' '%s' '%s/late-note' && "
			 "off=$(readelf -SW '%s/late-note' | "
			 "sed -n 's/.*build-id *NOTE *[0-9a-f]* \\([0-9a-f]*\\) .*/\\1/p') && "
			 "test $((0x$off)) -gt 4096",
			 dir, self, dir, dir);
		err = system(cmd);
		snprintf(path, sizeof(path), "%s/late-note", dir);
		check(err == 0, "objcopy builds an ELF file with its build-id note past 4 KiB");
		test_build_id(path, "an ELF file whose note lies past 4 KiB");
		err = jrec_cookie_from_path(path, &c);
		jrec_cookie_hex(&c, hex);
		check(!err && !strcmp(hex, "deadbeef01234567"), "an 8-byte build-id keeps its length");
	}

	/* ELF without a build-id: the content cookie. */
	snprintf(cmd, sizeof(cmd),
		 "objcopy --remove-section .note.gnu.build-id '%s' '%s/no-id' && "
		 "! readelf -n '%s/no-id' | grep -q 'Build ID'",
		 self, dir, dir);
	err = system(cmd);
	check(err == 0, "objcopy builds an ELF file without a build-id");
	snprintf(path, sizeof(path), "%s/no-id", dir);
	err = jrec_cookie_from_path(path, &c);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		err |= jrec_cookie_content(fd, &content);
		close(fd);
	}
	check(!err && c.kind == JMMAP_COOKIE_CONTENT && !memcmp(&c, &content, sizeof(c)),
	      "ELF without a build-id gets its content cookie");

	test_content(dir, 1, "1 byte");
	test_content(dir, 100, "100 bytes");
	test_content(dir, 4096, "4096 bytes");
	test_content(dir, 4097, "4097 bytes");
	test_content(dir, 20000, "20000 bytes");

	/* Errors and the hex of NONE. */
	err = jrec_cookie_from_path("/nonexistent/file", &c);
	check(err == -ENOENT, "a missing file gives -ENOENT");
	fd = open("/", O_RDONLY | O_DIRECTORY);
	err = jrec_cookie_content(fd, &c);
	close(fd);
	check(err == -EINVAL, "a directory has no content cookie (-EINVAL)");
	c.kind = JMMAP_COOKIE_NONE;
	c.len = 20;
	jrec_cookie_hex(&c, hex);
	check(hex[0] == '\0', "hex of a NONE cookie is empty");

	snprintf(name, sizeof(name), "rm -rf '%s'", dir);
	if (system(name))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
