// SPDX-License-Identifier: GPL-2.0
/*
 * rep_mksysmap: write a System.map for the running kernel from
 * /proc/kallsyms, moved back to the link-time base (_text at
 * 0xffffffff81000000), without module symbols, as the kernel build writes
 * it. The report then has to relocate it by the recorded _text (KASLR) to
 * name the recorded kernel samples. Prints the KASLR offset.
 * With --other-build, every symbol but _text is moved by 0x40, as in a
 * kernel rebuilt under the same release: the report must not trust it.
 *
 *   rep_mksysmap [--other-build] OUT
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINK_TEXT 0xffffffff81000000ULL

int main(int argc, char **argv)
{
	char line[512], name[256], type;
	unsigned long long addr, text = 0, shift = 0;
	FILE *in, *out;

	if (argc == 3 && !strcmp(argv[1], "--other-build")) {
		shift = 0x40;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: rep_mksysmap [--other-build] OUT\n");
		return 2;
	}
	in = fopen("/proc/kallsyms", "r");
	if (!in) {
		perror("/proc/kallsyms");
		return 1;
	}
	while (fgets(line, sizeof(line), in))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && !strcmp(name, "_text"))
			text = addr;
	if (!text) {
		fprintf(stderr, "rep_mksysmap: no _text (kptr_restrict?)\n");
		return 1;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	rewind(in);
	while (fgets(line, sizeof(line), in)) {
		if (strchr(line, '[')) /* module symbols are not in System.map */
			continue;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || addr < text)
			continue;
		fprintf(out, "%016llx %c %s\n",
			addr - text + LINK_TEXT + (strcmp(name, "_text") ? shift : 0), type, name);
	}
	fclose(out);
	fclose(in);
	printf("kaslr_offset 0x%llx\n", text - LINK_TEXT);
	return 0;
}
