/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for what the recorder reads from /proc and /sys: /proc/PID/maps
 * lines, the NSpid line of /proc/PID/status, the ELF notes of
 * /sys/kernel/notes and the _text line of /proc/kallsyms. Every parser works
 * on bytes in memory (length-checked, not NUL-terminated) so that it can be
 * fuzzed; the file readers are thin wrappers.
 */
#ifndef JREC_PROCFS_H
#define JREC_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"

#define PROCFS_PATH_MAX 4096

struct procfs_map {
	uint64_t start, end, pgoff;
	uint32_t dev_major, dev_minor;
	uint64_t ino;
	uint32_t prot;		    /* PROT_READ | PROT_WRITE | PROT_EXEC */
	uint32_t flags;		    /* MAP_SHARED or MAP_PRIVATE */
	char path[PROCFS_PATH_MAX]; /* "" for anonymous */
	int deleted;		    /* path ended in " (deleted)", which is stripped */
};

/*
 * Parse one /proc/PID/maps line (len bytes, without the newline).
 * 0 or -EINVAL.
 */
int procfs_parse_maps_line(const char *line, size_t len, struct procfs_map *m);

/*
 * Call fn for every line of a maps text; stops at the first non-zero return
 * of fn and returns it. A malformed line gives -EINVAL.
 */
int procfs_parse_maps(const char *text, size_t len,
		      int (*fn)(const struct procfs_map *m, void *ctx), void *ctx);

/* procfs_parse_maps() over /proc/PID/maps. */
int procfs_read_maps(pid_t pid, int (*fn)(const struct procfs_map *m, void *ctx), void *ctx);

/*
 * A copy of this process's own vdso (the [vdso] mapping at AT_SYSINFO_EHDR,
 * at most 1 MiB), malloc'd into *@out. 0, -ENOENT (none), -errno, -ENOMEM.
 */
int procfs_read_own_vdso(void **out, size_t *len);

/*
 * The innermost pid from the "NSpid:" line of a /proc/PID/status text (the
 * pid as the process sees itself). 0 and *nspid set, -ENOENT without such a
 * line (kernel before 4.1), -EINVAL if malformed.
 */
int procfs_parse_nspid(const char *text, size_t len, uint32_t *nspid);
int procfs_read_nspid(pid_t pid, uint32_t *nspid);

/* The process's name from the "Name:" line of a status text, into comm[16]. */
int procfs_parse_comm(const char *text, size_t len, char comm[16]);

/* The GNU build-id note in a notes blob (/sys/kernel/notes). 0, -ENOENT, -EINVAL. */
int procfs_parse_build_id_note(const uint8_t *notes, size_t len, uint8_t id[20], uint8_t *id_len);
int procfs_read_kernel_build_id(uint8_t id[20], uint8_t *id_len);

/*
 * The address of symbol name in a kallsyms text. 0, -ENOENT, or -EACCES
 * when the address reads as 0 (kptr_restrict).
 */
int procfs_parse_kallsyms_sym(const char *text, size_t len, const char *name, uint64_t *addr);

/* Read a whole (proc) file into b. 0 or -errno. */
int procfs_read_file(const char *path, struct buf *b);

#endif
