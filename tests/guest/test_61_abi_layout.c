// SPDX-License-Identifier: GPL-2.0
/*
 * The counts by record type have room to grow (JMMAP_REC_SLOTS): LOST
 * records are 16 + 8 * JMMAP_REC_SLOTS bytes, and GET_STATS answers a
 * caller of today's size in today's layout, and a caller of the first size
 * (JMMAP_STATS_SIZE_V1) in the first layout, with the same counts, writing
 * nothing past that size.
 */
#include "jsession.h"

#define BURST 300

struct stats_v1 {
	uint32_t size, reserved;
	uint64_t emitted[JMMAP_REC_SLOTS_V1], lost[JMMAP_REC_SLOTS_V1];
};

int main(void)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct {
		struct stats_v1 v1;
		uint8_t after[64];
	} old;
	struct js_records r = { 0 };
	static void *pages[BURST];
	uint64_t lost_in_records = 0;
	int fd, i, n_lost = 0, bad_size = 0, e1, e2, untouched = 1;

	ktap_begin();
	fd = js_open_self(8192, 0);
	for (i = 0; i < BURST; i++)
		pages[i] = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
	js_drain(fd, &r);
	js_drain(fd, &r);
	js_for_each(&r, h) {
		const struct jmmap_rec_lost *l = (const void *)h;

		if (h->type != JMMAP_REC_LOST)
			continue;
		n_lost++;
		bad_size += h->size != sizeof(*l);
		if (h->size == sizeof(*l))
			for (i = 1; i < JMMAP_REC_SLOTS; i++)
				lost_in_records += l->lost[i];
	}
	ktap_ok(n_lost > 0 && !bad_size && !r.framing_errors,
		"lost_record_slots: %d LOST records, %d not of %zu bytes (16 + 8 * %d slots)",
		n_lost, bad_size, sizeof(struct jmmap_rec_lost), JMMAP_REC_SLOTS);

	e1 = ioctl(fd, JMMAP_IOC_GET_STATS, &st) ? errno : 0;
	ktap_ok(!e1 && st.size == sizeof(st) && st.lost[JMMAP_REC_MMAP3] == lost_in_records &&
			st.emitted[JMMAP_REC_LOST] == (uint64_t)n_lost,
		"stats_current_layout: size %u (want %zu), lost MMAP3 %llu (LOST records: %llu), "
		"LOST emitted %llu (%d) %s", st.size, sizeof(st),
		(unsigned long long)st.lost[JMMAP_REC_MMAP3], (unsigned long long)lost_in_records,
		(unsigned long long)st.emitted[JMMAP_REC_LOST], n_lost, e1 ? strerror(e1) : "");

	memset(&old, 0x5a, sizeof(old));
	old.v1.size = JMMAP_STATS_SIZE_V1;
	e2 = ioctl(fd, JMMAP_IOC_GET_STATS, &old) ? errno : 0;
	for (i = 0; i < (int)sizeof(old.after); i++)
		untouched &= old.after[i] == 0x5a;
	ktap_ok(!e2 && old.v1.size == JMMAP_STATS_SIZE_V1 &&
			old.v1.lost[JMMAP_REC_MMAP3] == st.lost[JMMAP_REC_MMAP3] &&
			old.v1.emitted[JMMAP_REC_MMAP3] == st.emitted[JMMAP_REC_MMAP3] &&
			old.v1.emitted[JMMAP_REC_LOST] == st.emitted[JMMAP_REC_LOST] && untouched,
		"stats_first_layout: a caller of %d bytes gets size %u, lost MMAP3 %llu, emitted "
		"MMAP3 %llu, nothing written past it: %s %s", JMMAP_STATS_SIZE_V1, old.v1.size,
		(unsigned long long)old.v1.lost[JMMAP_REC_MMAP3],
		(unsigned long long)old.v1.emitted[JMMAP_REC_MMAP3], untouched ? "yes" : "no",
		e2 ? strerror(e2) : "");

	for (i = 0; i < BURST; i++)
		if (pages[i] != MAP_FAILED)
			munmap(pages[i], JS_PAGE);
	js_free(&r);
	close(fd);
	return ktap_finish();
}
