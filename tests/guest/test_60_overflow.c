// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow: with the smallest buffer and a burst of mmaps that nobody reads
 * meanwhile, the delivered MMAP3 records plus the counts in LOST records
 * equal the number of mmaps made; the stats ioctl agrees.
 */
#include "jsession.h"

#define BURST 300

int main(void)
{
	struct jmmap_stats st = { .size = sizeof(st) };
	struct js_records r = { 0 };
	uint64_t delivered = 0, lost = 0, lost_records = 0, lost_other = 0;
	static void *pages[BURST];
	int fd, i, made = 0;

	ktap_begin();
	fd = js_open_self(8192, 0);
	for (i = 0; i < BURST; i++) {
		pages[i] = mmap(NULL, JS_PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
		made += pages[i] != MAP_FAILED;
	}
	js_drain(fd, &r);
	js_drain(fd, &r);
	js_for_each(&r, h) {
		const struct jmmap_rec_mmap3 *m = (const void *)h;
		const struct jmmap_rec_lost *l = (const void *)h;

		if (h->type == JMMAP_REC_MMAP3 && m->pid == (uint32_t)getpid() &&
		    m->cause == JMMAP_CAUSE_MMAP)
			delivered++;
		if (h->type == JMMAP_REC_LOST) {
			lost_records++;
			lost += l->lost[JMMAP_REC_MMAP3];
			for (i = 0; i < JMMAP_REC_MAX; i++)
				if (i != JMMAP_REC_MMAP3)
					lost_other += l->lost[i];
		}
	}
	ktap_ok(made == BURST, "burst_made: %d of %d mmaps succeeded", made, BURST);
	ktap_ok(lost_records >= 1 && lost > 0,
		"lost_record_delivered: %llu LOST records counting %llu MMAP3",
		(unsigned long long)lost_records, (unsigned long long)lost);
	ktap_ok(delivered + lost == (uint64_t)made,
		"delivered_plus_lost_equals_events: %llu delivered + %llu lost = %d mmaps",
		(unsigned long long)delivered, (unsigned long long)lost, made);
	ktap_ok(lost_other == 0, "lost_counts_by_type: nothing but MMAP3 was lost (%llu)",
		(unsigned long long)lost_other);
	i = ioctl(fd, JMMAP_IOC_GET_STATS, &st);
	ktap_ok(i == 0 && st.lost[JMMAP_REC_MMAP3] == lost &&
			st.emitted[JMMAP_REC_MMAP3] == delivered &&
			st.emitted[JMMAP_REC_LOST] == lost_records,
		"stats_ioctl_agrees: stats lost %llu emitted %llu LOST records %llu",
		(unsigned long long)st.lost[JMMAP_REC_MMAP3],
		(unsigned long long)st.emitted[JMMAP_REC_MMAP3],
		(unsigned long long)st.emitted[JMMAP_REC_LOST]);
	ktap_ok(r.framing_errors == 0, "records_well_framed_after_overflow");
	js_free(&r);
	close(fd);
	return ktap_finish();
}
