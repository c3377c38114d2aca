// SPDX-License-Identifier: GPL-2.0
/*
 * Native and kernel symbols: kallsyms/System.map text relocated by the
 * recorded _text (KASLR) with module symbols left where they were loaded;
 * this test program's own ELF symbols (code, and data by file offset),
 * PT_LOAD translation and DWARF line; perf's order for the data table;
 * C++ and Rust demangling.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "elf-image.h"
#include "kernel-syms.h"
#include "report/machine-files.h"
#include "tap.h"

/* an object (data) symbol: named in the data table, by its file offset */
volatile char test_symbols_data[64] = { 1 };

__attribute__((noinline)) int test_symbols_marker(int x);
__attribute__((noinline)) int test_symbols_marker(int x)
{
	return x * 3 + 1;
}

static void kernel(void)
{
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000100 T start_kernel\n"
				   "ffffffff81000200 t do_one\n"
				   "ffffffff81000300 D some_data\n"
				   "ffffffff81000400 W weak_fn\n"
				   "ffffffffc0001000 t mod_fn\t[mymod]\n"
				   "garbage line\n"
				   "ffffffffc0002000 T mod_end\t[mymod]";
	struct kernel_syms k;
	const struct sym *s;
	uint64_t delta = 0x1a000000;

	check(!kernel_syms__parse(&k, text, strlen(text)) && k.text_addr == 0xffffffff81000000ULL,
	      "kallsyms text parsed, _text found");
	s = symtab__find(&k.tab, 0xffffffff81000250ULL);
	check(s && !strcmp(s->name, "do_one"), "a symbol extends to the next one");
	check(!kernel_syms__relocate(&k, 0xffffffff81000000ULL + delta), "relocated to the recorded _text");
	s = symtab__find(&k.tab, 0xffffffff81000150ULL + delta);
	check(s && !strcmp(s->name, "start_kernel"), "core kernel symbols move with _text (KASLR)");
	s = symtab__find(&k.tab, 0xffffffffc0001010ULL);
	check(s && !strcmp(s->name, "mod_fn") && !strcmp(k.modules[s->module], "[mymod]"),
	      "module symbols stay at their load address and name their module");
	s = symtab__find(&k.tab, 0xffffffff81000310ULL + delta);
	check(!s || strcmp(s->name, "some_data"), "data symbols are not text");
	check(kernel_syms__in_core(&k, 0xffffffff81000150ULL + delta) &&
		  kernel_syms__in_core(&k, 0xffffffff81000400ULL + delta) &&
		  !kernel_syms__in_core(&k, 0xffffffff81000000ULL + delta - 1) &&
		  !kernel_syms__in_core(&k, 0xffffffffc0001010ULL) &&
		  !kernel_syms__in_core(&k, 0xffffffffc0800000ULL),
	      "the kernel's own code: from its first symbol to its last one's end, not a module's "
	      "(an address there without symbol is perf's [unknown])");
	kernel_syms__release(&k);
}

