// SPDX-License-Identifier: GPL-2.0
/*
 * MUNMAP: every way executable code goes away yields the exact range that
 * went, with its cause: munmap of part of a mapping, mprotect taking
 * PROT_EXEC away, a MAP_FIXED mapping over it, mremap moving it, one munmap
 * over code and data. Unmapping data yields nothing.
 */
#include "jsession.h"

static void expect(int fd, uint8_t *base, unsigned long off, unsigned long len, uint32_t cause,
		   const char *name, const char *what)
{
	struct js_records r = {0};
	int count;
	const struct jmmap_rec_munmap *u;

	js_drain(fd, &r);
	u = js_find_munmap(&r, getpid(), (uintptr_t)base + off, len, cause, &count);
	ktap_ok(u && count == 1, "%s: %s gives one MUNMAP of exactly +0x%lx len 0x%lx (%d MUNMAPs)",
		name, what, off, len, count);
	if (!u || count != 1)
		js_dump(&r, getpid());
	js_free(&r);
}

int main(void)
{
	const int rwx = PROT_READ | PROT_WRITE | PROT_EXEC;
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	struct js_records r = {0};
	uint8_t *base, *dst, *moved;
	int fd, count;

	ktap_begin();
	fd = js_open_self(0, 0);

	base = mmap(NULL, 4 * JS_PAGE, rwx, flags, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap failed");
	js_drain(fd, &r);
	js_free(&r);
	munmap(base + JS_PAGE, 2 * JS_PAGE);
	expect(fd, base, JS_PAGE, 2 * JS_PAGE, JMMAP_UNMAP_MUNMAP, "munmap_part_exact",
	       "munmap of the middle two of four pages");

	mprotect(base, JS_PAGE, PROT_READ | PROT_WRITE);
	expect(fd, base, 0, JS_PAGE, JMMAP_UNMAP_MPROTECT, "mprotect_drop_exec",
	       "mprotect(PROT_READ|PROT_WRITE) of page 0");

	mmap(base + 3 * JS_PAGE, JS_PAGE, PROT_READ | PROT_EXEC, flags | MAP_FIXED, -1, 0);
	expect(fd, base, 3 * JS_PAGE, JS_PAGE, JMMAP_UNMAP_MAP_FIXED, "map_fixed_over_code",
	       "MAP_FIXED over executable page 3");
	munmap(base, 4 * JS_PAGE);
	js_drain(fd, &r);
	js_free(&r);

	/* mremap moving two executable pages to a reserved place. */
	base = mmap(NULL, 2 * JS_PAGE, rwx, flags, -1, 0);
	dst = mmap(NULL, 2 * JS_PAGE, PROT_NONE, flags, -1, 0);
	js_drain(fd, &r);
	js_free(&r);
	moved = mremap(base, 2 * JS_PAGE, 2 * JS_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (moved == dst)
		expect(fd, base, 0, 2 * JS_PAGE, JMMAP_UNMAP_MREMAP, "mremap_moves_code",
		       "mremap of two executable pages");
	else
		ktap_ok(0, "mremap_moves_code: mremap failed: %s", strerror(errno));
	munmap(dst, 2 * JS_PAGE);
	js_drain(fd, &r);
	js_free(&r);

	/*
	 * One munmap over three vmas, code, data, code: a MUNMAP for each
	 * piece of code, exactly, and none for the data between.
	 */
	base = mmap(NULL, 3 * JS_PAGE, rwx, flags, -1, 0);
	if (base == MAP_FAILED || mprotect(base + JS_PAGE, JS_PAGE, PROT_READ | PROT_WRITE)) {
		ktap_ok(0, "munmap_three_vmas: setting up code, data, code failed: %s",
			strerror(errno));
	} else {
		const struct jmmap_rec_munmap *first, *last;

		js_drain(fd, &r);
		js_free(&r);
		munmap(base, 3 * JS_PAGE);
		js_drain(fd, &r);
		first = js_find_munmap(&r, getpid(), (uintptr_t)base, JS_PAGE, JMMAP_UNMAP_MUNMAP,
				       &count);
		last = js_find_munmap(&r, getpid(), (uintptr_t)base + 2 * JS_PAGE, JS_PAGE,
				      JMMAP_UNMAP_MUNMAP, &count);
		ktap_ok(first && last && count == 2,
			"munmap_three_vmas: munmap of code, data, code gives one MUNMAP of each "
			"piece of code and none for the data (%d MUNMAPs)",
			count);
		if (!first || !last || count != 2)
			js_dump(&r, getpid());
		js_free(&r);
	}

	/* Data: no MUNMAP. */
	base = mmap(NULL, 2 * JS_PAGE, PROT_READ | PROT_WRITE, flags, -1, 0);
	munmap(base, 2 * JS_PAGE);
	js_drain(fd, &r);
	js_find_munmap(&r, getpid(), 0, 0, 0, &count);
	ktap_ok(count == 0, "munmap_data_silent: unmapping data gives no MUNMAP (%d)", count);
	js_free(&r);
	close(fd);
	return ktap_finish();
}
