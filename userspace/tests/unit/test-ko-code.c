// SPDX-License-Identifier: GPL-2.0
/*
 * ko-code and unpack: a function read out of a relocatable object (what a
 * kernel module's .ko is), placed at a module address: its call to a
 * function of its own section lands on that function, its call to an
 * undefined symbol lands where the resolver says or, unresolved, is listed
 * with the symbol's name; a missing function and a file that is not an
 * object are refused; module file names match with '-' for '_' and the three
 * forms; xz and zstd round trips, a cut stream and a small limit refused.
 * The object is compiled here with the host's cc.
 */
#include <elf.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "disasm.h"
#include "ko-code.h"
#include "tap.h"
#include "unpack.h"

#define MOD_ADDR 0xffffffffc0101000ull
#define G_ADDR	 0xffffffff81234560ull

static int resolve_g(void *ctx, const char *name, uint64_t *addr)
{
	if (strcmp(name, "g"))
		return -ENOENT;
	*addr = G_ADDR;
	return 0;
}

/* The direct call targets of @c's code at @addr, at most @max; how many. */
static size_t calls(const struct ko_code *c, uint64_t addr, uint64_t *t, size_t max)
{
	struct disasm *d;
	struct disasm_insn in;
	size_t off = 0, n, k = 0;

	if (disasm__new(EM_X86_64, DISASM_ATT, &d))
		return 0;
	while ((n = disasm__one(d, c->bytes + off, c->len - off, addr + off, &in))) {
		if (in.call && in.has_target && k < max)
			t[k++] = in.target;
		off += n;
	}
	disasm__delete(d);
	return k;
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static void test_object(void)
{
	static const char src[] = "int g(int);\n"
				  "__attribute__((noinline)) int h(int x) { return g(x) * 3; }\n"
				  "int f(int x) { return h(x) + g(x + 1); }\n";
	struct ko_code c;
	uint64_t t[8], h_addr;
	size_t len = 0, n, i;
	bool to_h = false, to_g = false, listed = false;
	void *img;
	FILE *p;
	int err;

	p = popen("cc -O1 -fno-pic -fno-inline -fno-asynchronous-unwind-tables -c -x c - "
		  "-o ko-test.o",
		  "w");
	if (!p || fputs(src, p) < 0 || pclose(p)) {
		skip("a function out of an object file", "cc cannot build the object here");
		return;
	}
	img = slurp("ko-test.o", &len);
	check(img != NULL, "the compiled object is read");
	if (!img)
		return;
#if defined(__x86_64__)
	err = ko_code__read(img, len, "f", MOD_ADDR, 4096, resolve_g, NULL, &c);
	check(!err && c.machine == EM_X86_64 && c.len > 5, "f is read out of the object");
	/* h's place: f's address plus the difference of their offsets in .text (nm's values) */
	n = err ? 0 : calls(&c, MOD_ADDR, t, 8);
	h_addr = 0;
	p = popen("nm ko-test.o", "r");
	if (p) {
		unsigned long long v, fv = 0, hv = 0;
		char type, name[64];

		while (fscanf(p, "%llx %c %63s", &v, &type, name) == 3) {
			if (!strcmp(name, "f"))
				fv = v;
			else if (!strcmp(name, "h"))
				hv = v;
		}
		pclose(p);
		h_addr = MOD_ADDR - fv + hv;
	}
	for (i = 0; i < n; i++) {
		to_g |= t[i] == G_ADDR;
		to_h |= h_addr && t[i] == h_addr;
	}
	check(to_g, "the call to the undefined g lands where the resolver puts g");
	check(to_h, "the call to h, of f's own section, lands on h, placed as f is");
	check(c.nr_unapplied == 0 && c.nr_relocs >= 2, "every relocation of f is applied");
	ko_code__release(&c);

	err = ko_code__read(img, len, "f", MOD_ADDR, 4096, NULL, NULL, &c);
	for (i = 0; !err && i < c.nr_relocs; i++)
		listed |= !strcmp(c.relocs[i].sym, "g") && !c.relocs[i].applied;
	check(!err && c.nr_unapplied >= 1 && listed,
	      "without a resolver, the relocation for g is listed unapplied, by name");
	n = err ? 0 : calls(&c, MOD_ADDR, t, 8);
	for (i = 0, to_g = false; i < n; i++)
		to_g |= t[i] == G_ADDR;
	check(!to_g, "... and no call lands on g's address");
	ko_code__release(&c);
#else
	skip("relocations applied", "not an x86-64 host");
#endif
	check(ko_code__read(img, len, "no_such_fn", MOD_ADDR, 4096, NULL, NULL, &c) == -ENOENT,
	      "a function the object does not define: -ENOENT");
	check(ko_code__read("not an object file at all, longer than a header........", 56, "f",
			    MOD_ADDR, 4096, NULL, NULL, &c) == -ENOEXEC,
	      "bytes that are not an ELF object: -ENOEXEC");
	free(img);
}

static void test_names(void)
{
	check(ko_code__file_is("jmmap.ko", "jmmap"), "jmmap.ko is module jmmap's");
	check(ko_code__file_is("snd-hda-intel.ko.xz", "snd_hda_intel"),
	      "snd-hda-intel.ko.xz is module snd_hda_intel's ('-' for '_')");
	check(ko_code__file_is("nf_tables.ko.zst", "nf_tables"), "a .ko.zst");
	check(!ko_code__file_is("jmmap2.ko", "jmmap") &&
		  !ko_code__file_is("jmmap.ko.gz", "jmmap") &&
		  !ko_code__file_is("jmmap.o", "jmmap"),
	      "another module's name, and other suffixes, do not match");
}

static void test_unpack(void)
{
	uint8_t raw[20000], xz[30000], zs[30000];
	size_t i, xz_len = 0, zs_len, out_len;
	void *out;

	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (uint8_t)(i * 7 ^ i >> 5);
	check(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, raw, sizeof(raw), xz, &xz_len,
				      sizeof(xz)) == LZMA_OK,
	      "xz: a stream is made");
	zs_len = ZSTD_compress(zs, sizeof(zs), raw, sizeof(raw), 3);
	check(!ZSTD_isError(zs_len), "zstd: a frame is made");
	check(unpack__kind(xz, xz_len) == UNPACK_XZ && unpack__kind(zs, zs_len) == UNPACK_ZSTD &&
		  unpack__kind(raw, sizeof(raw)) == UNPACK_NONE,
	      "the kind is told by the magic bytes");
	check(!unpack__all(UNPACK_XZ, xz, xz_len, 1 << 20, &out, &out_len) &&
		  out_len == sizeof(raw) && !memcmp(out, raw, sizeof(raw)),
	      "xz: the bytes come back");
	free(out);
	check(!unpack__all(UNPACK_ZSTD, zs, zs_len, 1 << 20, &out, &out_len) &&
		  out_len == sizeof(raw) && !memcmp(out, raw, sizeof(raw)),
	      "zstd: the bytes come back");
	free(out);
	check(unpack__all(UNPACK_XZ, xz, xz_len / 2, 1 << 20, &out, &out_len) == -EINVAL,
	      "xz: a cut stream: -EINVAL");
	check(unpack__all(UNPACK_ZSTD, zs, zs_len / 2, 1 << 20, &out, &out_len) == -EINVAL,
	      "zstd: a cut frame: -EINVAL");
	check(unpack__all(UNPACK_XZ, xz, xz_len, 1000, &out, &out_len) == -EFBIG &&
		  unpack__all(UNPACK_ZSTD, zs, zs_len, 1000, &out, &out_len) == -EFBIG,
	      "more than the limit: -EFBIG");
}

int main(void)
{
	test_object();
	test_names();
	test_unpack();
	return tap_done();
}
