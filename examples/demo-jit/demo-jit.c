// SPDX-License-Identifier: GPL-2.0
/*
 * demo-jit: a tiny JIT for trying jrec on the two things perf gets wrong
 * with JITs. It writes x86-64 machine code for N small functions into
 * adjacent anonymous pages, one page each (mmap RW, write, mprotect RX), so
 * the kernel merges the pages into one growing vma; it announces the even
 * functions in a jitdump (jit-PID.dump, mapped PROT_EXEC so that a recorder
 * sees it, LOAD records stamped with CLOCK_MONOTONIC) and the odd ones in
 * /tmp/perf-PID.map; then it calls them in a loop for a bounded time.
 *
 *   demo-jit [-t SECONDS] [-n FUNCS] [-d JITDUMP_DIR] [-k]
 *
 * -t run time (default 1.5 s), -n number of functions (2..64, default 8),
 * -d where jit-PID.dump goes (default /tmp), -k keep the jitdump and perf
 * map at exit (by default both are deleted, as many runtimes do).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define JITDUMP_MAGIC 0x4A695444u
#define JIT_CODE_LOAD 0
#define JIT_CODE_CLOSE 3
#define MAX_FUNCS 64

struct jitheader {
	uint32_t magic, version, total_size, elf_mach, pad1, pid;
	uint64_t timestamp, flags;
};

struct jr_prefix {
	uint32_t id, total_size;
	uint64_t timestamp;
};

struct jr_code_load {
	struct jr_prefix p;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	/* name, NUL-terminated, then the code bytes */
};

