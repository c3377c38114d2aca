/* SPDX-License-Identifier: GPL-2.0 */
/*
 * testjit: the smallest JIT the report tests need. Generates a counting loop
 * into executable pages and announces it in a jitdump (jit-PID.dump, mapped
 * PROT_EXEC so that recorders find it) or a perf map (/tmp/perf-PID.map).
 * Functions run for a span of the calling thread's CPU time, not wall time,
 * so that each phase gets its share of samples however busy the machine is.
 */
#ifndef TESTJIT_H
#define TESTJIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* mov ecx, 0x20000; dec ecx; jnz .-2; ret */
static const uint8_t tj_code[] = { 0xb9, 0x00, 0x00, 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static inline uint64_t tj_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t tj_mono_ns(void)
{
	return tj_clock_ns(CLOCK_MONOTONIC);
}

static inline void tj_put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

static inline void tj_put64(FILE *f, uint64_t v)
{
	fwrite(&v, 8, 1, f);
}

/* Create DIR/jit-PID.dump with its header and marker mapping; exits on failure. */
static inline FILE *tj_jitdump_open(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, getpid());
	f = fopen(path, "w+");
	if (!f) {
		perror(path);
		exit(1);
	}
	tj_put32(f, 0x4A695444);
	tj_put32(f, 1);
	tj_put32(f, 40);
	tj_put32(f, 62); /* EM_X86_64 */
	tj_put32(f, 0);
	tj_put32(f, (uint32_t)getpid());
	tj_put64(f, tj_mono_ns());
	tj_put64(f, 0);
	fflush(f);
	/* the marker mapping that tells a recorder where the dump is */
	if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0) == MAP_FAILED) {
		perror("testjit: mmap jitdump");
		exit(1);
	}
	return f;
}

/* A JIT_CODE_LOAD record for @size bytes of @code at @addr, stamped now. */
static inline void tj_jitdump_load_code(FILE *f, uint64_t addr, const char *name, uint64_t index,
					const uint8_t *code, uint32_t size)
{
	uint32_t n = (uint32_t)strlen(name) + 1;

	tj_put32(f, 0); /* JIT_CODE_LOAD */
	tj_put32(f, 16 + 40 + n + size);
	tj_put64(f, tj_mono_ns());
	tj_put32(f, (uint32_t)getpid());
	tj_put32(f, (uint32_t)syscall(SYS_gettid));
	tj_put64(f, addr);
	tj_put64(f, addr);
	tj_put64(f, size);
	tj_put64(f, index);
	fwrite(name, n, 1, f);
	fwrite(code, size, 1, f);
	fflush(f);
}

/*
 * A JIT_CODE_DEBUG_INFO record for the code at @addr (it precedes that
 * code's LOAD): @n entries, the code from @addr + @offs[i] on compiled from
 * line @lines[i] of @file.
 */
static inline void tj_jitdump_debug(FILE *f, uint64_t addr, const char *file, size_t n,
				    const uint32_t *offs, const uint32_t *lines)
{
	uint32_t flen = (uint32_t)strlen(file) + 1;
	size_t i;

	tj_put32(f, 2); /* JIT_CODE_DEBUG_INFO */
	tj_put32(f, (uint32_t)(16 + 16 + n * (16 + flen)));
	tj_put64(f, tj_mono_ns());
	tj_put64(f, addr);
	tj_put64(f, n);
	for (i = 0; i < n; i++) {
		tj_put64(f, addr + offs[i]);
		tj_put32(f, lines[i]);
		tj_put32(f, 0); /* discriminator */
		fwrite(file, flen, 1, f);
	}
	fflush(f);
}

/* A JIT_CODE_LOAD record for the loop at @addr, stamped now. */
static inline void tj_jitdump_load(FILE *f, uint64_t addr, const char *name, uint64_t index)
{
	tj_jitdump_load_code(f, addr, name, index, tj_code, sizeof(tj_code));
}

/* Append "ADDR SIZE NAME" to /tmp/perf-PID.map. */
static inline void tj_perfmap_add_size(uint64_t addr, size_t size, const char *name)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "a");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%llx %zx %s\n", (unsigned long long)addr, size, name);
	fclose(f);
}

/* The same for the loop (tj_code). */
static inline void tj_perfmap_add(uint64_t addr, const char *name)
{
	tj_perfmap_add_size(addr, sizeof(tj_code), name);
}

static inline void tj_perfmap_remove(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	unlink(path);
}

static inline void tj_protect(void *p, int prot)
{
	if (mprotect(p, 4096, prot)) {
		perror("testjit: mprotect");
		exit(1);
	}
}

/* Write the loop into @p (a page of ours, writable or not) and make it executable. */
static inline void tj_fill(void *p, int writable)
{
	if (!writable)
		tj_protect(p, PROT_READ | PROT_WRITE);
	memcpy(p, tj_code, sizeof(tj_code));
	tj_protect(p, PROT_READ | PROT_EXEC);
}

/* A new executable page holding the loop, at @hint exactly if not NULL. */
static inline void *tj_gen(void *hint)
{
	void *p = mmap(hint, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | (hint ? MAP_FIXED_NOREPLACE : 0), -1, 0);

	if (p == MAP_FAILED || (hint && p != hint)) {
		perror("testjit: mmap");
		exit(1);
	}
	tj_fill(p, 1);
	return p;
}

/* Run the loop at @p for @secs of this thread's CPU time. */
static inline void tj_run(void *p, double secs)
{
	void (*fn)(void) = (void (*)(void))p;
	uint64_t end = tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)(secs * 1e9);

	while (tj_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		fn();
}

#endif