/* The kernel symbols a recording keeps: those holding sampled addresses and their ends. */
static void kernel_select(void)
{
	static const char text[] = "ffffffff81000100 T start_kernel\n"
				   "ffffffff81000000 T _text\n"
				   "ffffffff81000200 t do_one\n"
				   "ffffffff81000200 t do_one_alias\n"
				   "ffffffff81000300 D some_data\n"
				   "ffffffff81000400 W weak_fn\n"
				   "ffffffff81000500 t unsampled\n"
				   "ffffffffc0001000 t mod_fn\t[mymod]\n"
				   "ffffffffc0002000 T mod_end\t[mymod]";
	static const char want[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000200 t do_one\n"
				   "ffffffff81000200 t do_one_alias\n"
				   "ffffffff81000400 W weak_fn\n"
				   "ffffffffc0001000 t mod_fn\t[mymod]\n"
				   "ffffffffc0002000 T mod_end\t[mymod]\n";
	const uint64_t addrs[] = {0xffffffff81000000ULL - 1, 0xffffffff81000210ULL,
				  0xffffffff81000310ULL, 0xffffffffc0001004ULL};
	struct buf out = BUF_INIT;
	struct kernel_syms k;
	const struct sym *s;

	check(!kernel_syms__select(text, strlen(text), addrs, 4, &out) &&
		  out.len == strlen(want) && !memcmp(out.data, want, out.len),
	      "select: _text, the symbols holding sampled addresses (aliases too) and the "
	      "symbol after each, in address order; nothing for an address below them all");
	check(!kernel_syms__parse(&k, (const char *)out.data, out.len) &&
		  k.text_addr == 0xffffffff81000000ULL,
	      "select: what it keeps parses, with _text");
	s = symtab__find(&k.tab, 0xffffffff81000310ULL);
	check(s && !strncmp(s->name, "do_one", 6), "select: a data symbol does not end a text one");
	s = symtab__find(&k.tab, 0xffffffffc0001004ULL);
	check(s && !strcmp(s->name, "mod_fn"), "select: module symbols kept with their module");
	kernel_syms__release(&k);
	buf__release(&out);
}

/* kallsyms from a regular file: read into a populated buffer, parsed in place */
static int parse_ksyms(const void *bytes, size_t len, void *ctx)
{
	return kernel_syms__parse(ctx, bytes, len);
}

static int count_bytes(const void *bytes, size_t len, void *ctx)
{
	*(size_t *)ctx = len;
	return 0;
}

/* A kallsyms copy read through the report's one reader of this machine's files. */
static void kernel_file(void)
{
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000100 T start_kernel\n"
				   "ffffffffc0001000 t mod_fn\t[mymod]\n";
	char path[] = "kallsyms-XXXXXX";
	struct kernel_syms k;
	const struct sym *s;
	size_t got = 0;
	int fd = mkstemp(path);

	check(fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1,
	      "a kallsyms copy written to a file");
	if (fd >= 0)
		close(fd);
	check(!machine_file__read(path, parse_ksyms, &k) && k.tab.nr == 3 &&
		      k.text_addr == 0xffffffff81000000ULL,
	      "kallsyms loaded from a regular file");
	s = symtab__find(&k.tab, 0xffffffffc0001004ULL);
	check(s && !strcmp(s->name, "mod_fn") && !strcmp(k.modules[s->module], "[mymod]"),
	      "names from the file end at the tab; the module is kept");
	kernel_syms__release(&k);
	unlink(path);
	check(machine_file__read("no-such-kallsyms", parse_ksyms, &k) == -ENOENT,
	      "a missing file is -ENOENT");
	check(!machine_file__read("/proc/self/status", count_bytes, &got) && got > 0,
	      "a /proc file that says size 0 is read to its end");
}

/* A table that outgrows malloc into a populated mapping (and is moved by mremap). */
static void big_table(void)
{
	struct symtab t = { 0 };
	size_t i, n = 100000, bad = 0;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = symtab__add(&t, 0x1000 + i * 16, 16, i & 1 ? "odd" : "even", 0);
	check(!err && t.nr == n && t.map_len, "100000 symbols: the array moved to a mapping");
	symtab__finish(&t, 1 << 20);
	for (i = 0; i < n; i += 997) {
		const struct sym *s = symtab__find(&t, 0x1000 + i * 16 + 5);

		if (!s || s->start != 0x1000 + i * 16 || strcmp(s->name, i & 1 ? "odd" : "even"))
			bad++;
	}
	check(!bad, "every symbol is found after the moves");
	symtab__release(&t);
	check(!t.syms && !t.nr && !t.map_len, "released");
}

/* A zero-sized label inside a sized function names no part of it (node's deopt labels in builtins). */
static void label_inside_function(void)
{
	struct symtab t = { 0 };
	const struct sym *s;
	int err = 0;

	err |= symtab__add(&t, 0x1000, 0x100, "Builtins_Construct", STB_GLOBAL);
	err |= symtab__add(&t, 0x1040, 0, "deopt_label", STB_LOCAL);
	err |= symtab__add(&t, 0x1200, 0, "asm_routine", STB_GLOBAL);
	err |= symtab__add(&t, 0x1280, 0x20, "next_fn", STB_GLOBAL);
	check(!err, "symbols added");
	symtab__finish(&t, 1 << 20);
	s = symtab__find(&t, 0x1080);
	check(s && !strcmp(s->name, "Builtins_Construct"),
	      "an address after a label inside a function is the function's");
	s = symtab__find(&t, 0x1040);
	check(s && !strcmp(s->name, "Builtins_Construct"), "the label's own address is the function's");
	s = symtab__find(&t, 0x1230);
	check(s && !strcmp(s->name, "asm_routine"),
	      "a zero-sized symbol outside any function still reaches the next one");
	symtab__release(&t);
}

/*
 * Among symbols at one address the name perf picks (libc's debug symbols put
 * eight names on wmemchr's resolver): sized, then not weak, then global, then
 * fewer leading underscores, then the longer name, else the first.
 */
static void alias_choice(void)
{
	static const struct {
		const char *name;
		uint64_t size;
		uint8_t bind;
	} at[][4] = {
		{ { "__wmemchr_ifunc", 125, STB_LOCAL }, { "__GI_wmemchr", 125, STB_LOCAL },
		  { "wmemchr", 125, STB_WEAK }, { "__wmemchr", 125, STB_LOCAL } },
		{ { "label", 0, STB_GLOBAL }, { "__sized", 8, STB_LOCAL }, { 0 }, { 0 } },
		{ { "__g", 8, STB_GLOBAL }, { "loc", 8, STB_LOCAL }, { "w", 8, STB_WEAK }, { 0 } },
		{ { "abc", 8, STB_LOCAL }, { "xyz", 8, STB_LOCAL }, { "__long_name", 8, STB_LOCAL }, { 0 } },
	};
	static const char *const want[] = { "__wmemchr_ifunc", "__sized", "__g", "abc" };
	struct symtab t = { 0 };
	size_t i, j;
	int err = 0;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		for (j = 0; j < 4 && at[i][j].name; j++)
			err |= symtab__add(&t, 0x1000 * (i + 1), at[i][j].size, at[i][j].name,
					   at[i][j].bind);
	check(!err, "aliases added");
	symtab__finish(&t, 1 << 20);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sym *s = symtab__find(&t, 0x1000 * (i + 1));
		char what[128];

		snprintf(what, sizeof(what), "aliases at 0x%zx: %s is chosen (%s)", 0x1000 * (i + 1),
			 want[i], s ? s->name : "none");
		check(s && !strcmp(s->name, want[i]), what);
	}
	symtab__release(&t);
}

