// SPDX-License-Identifier: GPL-2.0
/*
 * JIT code's CFI as libdw reads it from cfi-elf.c's image, from a jitdump
 * laid out as CPython 3.13's -X perf_jit writes it: for each trampoline an
 * UNWINDING_INFO (.eh_frame, then a 20-byte .eh_frame_hdr, mapped_size the
 * two rounded up to 16, the record padded to 8) before its LOAD. Its
 * pointers are reckoned from the code's start plus the code's size rounded
 * up to 8: the FDE's pc_begin pc-relative, the search table's entry
 * data-relative to the header. The trampoline is
 *
 *   [endbr64] sub $8,%rsp; call *%rcx; add $8,%rsp; ret
 *
 * 15 bytes with endbr64 (Debian's build) or 11 without, and every pc of it
 * must get the row it has: CFA rsp+8 up to the sub, rsp+16 from the sub to
 * the add (the call's return address and the byte before it included),
 * rsp+8 after the add; the rows span the code exactly.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfi-elf.h"
#include "jit-symbols.h"
#include "jitdump.h"
#include "bytes.h"
#include "tap.h"


static const uint8_t tramp_endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x83, 0xec, 0x08,
				       0xff, 0xd1, 0x48, 0x83, 0xc4, 0x08, 0xc3 };
static const uint8_t tramp_plain[] = { 0x48, 0x83, 0xec, 0x08, 0xff, 0xd1,
				       0x48, 0x83, 0xc4, 0x08, 0xc3 };

/*
 * CPython's unwinding data for a trampoline of @size bytes whose sub ends
 * at @after_sub and whose add ends at @after_add: a CIE (zR, pc-relative
 * sdata4 pointers, CFA rsp+8, return address at CFA-8), one FDE, then the
 * header. Returns the bytes written to @out (68).
 */
static size_t cpython_unwind(uint8_t *out, uint32_t size, uint8_t after_sub, uint8_t after_add)
{
	const uint32_t padded = (size + 7) & ~7u, eh_len = 48;
	uint8_t *p = out;
	int32_t v;

	/* CIE: length 20, id 0, version 1, "zR", code align 1, data align -8, RA r16 */
	static const uint8_t cie[24] = { 20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16,
					 1, 0x1b, 0x0c, 7, 8, 0x90, 1, 0, 0 };
	memcpy(p, cie, sizeof(cie));
	p += sizeof(cie);
	/* FDE at 24: length 20, CIE pointer 28 */
	memcpy(p, "\x14\0\0\0\x1c\0\0\0", 8);
	p += 8;
	v = -(int32_t)(padded + 32); /* pc_begin, from this field at 32 */
	memcpy(p, &v, 4);
	memcpy(p + 4, &size, 4);
	p += 8;
	*p++ = 0;			      /* no augmentation data */
	*p++ = (uint8_t)(0x40 | after_sub); /* advance_loc */
	*p++ = 0x0e;			      /* def_cfa_offset 16 */
	*p++ = 16;
	*p++ = (uint8_t)(0x40 | (after_add - after_sub));
	*p++ = 0x0e; /* def_cfa_offset 8 */
	*p++ = 8;
	*p++ = 0;
	/* .eh_frame_hdr at 48 */
	memcpy(p, "\x01\x1b\x03\x3b", 4);
	v = -(int32_t)(eh_len + 4); /* eh_frame_ptr, pc-relative: .eh_frame's start */
	memcpy(p + 4, &v, 4);
	memcpy(p + 8, "\x01\0\0\0", 4);
	v = -(int32_t)(padded + eh_len); /* the code's start, from the header */
	memcpy(p + 12, &v, 4);
	v = -(int32_t)(eh_len - 24); /* the FDE, from the header */
	memcpy(p + 16, &v, 4);
	p += 20;
	return (size_t)(p - out);
}

static void put_trampoline(struct bytes *d, uint64_t t, uint64_t addr, const uint8_t *code,
			   uint32_t size, uint8_t after_sub, uint8_t after_add, const char *name)
{
	uint8_t unwind[128];
	size_t n = cpython_unwind(unwind, size, after_sub, after_add), rec = 40 + n, nl;

	bytes__u32(d, JITDUMP_UNWINDING_INFO);
	bytes__u32(d, (uint32_t)((rec + 7) & ~(size_t)7));
	bytes__u64(d, t);
	bytes__u64(d, n);
	bytes__u64(d, 20);
	bytes__u64(d, (n + 15) & ~(size_t)15); /* mapped_size */
	bytes__put(d, unwind, n);
	bytes__put(d, "\0\0\0\0\0\0\0", ((rec + 7) & ~(size_t)7) - rec);

	nl = strlen(name) + 1;
	bytes__u32(d, JITDUMP_LOAD);
	bytes__u32(d, (uint32_t)(16 + 40 + nl + size));
	bytes__u64(d, t + 1);
	bytes__u32(d, 7);
	bytes__u32(d, 7);
	bytes__u64(d, addr);
	bytes__u64(d, addr);
	bytes__u64(d, size);
	bytes__u64(d, t);
	bytes__put(d, name, nl);
	bytes__put(d, code, size);
}

