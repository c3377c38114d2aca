// SPDX-License-Identifier: GPL-2.0
/*
 * rep_jitreuse: JIT address reuse. Generates a function "reuse_A" into an
 * executable page, announces it in a jitdump (jit-PID.dump in DIR, mapped
 * PROT_EXEC so that recorders find it) and runs it; then unmaps the page,
 * maps a new one at the same address, generates "reuse_B" there, announces it
 * and runs it. Prints "switch NS" (CLOCK_MONOTONIC of the second load) and
 * the code address, so a test can check that every sample before the switch
 * went to reuse_A and every one after to reuse_B.
 *
 *   rep_jitreuse DIR SECONDS_EACH     (CPU seconds for each function)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

static void put64(FILE *f, uint64_t v)
{
	fwrite(&v, 8, 1, f);
}

/* mov ecx, 0x20000; dec ecx; jnz .-2; ret */
static const uint8_t code[] = { 0xb9, 0x00, 0x00, 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static void load(FILE *f, uint64_t addr, const char *name, uint64_t index)
{
	uint32_t n = (uint32_t)strlen(name) + 1;

	put32(f, 0); /* JIT_CODE_LOAD */
	put32(f, 16 + 40 + n + (uint32_t)sizeof(code));
	put64(f, mono_ns());
	put32(f, (uint32_t)getpid());
	put32(f, (uint32_t)syscall(SYS_gettid));
	put64(f, addr);
	put64(f, addr);
	put64(f, sizeof(code));
	put64(f, index);
	fwrite(name, n, 1, f);
	fwrite(code, sizeof(code), 1, f);
	fflush(f);
}

static void *gen(void *hint)
{
	void *p = mmap(hint, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (hint ? MAP_FIXED_NOREPLACE : 0), -1, 0);

	if (p == MAP_FAILED || (hint && p != hint)) {
		perror("rep_jitreuse: mmap");
		exit(1);
	}
	memcpy(p, code, sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC)) {
		perror("rep_jitreuse: mprotect");
		exit(1);
	}
	return p;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Run the function for @secs of this thread's CPU time, not wall time, so
 * that each phase gets its share of samples however busy the machine is.
 */
static void run(void *p, double secs)
{
	void (*fn)(void) = (void (*)(void))p;
	uint64_t end = cpu_ns() + (uint64_t)(secs * 1e9);

	while (cpu_ns() < end)
		fn();
}

int main(int argc, char **argv)
{
	char path[4096];
	double secs;
	FILE *f;
	void *p, *marker;
	uint64_t sw;

	if (argc != 3) {
		fprintf(stderr, "usage: rep_jitreuse DIR SECONDS_EACH\n");
		return 2;
	}
	secs = atof(argv[2]);
	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], getpid());
	f = fopen(path, "w+");
	if (!f) {
		perror(path);
		return 1;
	}
	put32(f, 0x4A695444);
	put32(f, 1);
	put32(f, 40);
	put32(f, 62); /* EM_X86_64 */
	put32(f, 0);
	put32(f, (uint32_t)getpid());
	put64(f, mono_ns());
	put64(f, 0);
	fflush(f);
	/* the marker mapping that tells a recorder where the dump is */
	marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0);
	if (marker == MAP_FAILED) {
		perror("rep_jitreuse: mmap jitdump");
		return 1;
	}
	p = gen(NULL);
	load(f, (uint64_t)(uintptr_t)p, "reuse_A", 1);
	run(p, secs);
	munmap(p, 4096);
	p = gen(p);
	sw = mono_ns();
	load(f, (uint64_t)(uintptr_t)p, "reuse_B", 2);
	run(p, secs);
	printf("switch %llu addr %llx\n", (unsigned long long)sw, (unsigned long long)(uintptr_t)p);
	munmap(marker, 4096);
	fclose(f);
	return 0;
}
