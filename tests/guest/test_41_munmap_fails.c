// SPDX-License-Identifier: GPL-2.0
/*
 * MUNMAP only for an unmap that took effect: a munmap of the middle page of
 * an executable mapping fails with ENOMEM while vm.max_map_count forbids the
 * split; it must give no MUNMAP, and the code must still be there. The same
 * munmap with the limit restored gives exactly one MUNMAP of that page.
 */
#include "jsession.h"

#define MAX_MAP_COUNT JS_MAX_MAP_COUNT

int main(void)
{
	const int rwx = PROT_READ | PROT_WRITE | PROT_EXEC;
	struct js_records r = {0};
	char old[32] = {0};
	int fd, sysfd, count, exact, err;
	uint8_t *base;
	ssize_t n;
	long rc;

	ktap_begin();
	sysfd = js_max_map_count_open(old, sizeof(old), &n);
	fd = js_open_self(0, 0);

	base = mmap(NULL, 3 * JS_PAGE, rwx, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		ktap_skip_all("mmap failed");
	js_write_code(base + JS_PAGE, 0x41);
	js_drain(fd, &r);
	js_free(&r);

	/* No output between lowering the limit and restoring it: stdio may map. */
	if (pwrite(sysfd, "1\n", 2, 0) != 2)
		ktap_skip_all("cannot lower " MAX_MAP_COUNT);
	rc = munmap(base + JS_PAGE, JS_PAGE);
	err = errno;
	if (pwrite(sysfd, old, (size_t)n, 0) != n) {
		ktap_ok(0, "restore " MAX_MAP_COUNT " to %s", old);
		return ktap_finish();
	}
	if (!ktap_ok(rc == -1 && err == ENOMEM,
		     "munmap_split_refused: munmap of the middle page fails with ENOMEM "
		     "under max_map_count 1 (rc %ld, %s)",
		     rc, rc ? strerror(err) : "success"))
		return ktap_finish();
	ktap_ok(js_run_code(base + JS_PAGE) == 0x41,
		"failed_munmap_code_stays: the page still runs its code");
	js_drain(fd, &r);
	exact = !!js_find_munmap(&r, getpid(), (uintptr_t)base + JS_PAGE, JS_PAGE,
				 JMMAP_UNMAP_MUNMAP, &count);
	if (!ktap_ok(count == 0, "failed_munmap_silent: a munmap that failed gives no MUNMAP (%d)",
		     count))
		js_dump(&r, getpid());
	js_free(&r);

	rc = munmap(base + JS_PAGE, JS_PAGE);
	ktap_ok(rc == 0, "munmap_after_restore: the same munmap succeeds with the limit restored");
	js_drain(fd, &r);
	exact = !!js_find_munmap(&r, getpid(), (uintptr_t)base + JS_PAGE, JS_PAGE,
				 JMMAP_UNMAP_MUNMAP, &count);
	if (!ktap_ok(
		count == 1 && exact == 1,
		"done_munmap_reported: it gives one MUNMAP of exactly that page (%d, %d exact)",
		count, exact))
		js_dump(&r, getpid());
	js_free(&r);

	munmap(base, 3 * JS_PAGE);
	close(fd);
	close(sysfd);
	return ktap_finish();
}
