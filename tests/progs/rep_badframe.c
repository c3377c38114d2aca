// SPDX-License-Identifier: GPL-2.0
/*
 * rep_badframe: frame-pointer chains through frames no symbol names. For
 * SECONDS, in turn, a loop of 1 MiB reads of /dev/zero (samples in the
 * kernel: its user part is a few instructions a read) and a loop in user
 * space, each run with %rbp pointing at a made-up frame whose
 * return address lies in this program's text where no symbol covers it,
 * and whose caller's return address lies where nothing is mapped. A chain
 * then reads: the kernel's frames (for a system call), the loop, the
 * unnamed text address, the unmapped address.
 *
 *   rep_badframe [SECONDS]
 *
 * x86-64 only (the loops are written in assembly to own %rbp).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__)
void badframe_sys(int fd, void *buf, unsigned long len, unsigned long n);
void badframe_spin(unsigned long n);

/*
 * .Lunnamed: 64 bytes of text no symbol covers (a local label names nothing
 * in the symbol table); frame_a returns into it, frame_b to an unmapped page.
 */
__asm__(".text\n"
	".p2align 4\n"
	".globl badframe_sys\n"
	".type badframe_sys, @function\n"
	"badframe_sys:\n" /* read(fd, buf, len) n times: the system call keeps rdi, rsi, rdx */
	"	push %rbp\n"
	"	lea frame_a(%rip), %rbp\n"
	"	mov %rcx, %r8\n"
	"1:	xor %eax, %eax\n"
	"	syscall\n"
	"	dec %r8\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size badframe_sys, .-badframe_sys\n"
	".p2align 4\n"
	".globl badframe_spin\n"
	".type badframe_spin, @function\n"
	"badframe_spin:\n"
	"	push %rbp\n"
	"	lea frame_a(%rip), %rbp\n"
	"2:	dec %rdi\n"
	"	jnz 2b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size badframe_spin, .-badframe_spin\n"
	".p2align 4\n"
	".Lunnamed:\n"
	"	.fill 64, 1, 0x90\n"
	".data\n"
	".p2align 4\n"
	"frame_a: .quad frame_b, .Lunnamed + 16\n"
	"frame_b: .quad 0, 0x1234\n"
	".text\n");
#endif

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;
	static char buf[1 << 20];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
#if defined(__x86_64__)
		badframe_sys(fd, buf, sizeof(buf), 100);
		badframe_spin(20000000);
#endif
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
