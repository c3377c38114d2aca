// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the recorder's /proc and /sys parsers: maps lines,
 * the NSpid and Name lines of status, ELF notes, kallsyms lookups. The input
 * is split at its first NUL byte into two texts so both shapes get variety.
 */
#include <stdint.h>
#include <string.h>

#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_map(const struct procfs_map *m, void *ctx)
{
	size_t *n = ctx;

	/* what the parser promises: a bounded, NUL-terminated path, ordered range */
	if (strlen(m->path) >= sizeof(m->path) || m->end < m->start)
		__builtin_trap();
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct procfs_map m;
	uint8_t id[20], id_len = 0;
	uint32_t nspid;
	uint64_t addr;
	char comm[16];
	size_t n = 0;

	procfs_parse_maps(text, size, count_map, &n);
	procfs_parse_maps_line(text, size, &m);
	if (!procfs_parse_nspid(text, size, &nspid) && (nspid == 0 || nspid > INT32_MAX))
		__builtin_trap();
	if (!procfs_parse_comm(text, size, comm) && comm[15] != '\0')
		__builtin_trap();
	if (!procfs_parse_build_id_note(data, size, id, &id_len) && (id_len == 0 || id_len > 20))
		__builtin_trap();
	procfs_parse_kallsyms_sym(text, size, "_text", &addr);
	return 0;
}
