// SPDX-License-Identifier: GPL-2.0
/*
 * A reader of the mapped ring that never calls read() still sees every gap:
 * a burst of mmaps overflows a small ring, the reader takes what is there
 * through the mapping (no LOST record yet: it did not fit), and nothing
 * else happens. poll() must then queue the LOST record owed and report
 * POLLIN, and the reader must find it in the ring, with the count the stats
 * ioctl gives.
 */
#include <poll.h>

#include "jsession.h"

#define RING 8192
#define BURST 300

static size_t take(struct jmmap_ring_page *pg, struct js_records *out)
{
	const uint8_t *data = (const uint8_t *)pg + JS_PAGE;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, off = tail % RING, n = head - tail;
	uint64_t first = n < RING - off ? n : RING - off;

	js_append(out, data + off, first);
	js_append(out, data, n - first);
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return n;
}

static uint64_t lost_mmap3(const struct js_records *r, size_t *records)
{
	uint64_t n = 0;

	*records = 0;
	js_for_each(r, h) {
		if (h->type == JMMAP_REC_LOST) {
			n += ((const struct jmmap_rec_lost *)h)->lost[JMMAP_REC_MMAP3];
			(*records)++;
		}
	}
	return n;
}

int main(void)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records burst = { 0 }, after = { 0 };
	static void *pages[BURST];
	size_t len = JS_PAGE + RING, n_lost_burst, n_lost_after;
	struct pollfd pfd;
	uint64_t lost_burst, lost_after;
	int fd, i, made = 0, pr;
	void *m;

	ktap_begin();
	fd = js_open_ring(RING);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED || js_add(fd, getpid(), JMMAP_TARGET_NO_SNAPSHOT)) {
		printf("# map the ring, follow this process: %s\n", strerror(errno));
		return KSFT_FAIL;
	}

	for (i = 0; i < BURST; i++) {
		pages[i] = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
		made += pages[i] != MAP_FAILED;
	}
	take(m, &burst);
	lost_burst = lost_mmap3(&burst, &n_lost_burst);
	ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	ktap_ok(made == BURST && st.lost[JMMAP_REC_MMAP3] > 0,
		"overflowed: %d mmaps, %zu records taken from the ring, %llu MMAP3 lost",
		made, burst.count, (unsigned long long)st.lost[JMMAP_REC_MMAP3]);

	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	pr = poll(&pfd, 1, 0);
	ktap_ok(pr == 1 && (pfd.revents & POLLIN),
		"poll_reports_owed_lost: poll() on the emptied ring with a LOST owed: %d, revents "
		"%#x", pr, pfd.revents);
	take(m, &after);
	lost_after = lost_mmap3(&after, &n_lost_after);
	ktap_ok(n_lost_after == 1 && lost_burst + lost_after == st.lost[JMMAP_REC_MMAP3] &&
			!after.framing_errors,
		"mapping_reader_sees_lost: %zu LOST record(s) in the ring after poll(), counting "
		"%llu MMAP3, %llu before it in %zu (stats: %llu)", n_lost_after,
		(unsigned long long)lost_after, (unsigned long long)lost_burst, n_lost_burst,
		(unsigned long long)st.lost[JMMAP_REC_MMAP3]);

	for (i = 0; i < BURST; i++)
		if (pages[i] != MAP_FAILED)
			munmap(pages[i], JS_PAGE);
	munmap(m, len);
	js_free(&burst);
	js_free(&after);
	close(fd);
	return ktap_finish();
}