/*
 * perf's order for the table that names data addresses: zero-sized symbols
 * reach the next start before one per start is chosen (a program's end of
 * .data: completed.0 of one byte, _edata and __TMC_END__ of none, at one
 * address; __TMC_END__, global, reaches the next object and wins), the last
 * one up to the page after its own.
 */
static void data_table(void)
{
	struct symtab t = { 0 };
	const struct sym *s;
	int err = 0;

	err |= symtab__add(&t, 0x4038, 1, "completed.0", STB_LOCAL);
	err |= symtab__add(&t, 0x4038, 0, "_edata", STB_GLOBAL);
	err |= symtab__add(&t, 0x4038, 0, "__TMC_END__", STB_GLOBAL);
	err |= symtab__add(&t, 0x4040, 8, "sink", STB_LOCAL);
	err |= symtab__add(&t, 0x5010, 0, "last", STB_GLOBAL);
	check(!err, "data symbols added");
	symtab__finish_ends_first(&t);
	s = symtab__find(&t, 0x403f);
	check(s && !strcmp(s->name, "__TMC_END__") && s->start == 0x4038,
	      "a zero-sized global reaches the next start, then wins over a sized local there");
	s = symtab__find(&t, 0x4047);
	check(s && !strcmp(s->name, "sink"), "a sized object is its own");
	check(!symtab__find(&t, 0x4048), "past a sized object and before the next: nothing");
	s = symtab__find(&t, 0x6fff);
	check(s && !strcmp(s->name, "last") && !symtab__find(&t, 0x7000),
	      "the last zero-sized symbol reaches the end of the page after its own");
	symtab__release(&t);
}

static void own_elf(const char *self)
{
	struct elf_image *img;
	const struct sym *s;
	char line[256];
	uint8_t id[20];
	int err = elf_image__open(self, &img);

	check(!err, "this test's own ELF file opens");
	if (err)
		return;
	/* find the marker by name, then look it up by address */
	{
		const struct symtab *t = elf_image__symtab(img);
		const struct sym *m = NULL;
		size_t i;

		for (i = 0; i < t->nr; i++)
			if (!strcmp(t->syms[i].name, "test_symbols_marker"))
				m = &t->syms[i];
		check(m != NULL, ".symtab has the marker function");
		if (m) {
			s = symtab__find(t, m->start + 2);
			check(s == m, "an address inside the function resolves to it");
			check(elf_image__srcline(img, m->start, line, sizeof(line)) &&
				      !strncmp(line, "test-symbols.c:", 15),
			      "DWARF gives the function's source line");
		}
	}
	/* an object in the data table at its file offset, not in the code table */
	{
		uint64_t loads[16][3], v = 0, off = 0;
		unsigned int i, nl = elf_image__loads(img, loads, 16);
		const struct sym *d;

		check(!elf_image__symbol_value(img, "test_symbols_data", &v), ".symtab has the object");
		for (i = 0; i < nl; i++)
			if (v >= loads[i][2] && v - loads[i][2] < loads[i][1])
				off = v - loads[i][2] + loads[i][0];
		d = symtab__find(elf_image__data_symtab(img), off + 10);
		check(off && d && !strcmp(d->name, "test_symbols_data") && d->start == off,
		      "the data table names an object by its file offset");
		s = symtab__find(elf_image__symtab(img), v + 10);
		check(!s || strcmp(s->name, "test_symbols_data"), "the code table has no objects");
	}
	check(elf_image__build_id(img, id, sizeof(id)) == 20, "the GNU build-id is read");
	elf_image__close(img);
	check(elf_image__open("/etc/passwd", &img) == -ENOEXEC, "a text file is not ELF: -ENOEXEC");
}

