// SPDX-License-Identifier: GPL-2.0
/*
 * rep_shmjit: JIT code in shared anonymous memory, in the forms the kernel
 * names differently in its mapping records and /proc/PID/maps:
 *   shm_devzero  MAP_SHARED|MAP_ANONYMOUS      "/dev/zero (deleted)"
 *   shm_memfd    a memfd, mapped once          "/memfd:rep_shmjit (deleted)"
 *   shm_sysv     SysV shared memory            "/SYSV00000000 (deleted)"
 *   shm_dual     one memfd mapped twice: written through a read-write view,
 *                run through a read-exec view at another address (W^X by
 *                double mapping, as some JITs and libffi's closures do)
 * Each function is announced in a perf map or a jitdump, then run for
 * SECONDS/4 of CPU time in all, in turns of SLICE_S each, so that a jump of
 * the clock (an emulated guest whose host is busy) falls on any of them alike
 * rather than on the one running then; the perf map is kept (for perf) with -k.
 *
 *   rep_shmjit perfmap|jitdump SECONDS [DIR] [-k]
 *
 * Prints "FORM ADDRESS" for each, the address of the code that runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "testjit.h"

#define SLICE_S 0.005

static void *shared_anon(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("rep_shmjit: mmap shared anonymous");
		exit(1);
	}
	tj_fill(p, 1);
	return p;
}

static int new_memfd(void)
{
	int fd = memfd_create("rep_shmjit", 0);

	if (fd < 0 || ftruncate(fd, 4096)) {
		perror("rep_shmjit: memfd");
		exit(1);
	}
	return fd;
}

static void *memfd_once(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, new_memfd(), 0);

	if (p == MAP_FAILED) {
		perror("rep_shmjit: mmap memfd");
		exit(1);
	}
	tj_fill(p, 1);
	return p;
}

static void *sysv(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	void *p;

	if (id < 0) {
		perror("rep_shmjit: shmget");
		exit(1);
	}
	p = shmat(id, NULL, SHM_EXEC);
	shmctl(id, IPC_RMID, NULL); /* gone once detached */
	if (p == (void *)-1) {
		perror("rep_shmjit: shmat");
		exit(1);
	}
	memcpy(p, tj_code, sizeof(tj_code));
	return p;
}

static void *dual(void)
{
	int fd = new_memfd();
	void *rw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	void *rx = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);

	if (rw == MAP_FAILED || rx == MAP_FAILED) {
		perror("rep_shmjit: mmap memfd views");
		exit(1);
	}
	memcpy(rw, tj_code, sizeof(tj_code));
	return rx;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "shm_devzero", "shm_memfd", "shm_sysv", "shm_dual" };
	void *code[4];
	FILE *dump = NULL;
	int jitdump, keep, i;
	double secs;
	long rounds, r;

	if (argc < 3 || (strcmp(argv[1], "perfmap") && strcmp(argv[1], "jitdump"))) {
		fprintf(stderr, "usage: rep_shmjit perfmap|jitdump SECONDS [DIR] [-k]\n");
		return 2;
	}
	jitdump = !strcmp(argv[1], "jitdump");
	secs = atof(argv[2]);
	keep = argc > 3 && !strcmp(argv[argc - 1], "-k");
	if (jitdump)
		dump = tj_jitdump_open(argc > 3 && strcmp(argv[3], "-k") ? argv[3] : "/tmp");
	code[0] = shared_anon();
	code[1] = memfd_once();
	code[2] = sysv();
	code[3] = dual();
	for (i = 0; i < 4; i++) {
		if (jitdump)
			tj_jitdump_load(dump, (uint64_t)(uintptr_t)code[i], names[i], (uint64_t)i);
		else
			tj_perfmap_add((uint64_t)(uintptr_t)code[i], names[i]);
		printf("%s %p\n", names[i], code[i]);
	}
	fflush(stdout);
	rounds = secs / 4 / SLICE_S;
	if (rounds < 1)
		rounds = 1;
	for (r = 0; r < rounds; r++)
		for (i = 0; i < 4; i++)
			tj_run(code[i], secs / 4 / rounds);
	if (!jitdump && !keep)
		tj_perfmap_remove();
	return 0;
}
