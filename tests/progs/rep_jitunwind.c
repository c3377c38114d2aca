// SPDX-License-Identifier: GPL-2.0
/*
 * rep_jitunwind: JIT code that keeps no frame pointer, announced in a
 * jitdump with the call frame information a JIT writes for it
 * (JIT_CODE_UNWINDING_INFO before its JIT_CODE_LOAD). The generated
 * function "jit_cfi_fn" pushes rbp and rbx, reserves a slot, loads a junk
 * value into rbp, spins, then calls the C function it was given
 * (jit_callee), so that samples land both in JIT code and in C code called
 * from it:
 *
 *   main -> run_jit -> jit_cfi_fn -> jit_callee
 *
 * Without its CFI an unwinder cannot step out of jit_cfi_fn (rbp is junk).
 * Built without frame pointers (tests/Makefile).
 *
 *   rep_jitunwind DIR SECONDS [--no-unwind-info]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "testjit.h"

static const uint8_t code[] = {
	0x55,			      /*  0: push %rbp */
	0x53,			      /*  1: push %rbx */
	0x48, 0x83, 0xec, 0x08,	      /*  2: sub $8,%rsp */
	0x48, 0x89, 0xfb,	      /*  6: mov %rdi,%rbx */
	0x48, 0xbd, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, /* 9: movabs $junk,%rbp */
	0xb9, 0x00, 0x00, 0x04, 0x00, /* 19: mov $0x40000,%ecx */
	0xff, 0xc9,		      /* 24: dec %ecx */
	0x75, 0xfc,		      /* 26: jne 24 */
	0xff, 0xd3,		      /* 28: call *%rbx */
	0x48, 0x83, 0xc4, 0x08,	      /* 30: add $8,%rsp */
	0x5b,			      /* 34: pop %rbx */
	0x5d,			      /* 35: pop %rbp */
	0xc3,			      /* 36: ret */
};

/*
 * .eh_frame for it, as if placed at the code's start plus its size rounded
 * up to 8 (40: where perf inject --jit puts it, and V8 and CPython reckon
 * from), then .eh_frame_hdr after that. Offsets are relative, so the bytes
 * do not depend on the code's address.
 */
static const uint8_t eh_frame[] = {
	/* CIE at 0: length 20, id 0, version 1, "zR", code align 1, data align -8, RA r16 */
	20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16,
	1, 0x1b,	  /* augmentation: FDE pointers pcrel|sdata4 */
	0x0c, 7, 8,	  /* def_cfa rsp+8 */
	0x90, 1,	  /* RA at cfa-8 */
	0, 0,		  /* padding */
	/* FDE at 24: length 36, CIE pointer 28 (back to 0) */
	36, 0, 0, 0, 28, 0, 0, 0,
	0xb8, 0xff, 0xff, 0xff, /* pc_begin: -72, the code's start from this field at 32 */
	sizeof(code), 0, 0, 0,	/* pc_range */
	0,			/* no augmentation data */
	0x41, 0x0e, 16, 0x86, 2, /* @1: cfa rsp+16, rbp at cfa-16 */
	0x41, 0x0e, 24, 0x83, 3, /* @2: cfa rsp+24, rbx at cfa-24 */
	0x44, 0x0e, 32,		 /* @6: cfa rsp+32 */
	0x5c, 0x0e, 24,		 /* @34: cfa rsp+24 */
	0x41, 0x0e, 16,		 /* @35: cfa rsp+16 */
	0x41, 0x0e, 8,		 /* @36: cfa rsp+8 */
	0,			 /* padding */
	0, 0, 0, 0,		 /* terminator, at 64 */
};

static const uint8_t eh_frame_hdr[] = {
	1, 0x1b, 0x03, 0x3b,	/* version; eh_frame_ptr pcrel|sdata4; count udata4; table datarel|sdata4 */
	0xb8, 0xff, 0xff, 0xff, /* eh_frame_ptr: -72 (.eh_frame's start from this field) */
	1, 0, 0, 0,		/* one FDE */
	0x94, 0xff, 0xff, 0xff, /* its pc: -108 from this header (the code's start) */
	0xd4, 0xff, 0xff, 0xff, /* its FDE: -44 from this header */
};

__attribute__((noinline)) void jit_callee(void)
{
	for (volatile int i = 0; i < 0x40000; i++)
		;
}

static void put_unwinding_info(FILE *f)
{
	uint64_t size = sizeof(eh_frame) + sizeof(eh_frame_hdr);

	tj_put32(f, 4); /* JIT_CODE_UNWINDING_INFO */
	tj_put32(f, (uint32_t)(16 + 24 + size));
	tj_put64(f, tj_mono_ns());
	tj_put64(f, size);
	tj_put64(f, sizeof(eh_frame_hdr));
	tj_put64(f, size); /* mapped_size */
	fwrite(eh_frame, sizeof(eh_frame), 1, f);
	fwrite(eh_frame_hdr, sizeof(eh_frame_hdr), 1, f);
}

__attribute__((noinline)) void run_jit(void (*fn)(void (*)(void)), double secs)
{
	uint64_t end = tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)(secs * 1e9);

	while (tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		fn(jit_callee);
	__asm__ volatile("");
}

int main(int argc, char **argv)
{
	void *p;
	FILE *f;

	if (argc < 3 || (argc == 4 && strcmp(argv[3], "--no-unwind-info")) || argc > 4) {
		fprintf(stderr, "usage: rep_jitunwind DIR SECONDS [--no-unwind-info]\n");
		return 2;
	}
	f = tj_jitdump_open(argv[1]);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("rep_jitunwind: mmap");
		return 1;
	}
	memcpy(p, code, sizeof(code));
	tj_protect(p, PROT_READ | PROT_EXEC);
	if (argc == 3)
		put_unwinding_info(f);
	tj_jitdump_load_code(f, (uint64_t)(uintptr_t)p, "jit_cfi_fn", 1, code, sizeof(code));
	run_jit((void (*)(void (*)(void)))p, atof(argv[2]));
	fclose(f);
	return 0;
}
