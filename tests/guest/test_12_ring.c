// SPDX-License-Identifier: GPL-2.0
/*
 * The mapped ring (JMMAP_FEAT_MMAP_RING): mmap() of a session gives its
 * records as read() does, byte for byte, across several wraps of a small
 * ring; the module takes nothing but a sane data_tail from the page the
 * reader writes (a hostile one loses records, counted, and a scribbled
 * header fails read() with EINVAL); read() on a mapped ring moves
 * data_tail; the size is fixed once mapped; and the mapping holds the
 * session after its descriptor is closed.
 */
#include <sys/ioctl.h>

#include "jsession.h"

#define RING (16 * 1024)
#define LAPS 5
/* mmap, mprotect, munmap: a MMAP3 and a MUNMAP each, about 190 bytes */
#define PER_TAKE 20

struct ring {
	struct jmmap_ring_page *pg;
	const uint8_t *data;
	size_t len;
};

static int ring_map(int fd, uint32_t size, struct ring *r)
{
	void *m;

	r->len = JS_PAGE + size;
	m = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -1;
	r->pg = m;
	r->data = (const uint8_t *)m + JS_PAGE;
	return 0;
}

/* Everything between data_tail and data_head, appended to @out; bytes taken. */
static size_t ring_take(struct ring *r, struct js_records *out)
{
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->pg->data_tail, size = r->pg->data_size;
	uint64_t off = tail % size, n = head - tail, first = n < size - off ? n : size - off;

	if (n > size)
		return 0;
	js_append(out, r->data + off, first);
	js_append(out, r->data, n - first);
	__atomic_store_n(&r->pg->data_tail, head, __ATOMIC_RELEASE);
	return n;
}

/* One JIT-style commit of code: mmap RW, write, mprotect RX, call, munmap. */
static int commit_code(uint32_t value)
{
	void *p = mmap(NULL, JS_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	js_write_code(p, value);
	ok = !mprotect(p, JS_PAGE, PROT_READ | PROT_EXEC) && js_run_code(p) == value;
	return !munmap(p, JS_PAGE) && ok;
}

static uint64_t lost_total(int fd)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	uint64_t n = 0;

	if (ioctl(fd, JMMAP_IOC_GET_STATS, &st))
		return ~0ULL;
	for (int i = 0; i < JMMAP_REC_MAX; i++)
		n += st.lost[i];
	return n;
}

