// SPDX-License-Identifier: GPL-2.0
/* The recorder's /proc and /sys parsers on fixed inputs and on this process. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "procfs.h"
#include "tap.h"

static int parse(const char *s, struct procfs_map *m)
{
	return procfs_parse_maps_line(s, strlen(s), m);
}

static int find_self(const struct procfs_map *m, void *ctx)
{
	const void *fn = (const void *)find_self;

	if ((uintptr_t)fn >= m->start && (uintptr_t)fn < m->end && (m->prot & PROT_EXEC)) {
		*(int *)ctx = 1;
		return 1; /* stop */
	}
	return 0;
}

int main(void)
{
	struct procfs_map m;
	uint32_t nspid = 0;
	uint8_t id[20], id_len = 0;
	uint64_t addr = 0;
	char comm[16];
	int found = 0;

	printf("TAP version 13\n");
	check(!parse("7f3c0a000000-7f3c0a021000 r-xp 00001000 fd:01 1234    /usr/lib/x.so", &m) &&
		      m.start == 0x7f3c0a000000 && m.end == 0x7f3c0a021000 && m.pgoff == 0x1000 &&
		      m.dev_major == 0xfd && m.dev_minor == 1 && m.ino == 1234 &&
		      m.prot == (PROT_READ | PROT_EXEC) && m.flags == MAP_PRIVATE &&
		      !strcmp(m.path, "/usr/lib/x.so") && !m.deleted,
	      "a file-backed executable line");
	check(!parse("00400000-00401000 rw-s 00000000 00:00 0", &m) && !m.path[0] &&
		      m.prot == (PROT_READ | PROT_WRITE) && m.flags == MAP_SHARED,
	      "an anonymous line has an empty path");
	check(!parse("1000-2000 r-xp 00000000 08:02 77 /tmp/a b/lib x.so (deleted)", &m) &&
		      !strcmp(m.path, "/tmp/a b/lib x.so") && m.deleted,
	      "spaces in the path; (deleted) is stripped and flagged");
	check(!parse("1000-2000 r-xp 00000000 00:00 0                          [vdso]", &m) &&
		      !strcmp(m.path, "[vdso]"),
	      "a bracketed special mapping");
	check(parse("2000-1000 r-xp 00000000 00:00 0", &m) == -EINVAL, "end before start is -EINVAL");
	check(parse("1000-2000 rxxp 00000000 00:00 0", &m) == -EINVAL, "bad permissions are -EINVAL");
	check(parse("1000-2000 r-xp 00000000 00:00", &m) == -EINVAL, "a missing inode is -EINVAL");
	check(parse("11112222333344445-2000 r-xp 0 0:0 0", &m) == -EINVAL, "17 hex digits overflow");
	check(parse("", &m) == -EINVAL, "an empty line is -EINVAL");
	check(procfs_read_maps(getpid(), find_self, &found) == 1 && found,
	      "this test's own text mapping is found in /proc/self/maps");

	check(!procfs_parse_nspid("Name:\tx\nNSpid:\t4242\t17\t3\n", 29, &nspid) && nspid == 3,
	      "NSpid: the innermost pid is the last");
	check(!procfs_parse_nspid("NSpid:\t99", 9, &nspid) && nspid == 99,
	      "NSpid without a namespace, no trailing newline");
	check(procfs_parse_nspid("Pid:\t1\n", 7, &nspid) == -ENOENT, "no NSpid line is -ENOENT");
	check(procfs_parse_nspid("NSpid:\tx\n", 9, &nspid) == -EINVAL, "a bad NSpid is -EINVAL");
	check(procfs_parse_nspid("NSpid:\t0\n", 9, &nspid) == -EINVAL, "pid 0 is -EINVAL");
	check(!procfs_read_nspid(getpid(), &nspid) && nspid > 0, "this process has an NSpid");
	check(!procfs_parse_comm("Name:\tverylongprocessname\n", 26, comm) &&
		      !strcmp(comm, "verylongprocess"),
	      "Name: is cut to 15 characters like comm");

	{
		/* namesz 4, descsz 4, type 1 "GNU" (not a build-id), then type 3 */
		static const uint8_t notes[] = {
			4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'G', 'N', 'U', 0, 9, 9, 9, 9,
			4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xab, 0xcd, 0xef, 0,
		};

		check(!procfs_parse_build_id_note(notes, sizeof(notes), id, &id_len) &&
			      id_len == 3 && id[0] == 0xab && id[2] == 0xef,
		      "the GNU build-id note is found after another note");
		check(procfs_parse_build_id_note(notes, 30, id, &id_len) == -EINVAL,
		      "a note header cut short is -EINVAL");
		check(procfs_parse_build_id_note(notes, 36, id, &id_len) == -EINVAL,
		      "a note body cut short is -EINVAL");
		check(procfs_parse_build_id_note(notes, 20, id, &id_len) == -ENOENT,
		      "no build-id note is -ENOENT");
	}
	{
		static const char ks[] = "ffffffff81000000 T _stext\nffffffff81000010 T _text\n"
					 "ffffffffc0000000 t _text\t[mod]\n";
		static const char hidden[] = "0000000000000000 T _text\n";

		check(!procfs_parse_kallsyms_sym(ks, sizeof(ks) - 1, "_text", &addr) &&
			      addr == 0xffffffff81000010,
		      "kallsyms: _text, not _stext nor a module's");
		check(procfs_parse_kallsyms_sym(hidden, sizeof(hidden) - 1, "_text", &addr) == -EACCES,
		      "kallsyms with hidden addresses is -EACCES");
		check(procfs_parse_kallsyms_sym(ks, sizeof(ks) - 1, "_end", &addr) == -ENOENT,
		      "a missing symbol is -ENOENT");
	}
	return tap_done();
}