/* The CFA offset from rsp that @cfi gives at @pc (-1: no row, -2: not rsp+N), and the row's range. */
static int cfa_at(Dwarf_CFI *cfi, uint64_t pc, Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	bool signal;
	int off = -2;

	if (dwarf_cfi_addrframe(cfi, pc, &frame))
		return -1;
	if (dwarf_frame_info(frame, lo, hi, &signal) >= 0 && !dwarf_frame_cfa(frame, &ops, &nops) &&
	    nops == 1) {
		if (ops[0].atom == DW_OP_bregx && ops[0].number == 7)
			off = (int)ops[0].number2;
		else if (ops[0].atom == DW_OP_breg7)
			off = (int)ops[0].number;
	}
	free(frame);
	return off;
}

static void trampoline_rows(const char *what, const struct jit_sym *s, uint8_t after_sub,
			    uint8_t after_add)
{
	char msg[160];
	Dwarf_Addr lo = 0, hi = 0, first = UINT64_MAX, last = 0;
	Dwarf_CFI *cfi = NULL;
	Elf *elf = NULL;
	void *img = NULL;
	size_t len;
	uint64_t pc;
	int bad = 0;

	if (s && s->eh && !cfi_elf__build(s->start, s->end - s->start, s->eh, s->eh_len,
					   s->eh_hdr_len, &img, &len))
		elf = elf_memory(img, len);
	if (elf)
		cfi = dwarf_getcfi_elf(elf);
	snprintf(msg, sizeof(msg), "%s: libdw reads the image's CFI", what);
	check(cfi != NULL, msg);
	for (pc = s ? s->start : 0; cfi && pc < s->end; pc++) {
		uint64_t off = pc - s->start;
		int want = off < after_sub || off >= after_add ? 8 : 16;

		bad += cfa_at(cfi, pc, &lo, &hi) != want;
		first = lo < first ? lo : first;
		last = hi > last ? hi : last;
	}
	snprintf(msg, sizeof(msg), "%s: every pc of the trampoline has its own row (CFA rsp+8/16/8)",
		 what);
	check(cfi && !bad, msg);
	snprintf(msg, sizeof(msg), "%s: its rows span the code exactly", what);
	check(cfi && first == s->start && last == s->end, msg);
	snprintf(msg, sizeof(msg), "%s: no row past the code's end", what);
	check(cfi && cfa_at(cfi, s->end, &lo, &hi) == -1 && cfa_at(cfi, s->start - 1, &lo, &hi) == -1,
	      msg);
	if (cfi)
		dwarf_cfi_end(cfi);
	elf_end(elf);
	free(img);
}

int main(void)
{
	static struct bytes d0;
	struct bytes *d = &d0;
	struct jit_symbols js = { 0 };
	const uint64_t base = 0x7f1234560000ull;
	bool trunc;

	printf("TAP version 13\n");
	elf_version(EV_CURRENT);
	bytes__u32(d, JITDUMP_MAGIC);
	bytes__u32(d, 1);
	bytes__u32(d, 40);
	bytes__u32(d, 62);
	bytes__u32(d, 0);
	bytes__u32(d, 7);
	bytes__u64(d, 1);
	bytes__u64(d, 0);
	/* trampolines 0x110 apart, as CPython's code arena places them */
	put_trampoline(d, 100, base + 0x110, tramp_endbr, sizeof(tramp_endbr), 8, 14, "py::outer:x.py");
	put_trampoline(d, 200, base + 0x220, tramp_plain, sizeof(tramp_plain), 4, 10, "py::leaf:x.py");
	check(!jit_symbols__add_jitdump(&js, 0, d->b, d->len, &trunc) && !trunc &&
		      !jit_symbols__finish(&js, NULL),
	      "a jitdump laid out as CPython 3.13's is read whole");
	check(cfi_elf__frame_addr(base + 0x110, 15) == base + 0x120 &&
		      cfi_elf__frame_addr(base + 0x220, 11) == base + 0x230 &&
		      cfi_elf__frame_addr(base, 16) == base + 16,
	      ".eh_frame goes at the code's start plus its size rounded up to 8");
	trampoline_rows("15-byte trampoline (endbr64)", jit_symbols__find(&js, 7, base + 0x110, 150), 8,
			14);
	trampoline_rows("11-byte trampoline", jit_symbols__find(&js, 7, base + 0x220, 250), 4, 10);
	jit_symbols__release(&js);
	return tap_done();
}
