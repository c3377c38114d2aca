// SPDX-License-Identifier: GPL-2.0
/*
 * rep_nonelf: code in a mapped file that is not ELF, as a runtime with its
 * own image format has. Writes DIR/image.bin (a small header, then two
 * functions), maps it PROT_READ|PROT_EXEC, names the functions in
 * /tmp/perf-PID.map, runs them for SECONDS and removes the map.
 *
 *   rep_nonelf DIR SECONDS
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* mov ecx, 0x20000; dec ecx; jnz .-2; ret */
static const uint8_t code[] = { 0xb9, 0x00, 0x00, 0x02, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint8_t img[8192];
	char path[4096];
	FILE *map;
	uint8_t *p;
	double end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: rep_nonelf DIR SECONDS\n");
		return 2;
	}
	memset(img, 0xcc, sizeof(img));
	memcpy(img, "MYIMAGE1", 8); /* not ELF */
	memcpy(img + 0x100, code, sizeof(code));
	memcpy(img + 0x1100, code, sizeof(code));
	snprintf(path, sizeof(path), "%s/image.bin", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, img, sizeof(img)) != (ssize_t)sizeof(img)) {
		perror(path);
		return 1;
	}
	p = mmap(NULL, sizeof(img), PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("rep_nonelf: mmap");
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	map = fopen(path, "w");
	if (!map) {
		perror(path);
		return 1;
	}
	fprintf(map, "%lx %zx image_fn_a\n", (unsigned long)(uintptr_t)(p + 0x100), sizeof(code));
	fprintf(map, "%lx %zx image_fn_b\n", (unsigned long)(uintptr_t)(p + 0x1100), sizeof(code));
	fclose(map);
	end = now() + atof(argv[2]);
	while (now() < end) {
		((void (*)(void))(p + 0x100))();
		((void (*)(void))(p + 0x1100))();
	}
	printf("pid %d\n", getpid());
	unlink(path); /* as runtimes do: the recording keeps the timed lines */
	return 0;
}
