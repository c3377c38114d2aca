// SPDX-License-Identifier: GPL-2.0
/*
 * mremap of executable code: the new place gets an MMAP3 cause mremap with
 * exactly the range the code now occupies (all of it after a move, the grown
 * tail after growing in place), after the MUNMAP of the old place. A moved
 * file mapping keeps its file and offset. A failed mremap and a moved data
 * mapping give no MMAP3.
 */
#include <sys/stat.h>

#include "jsession.h"

static const struct jmmap_rec_mmap3 *find_mremap(struct js_records *r, uint64_t start,
						 uint64_t len, int *count, int *index)
{
	const struct jmmap_rec_mmap3 *found = NULL;
	int i = 0;

	*count = 0;
	js_for_each(r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;

		i++;
		if (h->type != JMMAP_REC_MMAP3 || m->pid != (uint32_t)getpid() ||
		    m->cause != JMMAP_CAUSE_MREMAP)
			continue;
		(*count)++;
		if (m->start == start && m->len == len) {
			found = m;
			*index = i;
		}
	}
	return found;
}

static const struct jmmap_rec_munmap *find_munmap(struct js_records *r, uint64_t start,
						  uint64_t len, int *index)
{
	int i = 0;

	*index = 0;
	js_for_each(r, h) {
		const struct jmmap_rec_munmap *u = (const void *)h;

		i++;
		if (h->type == JMMAP_REC_MUNMAP && u->pid == (uint32_t)getpid() &&
		    u->start == start && u->len == len) {
			*index = i;
			return u;
		}
	}
	return NULL;
}

static void flush(int fd)
{
	struct js_records r = { 0 };

	js_drain(fd, &r);
	js_free(&r);
}

