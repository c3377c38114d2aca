// SPDX-License-Identifier: GPL-2.0
/*
 * rec_imgmap: a runtime's own image format in miniature. Writes FILE (bytes
 * that are not ELF), maps it executable, spins for a while, then deletes the
 * file before exiting, so the recorder can only have saved it while mapped.
 *
 *   rec_imgmap FILE SECONDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[3 * 4096 + 123];
	struct timespec ts;
	volatile unsigned long x = 0;
	double end;
	size_t i;
	void *p;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: rec_imgmap FILE SECONDS\n");
		return 2;
	}
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + (size_t)getpid());
	memcpy(buf, "IMG1", 4);
	fd = open(argv[1], O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, sizeof(buf), PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = (double)ts.tv_sec + ts.tv_nsec / 1e9 + atof(argv[2]);
	do {
		for (i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while ((double)ts.tv_sec + ts.tv_nsec / 1e9 < end);
	unlink(argv[1]);
	munmap(p, sizeof(buf));
	close(fd);
	return 0;
}
