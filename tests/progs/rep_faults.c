// SPDX-License-Identifier: GPL-2.0
/*
 * rep_faults: page faults at data addresses of each kind, for comparing the
 * names jrec script gives a page-fault sample's data address (perf record
 * -d) with perf script's: a global array in .bss and one in .data (object
 * symbols of the program), the heap (brk), anonymous memory (a large
 * malloc, mmap'd), the stack, and a file mapped for reading (the program
 * itself).
 *
 *   rep_faults [PAGES]     (default 16 pages of each)
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096
#define MAX_PAGES 64

static volatile char bss_pages[MAX_PAGES * PAGE];
volatile char data_pages[MAX_PAGES * PAGE] = { 1 };
static volatile unsigned long sink;

static void touch(volatile char *p, int pages)
{
	for (int i = 0; i < pages; i++)
		p[i * PAGE] = (char)i;
}

/* each frame a page of stack below the last */
__attribute__((noinline)) static void stack_pages(int n)
{
	volatile char frame[PAGE];

	frame[0] = (char)n;
	if (n > 1)
		stack_pages(n - 1);
	sink += (unsigned long)frame[0];
}

int main(int argc, char **argv)
{
	int pages = argc > 1 ? atoi(argv[1]) : 16;
	char *heap[MAX_PAGES], *anon;
	int fd;

	if (pages < 1 || pages > MAX_PAGES)
		pages = 16;
	touch(bss_pages, pages);
	touch(data_pages, pages);
	/* small blocks come from the brk heap, a large one from its own mapping */
	for (int i = 0; i < pages; i++) {
		heap[i] = malloc(PAGE);
		if (heap[i])
			heap[i][0] = (char)i;
	}
	anon = malloc((size_t)pages * PAGE * 8);
	if (anon)
		touch(anon, pages);
	stack_pages(pages);
	fd = open(argv[0], O_RDONLY);
	if (fd >= 0) {
		off_t len = lseek(fd, 0, SEEK_END);
		const volatile char *file =
			len > 0 ? mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;

		if (file != MAP_FAILED)
			for (off_t o = 0; o < len; o += PAGE)
				sink += (unsigned long)file[o];
		close(fd);
	}
	for (int i = 0; i < pages; i++)
		free(heap[i]);
	free(anon);
	return 0;
}