/*
 * Names that libiberty cannot demangle with their parameters are given
 * without them, as `c++filt -p` gives them. Both are V8's (`nm` of a node 20
 * binary), the second a compiler clone (.isra.0); the expected text is
 * `c++filt -p`'s (binutils 2.40).
 */
static const char v8_name[] =
	"_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutCastIZNS1_22DispatchToSpecifi"
	"cTypeIZNKS0_6String7GetImplEiNS0_16PtrComprCageBaseERKNS0_31SharedStringAccessGuardIfNee"
	"dedEE19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E17CastingDispatchertJRS4_SA_SB_S8_E"
	"EESC_SF_";
static const char v8_clone[] =
	"_ZN2v88internal11StringShape33DispatchToSpecificTypeWithoutCastIZNS1_22DispatchToSpecifi"
	"cTypeIZNKS0_6String7GetImplEiNS0_16PtrComprCageBaseERKNS0_31SharedStringAccessGuardIfNee"
	"dedEE19StringGetDispatchertJRiRS5_S8_EEET0_S4_DpOT1_E17CastingDispatchertJRS4_SA_SB_S8_E"
	"EESC_SF_.isra.0";
static const char v8_expect[] =
	"v8::internal::StringShape::DispatchToSpecificTypeWithoutCast<v8::internal::StringShape::"
	"DispatchToSpecificType<v8::internal::String::GetImpl(int, v8::internal::PtrComprCageBase"
	", v8::internal::SharedStringAccessGuardIfNeeded const&) const::StringGetDispatcher, unsi"
	"gned short, int&, v8::internal::PtrComprCageBase&, v8::internal::SharedStringAccessGuard"
	"IfNeeded const&>(v8::internal::String, int&, v8::internal::PtrComprCageBase&, v8::intern"
	"al::SharedStringAccessGuardIfNeeded const&)::CastingDispatcher, unsigned short, v8::inte"
	"rnal::String&, int&, v8::internal::PtrComprCageBase&, v8::internal::SharedStringAccessGu"
	"ardIfNeeded const&>";

static void demangling(void)
{
	char *a = jrec_demangle("_ZN3foo3barEi", true), *a0 = jrec_demangle("_ZN3foo3barEi", false);
	char *b = jrec_demangle("_ZN4core3fmt5write17h0123456789abcdefE", false);
	char *c = jrec_demangle("plain_c", false);
	char *v0 = jrec_demangle("_RNvCs1234_7mycrate3foo", false);
	char *v8 = jrec_demangle(v8_name, true), *v8c = jrec_demangle(v8_clone, true);

	check(a && !strcmp(a, "foo::bar(int)"), "C++ names are demangled, with parameters when asked (-v)");
	check(a0 && !strcmp(a0, "foo::bar"), "C++ names without their parameter lists by default, as perf's");
	free(a0);
	check(b && !strcmp(b, "core::fmt::write"), "Rust legacy names are demangled, hash dropped");
	check(v0 && !strcmp(v0, "mycrate::foo"), "Rust v0 names are demangled");
	check(v8 && !strcmp(v8, v8_expect) && v8c && !strcmp(v8c, v8_expect),
	      "a name that fails with parameters is demangled without them, as c++filt -p does");
	free(v8);
	free(v8c);
	check(!c, "C names are left alone");
	free(v0);
	free(a);
	free(b);
}

int main(void)
{
	printf("TAP version 13\n");
	kernel();
	kernel_select();
	kernel_file();
	big_table();
	label_inside_function();
	alias_choice();
	data_table();
	own_elf("/proc/self/exe");
	demangling();
	return tap_done();
}
