// SPDX-License-Identifier: GPL-2.0
/* Names of mappings and of the JIT side files; see map-names.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "map-names.h"

bool map_name__is_jit_anon(const char *name)
{
	return !name[0] || !strncmp(name, "//anon", 6) || !strncmp(name, "[anon", 5) ||
	       !strncmp(name, "/memfd:", 7);
}

bool map_name__is_anon(const char *name)
{
	return map_name__is_jit_anon(name) || !strcmp(name, "[heap]") || !strcmp(name, "[stack]") ||
	       !strncmp(name, "/dev/zero", 9) || !strncmp(name, "/anon_hugepage", 14) ||
	       !strcmp(name, "[vsyscall]") || !strcmp(name, "[vvar]");
}

bool map_name__is_jitdump(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *p;

	base = base ? base + 1 : path;
	if (strncmp(base, "jit-", 4))
		return false;
	p = base + 4;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return !strcmp(p, ".dump");
}

static int fits(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int map_name__perfmap_path(char *buf, size_t len, const char *root, uint32_t pid)
{
	return fits(snprintf(buf, len, "%s/tmp/perf-%u.map", root, pid), len);
}

int map_name__jit_source(char *buf, size_t len, bool jitdump, uint32_t pid)
{
	return fits(snprintf(buf, len, jitdump ? "jit-%u.dump" : "perf-%u.map", pid), len);
}
