/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map-names: what the name of a mapping says, the one place that knows the
 * names the kernel gives memory without a file and the names of the JIT side
 * files, as perf names them: jit-PID.dump (mapped by its JIT so that the
 * recorder finds it) and /tmp/perf-PID.map.
 */
#ifndef JREC_MAP_NAMES_H
#define JREC_MAP_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No file behind it: anonymous memory, heap, stack, special mappings, memfd. */
bool map_name__is_anon(const char *name);
/*
 * Anonymous memory a JIT puts code in ("", //anon, [anon:...], memfd): its
 * process may describe that code in a perf map. A subset of the above.
 */
bool map_name__is_jit_anon(const char *name);
/*
 * Exactly "//anon", the kernel's name for anonymous memory in its records
 * (a JIT's code, the most common mapping a recorder sees): inline, with no
 * call, and no byte read past the name's end.
 */
static inline bool map_name__is_slash_anon(const char *name)
{
	return name[0] == '/' && name[1] == '/' && name[2] == 'a' && name[3] == 'n' &&
	       name[4] == 'o' && name[5] == 'n' && !name[6];
}
/* A jitdump, jit-<PID>.dump in any directory, as perf requires. */
bool map_name__is_jitdump(const char *path);
/*
 * The perf map of @pid, /tmp/perf-PID.map, under @root ("" for this mount
 * namespace, "/proc/N/root" for a process's own /tmp). 0 or -ENAMETOOLONG.
 */
int map_name__perfmap_path(char *buf, size_t len, const char *root, uint32_t pid);
/* How a report names JIT code from @pid's jitdump or perf map without a file. */
int map_name__jit_source(char *buf, size_t len, bool jitdump, uint32_t pid);

#endif
