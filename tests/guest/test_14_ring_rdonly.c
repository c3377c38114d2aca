// SPDX-License-Identifier: GPL-2.0
/*
 * A descriptor open only for reading maps the ring for reading
 * (Documentation/mmap3.rst): mmap(PROT_READ, MAP_SHARED) of it works and
 * shows the records as they come, read() then moves data_tail for it; write
 * access is refused as for any read-only descriptor (EACCES), at mmap() and
 * at mprotect().
 */
#include "jsession.h"

#define RING (16 * 1024)

int main(void)
{
	struct jmmap_version v = { .size = sizeof(v) };
	size_t len = JS_PAGE + RING;
	const struct jmmap_ring_page *pg;
	struct js_records r = { 0 };
	uint64_t head0, head1;
	int fd, e, e_w, e_pw;
	void *m, *p;

	ktap_begin();
	fd = js_open_self(RING, 0); /* O_RDONLY */
	if (ioctl(fd, JMMAP_IOC_VERSION, &v) || !(v.features & JMMAP_FEAT_MMAP_RING))
		ktap_skip_all("the module does not offer the mapped ring");

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e_w = m == MAP_FAILED ? errno : 0;
	ktap_ok(e_w == EACCES, "rdonly_write_map_refused: PROT_READ|PROT_WRITE: %s",
		e_w ? strerror(e_w) : "mapped");
	if (m != MAP_FAILED)
		munmap(m, len);

	m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	e = m == MAP_FAILED ? errno : 0;
	if (!ktap_ok(!e, "rdonly_maps_for_reading: PROT_READ, MAP_SHARED on an O_RDONLY "
		     "descriptor: %s", e ? strerror(e) : "mapped"))
		return ktap_finish();
	pg = m;
	head0 = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	p = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	head1 = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	ktap_ok(p != MAP_FAILED && pg->data_size == RING && head1 > head0 &&
			((const struct jmmap_rec_header *)((const uint8_t *)m + JS_PAGE +
							   head0 % RING))->type == JMMAP_REC_MMAP3,
		"rdonly_sees_records: data_size %llu, data_head %llu -> %llu, an MMAP3 there",
		(unsigned long long)pg->data_size, (unsigned long long)head0,
		(unsigned long long)head1);
	js_drain(fd, &r);
	ktap_ok(r.count > 0 && pg->data_tail == pg->data_head,
		"rdonly_read_moves_tail: read() took %zu records, data_tail %llu, data_head %llu",
		r.count, (unsigned long long)pg->data_tail, (unsigned long long)pg->data_head);
	e_pw = mprotect(m, len, PROT_READ | PROT_WRITE) ? errno : 0;
	ktap_ok(e_pw == EACCES, "rdonly_mprotect_write_refused: mprotect(PROT_READ|PROT_WRITE): %s",
		e_pw ? strerror(e_pw) : "allowed");
	if (p != MAP_FAILED)
		munmap(p, JS_PAGE);
	munmap(m, len);
	js_free(&r);
	close(fd);
	return ktap_finish();
}