int main(void)
{
	const int rwx = PROT_READ | PROT_WRITE | PROT_EXEC;
	const int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	const struct jmmap_rec_mmap3 *m;
	const struct jmmap_rec_munmap *u;
	struct js_records r = { 0 };
	uint8_t *base, *dst, *moved, *file;
	int fd, exe, count, idx = 0, unmap_idx;
	char exe_path[256];
	ssize_t n;

	ktap_begin();
	fd = js_open_self(0, 0);

	/* 1. Move two executable pages to a reserved place. */
	base = mmap(NULL, 2 * JS_PAGE, rwx, flags, -1, 0);
	dst = mmap(NULL, 4 * JS_PAGE, PROT_NONE, flags, -1, 0);
	if (base == MAP_FAILED || dst == MAP_FAILED)
		ktap_skip_all("mmap failed");
	js_write_code(base, 0x42);
	flush(fd);
	moved = mremap(base, 2 * JS_PAGE, 2 * JS_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (!ktap_ok(moved == dst, "mremap_move_done: mremap moved the code (%s)",
		     moved == dst ? "ok" : strerror(errno)))
		return ktap_finish();
	ktap_ok(js_run_code(dst) == 0x42, "moved_code_runs: the code runs at its new place");
	js_drain(fd, &r);
	m = find_mremap(&r, (uintptr_t)dst, 2 * JS_PAGE, &count, &idx);
	u = find_munmap(&r, (uintptr_t)base, 2 * JS_PAGE, &unmap_idx);
	if (!ktap_ok(m && count == 1 && (m->prot & PROT_EXEC) && !strcmp(js_mmap3_name(m), "//anon"),
		     "mremap_move_mmap3: one MMAP3 cause mremap of exactly the new place (%d)",
		     count))
		js_dump(&r, getpid());
	ktap_ok(m && m->vma_start <= (uintptr_t)dst && m->vma_end >= (uintptr_t)dst + 2 * JS_PAGE,
		"mremap_move_vma_bounds: the vma bounds contain the new place");
	ktap_ok(m && u && unmap_idx < idx && u->time <= m->time,
		"mremap_move_order: the MUNMAP of the old place comes first, in queue and time "
		"(records %d, %d)",
		unmap_idx, idx);
	js_free(&r);
	munmap(dst, 4 * JS_PAGE);
	flush(fd);

	/* 2. Grow two executable pages in place into a hole of two pages. */
	base = mmap(NULL, 4 * JS_PAGE, rwx, flags, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap failed");
	munmap(base + 2 * JS_PAGE, 2 * JS_PAGE);
	flush(fd);
	moved = mremap(base, 2 * JS_PAGE, 4 * JS_PAGE, 0);
	if (ktap_ok(moved == base, "mremap_grow_done: mremap grew the code in place (%s)",
		    moved == base ? "ok" : strerror(errno))) {
		js_drain(fd, &r);
		m = find_mremap(&r, (uintptr_t)base + 2 * JS_PAGE, 2 * JS_PAGE, &count, &idx);
		if (!ktap_ok(m && count == 1 && m->vma_start == (uintptr_t)base &&
				     m->vma_end == (uintptr_t)base + 4 * JS_PAGE,
			     "mremap_grow_mmap3: one MMAP3 cause mremap of exactly the grown tail, "
			     "vma the whole mapping (%d)",
			     count))
			js_dump(&r, getpid());
		js_free(&r);
	}
	munmap(base, 4 * JS_PAGE);
	flush(fd);

	/* 3. A failed mremap (no room to grow, no MAYMOVE) gives nothing. */
	base = mmap(NULL, 3 * JS_PAGE, rwx, flags, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap failed");
	flush(fd);
	moved = mremap(base, 2 * JS_PAGE, 4 * JS_PAGE, 0);
	ktap_ok(moved == MAP_FAILED, "mremap_fail_done: growing into the next vma fails (%s)",
		moved == MAP_FAILED ? strerror(errno) : "it did not");
	js_drain(fd, &r);
	find_mremap(&r, 0, 0, &count, &idx);
	if (!ktap_ok(count == 0, "mremap_fail_silent: no MMAP3 cause mremap (%d)", count))
		js_dump(&r, getpid());
	js_free(&r);
	munmap(base, 3 * JS_PAGE);

	/* 4. A file mapping moved and grown keeps its file and offset. */
	n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (n <= 0 || exe < 0)
		ktap_skip_all("cannot open /proc/self/exe");
	exe_path[n] = 0;
	file = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, exe, JS_PAGE);
	dst = mmap(NULL, 2 * JS_PAGE, PROT_NONE, flags, -1, 0);
	if (file == MAP_FAILED || dst == MAP_FAILED)
		ktap_skip_all("mmap of the test's own file failed");
	flush(fd);
	moved = mremap(file, JS_PAGE, 2 * JS_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	if (ktap_ok(moved == dst, "mremap_file_done: mremap moved and grew a file mapping (%s)",
		    moved == dst ? "ok" : strerror(errno))) {
		js_drain(fd, &r);
		m = find_mremap(&r, (uintptr_t)dst, 2 * JS_PAGE, &count, &idx);
		if (!ktap_ok(m && count == 1 && m->pgoff == JS_PAGE &&
				     !strcmp(js_mmap3_name(m), exe_path) && m->ino != 0,
			     "mremap_file_mmap3: MMAP3 cause mremap names %s at offset 0x1000 (%d)",
			     exe_path, count))
			js_dump(&r, getpid());
		js_free(&r);
	}
	munmap(dst, 2 * JS_PAGE);
	close(exe);
	flush(fd);

	/* 5. Data moved: nothing. */
	base = mmap(NULL, 2 * JS_PAGE, PROT_READ | PROT_WRITE, flags, -1, 0);
	dst = mmap(NULL, 2 * JS_PAGE, PROT_NONE, flags, -1, 0);
	flush(fd);
	moved = mremap(base, 2 * JS_PAGE, 2 * JS_PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	js_drain(fd, &r);
	find_mremap(&r, 0, 0, &count, &idx);
	ktap_ok(moved == dst && count == 0, "mremap_data_silent: moving data gives no MMAP3 (%d)",
		count);
	js_free(&r);
	munmap(dst, 2 * JS_PAGE);
	close(fd);
	return ktap_finish();
}