static int module_refs(void)
{
	FILE *f = fopen("/sys/module/jmmap/refcnt", "r");
	int n = -1;

	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static int open_rw(void)
{
	return open(JS_DEV, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

int main(void)
{
	struct jmmap_version v = { .size = sizeof(v) };
	struct jmmap_config cfg = { .size = sizeof(cfg), .buffer_bytes = RING };
	struct js_records mapped = { 0 }, read_back = { 0 }, after = { 0 };
	struct ring r;
	uint64_t head0, lost0, lost1;
	int fd, cmp_fd, fd3, e, ok = 1, laps, refs_open, refs_closed, refs_unmapped;
	size_t took = 0, n_lost_recs = 0;
	void *m;

	ktap_begin();
	fd = open_rw();
	if (fd < 0)
		ktap_skip_all("cannot open /dev/jmmap for writing: is jmmap loaded?");
	e = ioctl(fd, JMMAP_IOC_VERSION, &v) ? errno : 0;
	if (e || !(v.features & JMMAP_FEAT_MMAP_RING))
		ktap_skip_all("the module does not offer the mapped ring");
	if (ioctl(fd, JMMAP_IOC_CONFIG, &cfg)) {
		printf("# CONFIG %d bytes: %s\n", RING, strerror(errno));
		return KSFT_FAIL;
	}

	/* the mapping's shape is checked before anything is mapped */
	m = mmap(NULL, JS_PAGE + RING / 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = m == MAP_FAILED ? errno : 0;
	ktap_ok(e == EINVAL, "wrong_length_refused: a mapping of a page and half the ring: %s",
		e ? strerror(e) : "mapped");
	m = mmap(NULL, JS_PAGE + RING, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	e = m == MAP_FAILED ? errno : 0;
	ktap_ok(e == EINVAL, "private_refused: a MAP_PRIVATE mapping: %s",
		e ? strerror(e) : "mapped");
	m = mmap(NULL, JS_PAGE + RING, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
	e = m == MAP_FAILED ? errno : 0;
	ktap_ok(e == EINVAL, "exec_refused: an executable mapping: %s",
		e ? strerror(e) : "mapped");

	e = ring_map(fd, RING, &r) ? errno : 0;
	ktap_ok(!e && r.pg->data_offset == JS_PAGE && r.pg->data_size == RING &&
			r.pg->data_head == 0 && r.pg->data_tail == 0,
		"mapped: offset %llu, size %llu, head %llu (%s)",
		e ? 0ULL : (unsigned long long)r.pg->data_offset,
		e ? 0ULL : (unsigned long long)r.pg->data_size,
		e ? 0ULL : (unsigned long long)r.pg->data_head, e ? strerror(e) : "ok");
	if (e)
		return ktap_finish();

	/* a second session, read() the usual way, sees the same records */
	cmp_fd = js_open(0, 0);
	if (cmp_fd < 0 || js_add(cmp_fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT) ||
	    js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		printf("# a session following this process: %s\n", strerror(errno));
		return KSFT_FAIL;
	}
	for (laps = 0; took < (size_t)LAPS * RING && ok; laps++) {
		for (int i = 0; i < PER_TAKE && ok; i++)
			ok = commit_code((uint32_t)(laps * PER_TAKE + i));
		took += ring_take(&r, &mapped);
		js_drain(cmp_fd, &read_back);
	}
	ktap_ok(ok, "code_ran: %d rounds of %d commits", laps, PER_TAKE);
	ktap_ok(took >= (size_t)LAPS * RING && r.pg->data_head == took,
		"wrapped: %zu bytes taken, %.1f times the ring, data_head %llu", took,
		(double)took / RING, (unsigned long long)r.pg->data_head);
	lost0 = lost_total(fd);
	ktap_ok(mapped.len == read_back.len && !memcmp(mapped.buf, read_back.buf, mapped.len) &&
			!read_back.framing_errors && lost0 == 0,
		"same_as_read: %zu bytes from the mapped ring, %zu from read(), %s; lost %llu",
		mapped.len, read_back.len,
		mapped.len == read_back.len && !memcmp(mapped.buf, read_back.buf, mapped.len) ?
			"equal" : "different",
		(unsigned long long)lost0);

	/* a data_tail ahead of data_head, then one not at a record boundary */
	head0 = r.pg->data_head;
	r.pg->data_tail = head0 + 8;
	ok = commit_code(1);
	lost1 = lost_total(fd);
	ktap_ok(ok && r.pg->data_head == head0 && lost1 >= 2,
		"tail_ahead_is_full: data_head stays at %llu (now %llu), %llu records counted lost",
		(unsigned long long)head0, (unsigned long long)r.pg->data_head,
		(unsigned long long)lost1);
	r.pg->data_tail = head0 - 3;
	ok = commit_code(2);
	lost0 = lost_total(fd);
	ktap_ok(ok && r.pg->data_head == head0 && lost0 >= lost1 + 2,
		"tail_unaligned_is_full: data_head stays, lost %llu then %llu",
		(unsigned long long)lost1, (unsigned long long)lost0);
	r.pg->data_tail = head0;
	ok = commit_code(3);
	ring_take(&r, &after);
	js_for_each(&after, h) {
		if (h->type == JMMAP_REC_LOST)
			n_lost_recs++;
	}
	ktap_ok(ok && n_lost_recs == 1 && after.len > 0 &&
			((const struct jmmap_rec_header *)after.buf)->type == JMMAP_REC_LOST,
		"recovers_with_lost: a sane tail again, %zu bytes, the first a LOST record (%zu LOST)",
		after.len, n_lost_recs);

	/* read() on the mapped ring moves data_tail as the reader would */
	ok = commit_code(4);
	js_free(&after);
	e = js_drain(fd, &after) ? 0 : errno;
	ktap_ok(ok && after.len > 0 && r.pg->data_tail == r.pg->data_head,
		"read_moves_tail: read() took %zu bytes, data_tail %llu, data_head %llu", after.len,
		(unsigned long long)r.pg->data_tail, (unsigned long long)r.pg->data_head);

	/* a header the reader wrote over: read() refuses it, the kernel stays up */
	ok = commit_code(5);
	((struct jmmap_rec_header *)(r.data + r.pg->data_tail % RING))->size = 3;
	{
		static uint8_t buf[JS_READ_BUF];
		ssize_t n = read(fd, buf, sizeof(buf));

		e = n < 0 ? errno : 0;
		ktap_ok(ok && n < 0 && e == EINVAL, "scribbled_header_einval: read() %zd (%s)", n,
			e ? strerror(e) : "no error");
	}
	r.pg->data_tail = r.pg->data_head;

	/* once mapped, the size is fixed; the rest of the config is not */
	fd3 = open_rw();
	e = fd3 < 0 ? errno : 0;
	if (!e) {
		struct ring r3 = { 0 };
		struct jmmap_config grow = { .size = sizeof(grow), .buffer_bytes = 2 * RING };
		struct jmmap_config wake = { .size = sizeof(wake), .wakeup_bytes = 4096 };
		int e_grow, e_wake;

		e = ring_map(fd3, 1U << 20, &r3) ? errno : 0; /* the size at open */
		e_grow = ioctl(fd3, JMMAP_IOC_CONFIG, &grow) ? errno : 0;
		e_wake = ioctl(fd3, JMMAP_IOC_CONFIG, &wake) ? errno : 0;
		ktap_ok(!e && e_grow == EBUSY && !e_wake,
			"size_fixed_once_mapped: map %s, resize %s, wakeup_bytes %s",
			e ? strerror(e) : "ok", e_grow ? strerror(e_grow) : "accepted",
			e_wake ? strerror(e_wake) : "ok");
		if (!e)
			munmap(r3.pg, r3.len);
		close(fd3);
	} else {
		ktap_ok(0, "size_fixed_once_mapped: a third session: %s", strerror(e));
	}

	/* the mapping holds the session: records keep coming after close() */
	refs_open = module_refs();
	close(fd);
	refs_closed = module_refs();
	head0 = r.pg->data_head;
	ok = commit_code(6);
	ktap_ok(ok && r.pg->data_head > head0 && refs_closed == refs_open,
		"mapping_holds_session: after close() data_head %llu -> %llu, module refs %d -> %d",
		(unsigned long long)head0, (unsigned long long)r.pg->data_head, refs_open,
		refs_closed);
	munmap(r.pg, r.len);
	refs_unmapped = module_refs();
	ktap_ok(refs_unmapped == refs_open - 1,
		"unmap_releases: module refs %d with the mapping, %d after munmap", refs_closed,
		refs_unmapped);

	close(cmp_fd);
	js_free(&mapped);
	js_free(&read_back);
	js_free(&after);
	return ktap_finish();
}
