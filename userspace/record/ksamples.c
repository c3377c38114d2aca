// SPDX-License-Identifier: GPL-2.0
/*
 * jrec record: the kernel addresses the samples hold (their IP in kernel
 * mode and the kernel part of their call chains), so that the recording
 * stores only the kernel symbols a report can need (features.c).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "record.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and drop duplicates: the set stays as small as the distinct addresses. */
static void compact(struct record *r)
{
	size_t i, n = 0;

	if (!r->nr_kaddrs)
		return; /* no kernel sample, perhaps no array yet */
	qsort(r->kaddrs, r->nr_kaddrs, sizeof(*r->kaddrs), cmp_u64);
	for (i = 0; i < r->nr_kaddrs; i++)
		if (!n || r->kaddrs[n - 1] != r->kaddrs[i])
			r->kaddrs[n++] = r->kaddrs[i];
	r->nr_kaddrs = n;
	r->kaddrs_compact = n;
}

static int add(struct record *r, uint64_t addr)
{
	if (r->nr_kaddrs == r->cap_kaddrs && r->nr_kaddrs >= 2 * r->kaddrs_compact + 1024)
		compact(r);
	if (array_grow(&r->kaddrs, &r->cap_kaddrs, r->nr_kaddrs + 1))
		return -ENOMEM;
	r->kaddrs[r->nr_kaddrs++] = addr;
	return 0;
}

int ksamples__add(struct record *r, const struct perf_event_header *h,
		  const struct record_event *e)
{
	const uint8_t *p = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	uint64_t st = e->attr.sample_type, ip, nr, i, v;
	bool kernel;
	int err = 0;

	if (!r->kernel_text)
		return 0; /* no kernel symbols will be stored */
	if (st & PERF_SAMPLE_IDENTIFIER)
		p += 8;
	if (!(st & PERF_SAMPLE_IP) || end - p < 8)
		return 0;
	memcpy(&ip, p, 8);
	p += 8;
	kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	if (kernel)
		err = add(r, ip);
	if (err || !(st & PERF_SAMPLE_CALLCHAIN))
		return err;
	p += 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		  !!(st & PERF_SAMPLE_ADDR) + !!(st & PERF_SAMPLE_ID) +
		  !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
		  !!(st & PERF_SAMPLE_PERIOD));
	if (st & PERF_SAMPLE_READ)
		return 0; /* jrec does not ask for it: its size is not worked out here */
	if (end - p < 8)
		return 0;
	memcpy(&nr, p, 8);
	p += 8;
	if (nr > (uint64_t)(end - p) / 8)
		return 0;
	for (i = 0; i < nr && !err; i++) {
		memcpy(&v, p + 8 * i, 8);
		if (v >= PERF_CONTEXT_MAX)
			kernel = v == PERF_CONTEXT_KERNEL; /* a context marker */
		else if (kernel)
			err = add(r, v);
	}
	return err;
}

size_t ksamples__sorted(struct record *r, const uint64_t **addrs)
{
	compact(r);
	*addrs = r->kaddrs;
	return r->nr_kaddrs;
}

void ksamples__free(struct record *r)
{
	free(r->kaddrs);
	r->kaddrs = NULL;
	r->nr_kaddrs = r->cap_kaddrs = r->kaddrs_compact = 0;
}