typedef unsigned int (*jit_fn)(unsigned int);

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int write_all(int fd, const void *p, size_t len)
{
	const char *b = p;

	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The code of function i: a frame, a loop of (i + 1) * 2000 iterations of
 * add/imul, and a return. With a frame pointer so that -g call chains walk
 * through it.
 */
static size_t emit_code(uint8_t *p, unsigned int i)
{
	uint32_t iters = (i + 1) * 2000;
	size_t n = 0;

	p[n++] = 0x55;                                  /* push %rbp */
	p[n++] = 0x48; p[n++] = 0x89; p[n++] = 0xe5;    /* mov %rsp,%rbp */
	p[n++] = 0x89; p[n++] = 0xf8;                   /* mov %edi,%eax */
	p[n++] = 0xb9;                                  /* mov $iters,%ecx */
	memcpy(p + n, &iters, 4);
	n += 4;
	/* loop: */
	p[n++] = 0x01; p[n++] = 0xc8;                   /* add %ecx,%eax */
	p[n++] = 0x6b; p[n++] = 0xc0; p[n++] = 0x03;    /* imul $3,%eax,%eax */
	p[n++] = 0xff; p[n++] = 0xc9;                   /* dec %ecx */
	p[n++] = 0x75; p[n++] = 0xf7;                   /* jnz loop (-9) */
	p[n++] = 0x5d;                                  /* pop %rbp */
	p[n++] = 0xc3;                                  /* ret */
	return n;
}

static void usage(void)
{
	fprintf(stderr, "usage: demo-jit [-t SECONDS] [-n FUNCS] [-d JITDUMP_DIR] [-k]\n");
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	double secs = 1.5;
	unsigned int nfuncs = 8, i;
	int keep = 0, c, dump_fd, map_fd;
	char dump_path[4096], map_path[64], name[64];
	long page = sysconf(_SC_PAGESIZE);
	jit_fn fns[MAX_FUNCS];
	uint8_t *base, *mark;
	struct jitheader jh;
	uint64_t end, calls = 0;
	unsigned int acc = 1;
	pid_t pid = getpid();

	while ((c = getopt(argc, argv, "t:n:d:kh")) != -1) {
		switch (c) {
		case 't':
			secs = atof(optarg);
			break;
		case 'n':
			nfuncs = (unsigned int)atoi(optarg);
			break;
		case 'd':
			dir = optarg;
			break;
		case 'k':
			keep = 1;
			break;
		default:
			usage();
			return c == 'h' ? 0 : 2;
		}
	}
	if (secs <= 0 || secs > 3600 || nfuncs < 2 || nfuncs > MAX_FUNCS) {
		usage();
		return 2;
	}
#ifndef __x86_64__
	fprintf(stderr, "demo-jit: generates x86-64 code only\n");
	return 4;
#endif

	/* the jitdump: header, then mapped executable so the recorder sees it */
	snprintf(dump_path, sizeof(dump_path), "%s/jit-%d.dump", dir, (int)pid);
	dump_fd = open(dump_path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (dump_fd < 0) {
		perror(dump_path);
		return 1;
	}
	memset(&jh, 0, sizeof(jh));
	jh.magic = JITDUMP_MAGIC;
	jh.version = 1;
	jh.total_size = sizeof(jh);
	jh.elf_mach = EM_X86_64;
	jh.pid = (uint32_t)pid;
	jh.timestamp = mono_ns();
	if (write_all(dump_fd, &jh, sizeof(jh))) {
		perror(dump_path);
		return 1;
	}
	mark = mmap(NULL, (size_t)page, PROT_READ | PROT_EXEC, MAP_PRIVATE, dump_fd, 0);
	if (mark == MAP_FAILED) {
		perror("mmap jitdump");
		return 1;
	}

	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", (int)pid);
	map_fd = open(map_path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
	if (map_fd < 0) {
		perror(map_path);
		return 1;
	}

	/* reserve the range, then commit it page by page */
	base = mmap(NULL, (size_t)page * nfuncs, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < nfuncs; i++) {
		uint8_t *p = base + (size_t)i * (size_t)page;
		uint8_t code[64];
		size_t len = emit_code(code, i);

		if (mmap(p, (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
			perror("mmap page");
			return 1;
		}
		memcpy(p, code, len);
		if (mprotect(p, (size_t)page, PROT_READ | PROT_EXEC)) {
			perror("mprotect");
			return 1;
		}
		fns[i] = (jit_fn)(void *)p;
		if (i % 2 == 0) {
			struct jr_code_load rec;

			snprintf(name, sizeof(name), "jitdump_fn_%u", i);
			memset(&rec, 0, sizeof(rec));
			rec.p.id = JIT_CODE_LOAD;
			rec.p.total_size = (uint32_t)(sizeof(rec) + strlen(name) + 1 + len);
			rec.p.timestamp = mono_ns();
			rec.pid = (uint32_t)pid;
			rec.tid = (uint32_t)syscall(SYS_gettid);
			rec.vma = rec.code_addr = (uint64_t)(uintptr_t)p;
			rec.code_size = len;
			rec.code_index = i;
			if (write_all(dump_fd, &rec, sizeof(rec)) ||
			    write_all(dump_fd, name, strlen(name) + 1) ||
			    write_all(dump_fd, p, len)) {
				perror(dump_path);
				return 1;
			}
		} else {
			char line[128];
			int n = snprintf(line, sizeof(line), "%lx %zx perfmap_fn_%u\n",
					 (unsigned long)(uintptr_t)p, len, i);

			if (write_all(map_fd, line, (size_t)n)) {
				perror(map_path);
				return 1;
			}
		}
	}
	/*
	 * A recorder stamps perf-map lines when it sees them (jrec polls every
	 * 10 ms); give it that long before the code runs.
	 */
	usleep(50000);

	end = mono_ns() + (uint64_t)(secs * 1e9);
	while (mono_ns() < end) {
		for (i = 0; i < nfuncs; i++)
			acc = fns[i](acc);
		calls += nfuncs;
	}

	{
		struct jr_prefix close_rec = { JIT_CODE_CLOSE, sizeof(close_rec), mono_ns() };

		write_all(dump_fd, &close_rec, sizeof(close_rec));
	}
	munmap(mark, (size_t)page);
	close(dump_fd);
	close(map_fd);
	if (!keep) {
		unlink(dump_path);
		unlink(map_path);
	}
	printf("demo-jit: %u functions, %llu calls, result %u\n", nfuncs,
	       (unsigned long long)calls, acc);
	return 0;
}
