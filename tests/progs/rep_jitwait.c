// SPDX-License-Identifier: GPL-2.0
/*
 * rep_jitwait: a thread that blocks inside JIT code. Generates "jit_sleeper"
 * into an executable page (clock_nanosleep made by the generated code's own
 * syscall instruction), announces it in a jitdump (jit-PID.dump in DIR) and
 * calls it ROUNDS times for 10 ms each, so that the off-CPU samples' user
 * stacks start in JIT code, which the report names by the jitdump.
 *
 *   rep_jitwait DIR [ROUNDS]     (default 30)
 */
#include "testjit.h"

/* mov eax, SYS_clock_nanosleep; mov r10, rcx; syscall; ret */
static const uint8_t sleeper[] = { 0xb8, 0xe6, 0x00, 0x00, 0x00, 0x49, 0x89,
				   0xca, 0x0f, 0x05, 0xc3 };

int main(int argc, char **argv)
{
	long (*fn)(long clk, long flags, const struct timespec *req, struct timespec *rem);
	struct timespec ts = { 0, 10000000 };
	int rounds = argc > 2 ? atoi(argv[2]) : 30;
	FILE *f;
	void *p;

	if (argc < 2 || rounds <= 0) {
		fprintf(stderr, "usage: rep_jitwait DIR [ROUNDS]\n");
		return 2;
	}
	f = tj_jitdump_open(argv[1]);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, sleeper, sizeof(sleeper));
	tj_protect(p, PROT_READ | PROT_EXEC);
	tj_jitdump_load_code(f, (uint64_t)(uintptr_t)p, "jit_sleeper", 1, sleeper, sizeof(sleeper));
	fn = (long (*)(long, long, const struct timespec *, struct timespec *))p;
	for (int i = 0; i < rounds; i++)
		fn(CLOCK_MONOTONIC, 0, &ts, NULL);
	printf("addr %llx\n", (unsigned long long)(uintptr_t)p);
	fclose(f);
	return 0;
}
