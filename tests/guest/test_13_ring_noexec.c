// SPDX-License-Identifier: GPL-2.0
/*
 * The mapped ring never becomes executable: its bytes (file names among
 * them) are chosen by the processes a session follows. A mapping asked
 * executable is refused (test_12_ring), and so must be mprotect(PROT_EXEC)
 * on a ring mapped readable and writable: EACCES, as for any mapping that
 * may not be made executable. Dropping write access still works.
 */
#include "jsession.h"

#define RING (16 * 1024)

int main(void)
{
	size_t len = JS_PAGE + RING;
	int fd, e_x, e_rx, e_r;
	void *m;

	ktap_begin();
	fd = js_open_ring(RING);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		ktap_ok(0, "ring mapped readable and writable: %s", strerror(errno));
		return ktap_finish();
	}
	e_x = mprotect(m, len, PROT_READ | PROT_WRITE | PROT_EXEC) ? errno : 0;
	ktap_ok(e_x == EACCES, "mprotect_exec_refused: mprotect(PROT_READ|PROT_WRITE|PROT_EXEC): %s",
		e_x ? strerror(e_x) : "allowed");
	e_rx = mprotect(m, JS_PAGE, PROT_READ | PROT_EXEC) ? errno : 0;
	ktap_ok(e_rx == EACCES, "mprotect_exec_page_refused: mprotect(PROT_READ|PROT_EXEC) of the "
		"ring's page: %s", e_rx ? strerror(e_rx) : "allowed");
	e_r = mprotect(m, len, PROT_READ) ? errno : 0;
	ktap_ok(!e_r && ((struct jmmap_ring_page *)m)->data_size == RING,
		"mprotect_read_allowed: mprotect(PROT_READ): %s, data_size %llu",
		e_r ? strerror(e_r) : "ok",
		(unsigned long long)((struct jmmap_ring_page *)m)->data_size);
	munmap(m, len);
	close(fd);
	return ktap_finish();
}
