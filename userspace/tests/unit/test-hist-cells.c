// SPDX-License-Identifier: GPL-2.0
/*
 * hist__cell_width(): a column's width is the length of the cell the table
 * prints (hist__cell()), for every kind of function name: plain, mangled
 * (demangled with or without parameters, or kept raw), a PLT entry, none
 * (an address, or 0), longer than the cell's buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist.h"
#include "tap.h"

static struct dso libc = { .short_name = "libc.so.6" };

static void same_width(struct hist_entry *e, enum sort_key key, int style, const char *what)
{
	char buf[1200], line[300];
	size_t printed = strlen(hist__cell(e, key, style, buf, sizeof(buf)));
	size_t measured = hist__cell_width(e, key, style);

	snprintf(line, sizeof(line), "%s: width %zu, cell %zu", what, measured, printed);
	check(measured == printed, line);
}

int main(void)
{
	static const int styles[] = { SYM_RAW, SYM_PARAMS, SYM_DEMANGLED };
	static const char *const style_names[] = { "raw", "with parameters", "without" };
	char *long_name = malloc(3000);
	struct hist_entry e = { 0 };
	size_t s;

	memset(long_name, 'x', 2999);
	long_name[2999] = '\0';
	e.k.comm = "env";
	e.k.dso = &libc;
	e.k.level = '.';
	for (s = 0; s < 3; s++) {
		char what[120];
		struct {
			const char *sym;
			bool plt;
			uint64_t addr;
			const char *name;
		} cases[] = {
			{ "main", false, 0, "a plain name" },
			{ "_ZN3foo3barEi", false, 0, "a mangled name" },
			{ "_ZN3foo3barEi", true, 0, "a mangled PLT entry" },
			{ "memcpy", true, 0, "a PLT entry" },
			{ "_Znot_really", false, 0, "a name that does not demangle" },
			{ long_name, false, 0, "a name longer than the cell" },
			{ long_name, true, 0, "a PLT name longer than the cell" },
			{ NULL, false, 0x7f001234, "no name: the address" },
			{ NULL, false, 0, "no name, address 0" },
		};

		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			e.k.sym = cases[c].sym;
			e.k.plt = cases[c].plt;
			e.k.addr = cases[c].addr;
			snprintf(what, sizeof(what), "sym, %s, %s", style_names[s], cases[c].name);
			same_width(&e, SK_SYM, styles[s], what);
		}
	}
	e.k.sym = "main";
	same_width(&e, SK_COMM, SYM_PARAMS, "comm");
	same_width(&e, SK_DSO, SYM_PARAMS, "dso");
	free(long_name);
	return tap_done();
}
