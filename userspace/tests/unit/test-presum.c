// SPDX-License-Identifier: GPL-2.0
/*
 * presum: samples of the same event, mode, process, thread, CPU and address
 * make one group, in the order of each group's first sample, with their
 * count, summed period and first and last times; the sums are given up past
 * PRESUM_MAX groups, and at a sample with a call chain when asked.
 */
#include <string.h>

#include "report/presum.h"
#include "tap.h"

static void sample(struct pr_event *ev, const struct pr_attr *attr, uint32_t pid, uint32_t tid,
		   uint64_t ip, uint64_t period)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = PERF_RECORD_SAMPLE;
	ev->misc = PERF_RECORD_MISC_USER;
	ev->attr = attr;
	ev->id.pid = pid;
	ev->id.tid = tid;
	ev->sample.ip = ip;
	ev->sample.period = period;
}

int main(void)
{
	struct pr_attr a1, a2;
	struct presum p = { 0 };
	struct pr_event ev;
	uint64_t chain[1] = { 0x1234 };
	const struct presum_group *g;
	uint32_t i, bad;

	check(!presum__usable(&p), "no sample: nothing to count from");
	sample(&ev, &a1, 10, 10, 0x400000, 100);
	presum__add(&p, &ev, 50);
	sample(&ev, &a1, 10, 11, 0x400000, 100); /* another thread */
	presum__add(&p, &ev, 60);
	sample(&ev, &a1, 10, 10, 0x400000, 300);
	presum__add(&p, &ev, 20); /* earlier in time, later in the file */
	sample(&ev, &a2, 10, 10, 0x400000, 7); /* another event */
	presum__add(&p, &ev, 70);
	ev.misc = PERF_RECORD_MISC_KERNEL; /* another mode */
	presum__add(&p, &ev, 80);
	sample(&ev, &a1, 10, 10, 0x400000, 1);
	presum__add(&p, &ev, 90);
	check(presum__usable(&p) && p.nr == 4, "four groups: thread, event and mode tell them apart");
	g = presum__group(&p, 0);
	check(g->tid == 10 && g->attr == &a1 && g->n == 3 && g->period == 401 && g->first == 20 &&
		      g->last == 90,
	      "a group's count, summed period and first and last times");
	check(presum__group(&p, 1)->tid == 11 && presum__group(&p, 2)->attr == &a2 &&
		      presum__group(&p, 2)->misc == PERF_RECORD_MISC_USER &&
		      presum__group(&p, 3)->misc == PERF_RECORD_MISC_KERNEL,
	      "groups in the order of their first sample in the file");
	presum__release(&p);

	/* thousands of groups: the table grows many times over; each sample twice, the second pass backwards */
	for (i = 0; i < 5000; i++) {
		sample(&ev, &a1, 1, 1 + i % 7, 0x400000 + (uint64_t)i * 4, 1 + i);
		presum__add(&p, &ev, 1000 + i);
	}
	for (i = 5000; i-- > 0;) {
		sample(&ev, &a1, 1, 1 + i % 7, 0x400000 + (uint64_t)i * 4, 1);
		presum__add(&p, &ev, i);
	}
	for (i = 0, bad = 0; i < 5000; i++) {
		g = presum__group(&p, i);
		bad += g->ip != 0x400000 + (uint64_t)i * 4 || g->tid != 1 + i % 7 || g->n != 2 ||
		       g->period != 2 + i || g->first != i || g->last != 1000 + i;
	}
	check(presum__usable(&p) && p.nr == 5000 && !bad,
	      "5000 groups through the table's growth: each one's sums, in the order of first samples");
	presum__release(&p);

	for (i = 0; i <= PRESUM_MAX; i++) {
		sample(&ev, &a1, 1, 1, 0x1000 + i, 1);
		presum__add(&p, &ev, i);
	}
	check(!presum__usable(&p) && p.over, "past PRESUM_MAX groups: given up");
	sample(&ev, &a1, 1, 1, 0x1000, 1);
	presum__add(&p, &ev, 1);
	check(!presum__usable(&p), "and not taken up again");
	presum__release(&p);

	p.chainless = true;
	sample(&ev, &a1, 1, 1, 0x1000, 1);
	presum__add(&p, &ev, 1);
	check(presum__usable(&p), "chainless: a sample without a chain is summed");
	ev.sample.nr_callchain = 1;
	ev.sample.callchain = chain;
	presum__add(&p, &ev, 2);
	check(!presum__usable(&p), "chainless: given up at a sample with a call chain");
	presum__release(&p);
	return tap_done();
}
