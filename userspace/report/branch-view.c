// SPDX-License-Identifier: GPL-2.0
/* perf report's branch mode (branch-view.h). */
#include <linux/perf_event.h>

#include "branch-view.h"
#include "perf-reader.h"
#include "session.h"

bool branch_view__available(const struct samples *it)
{
	size_t i;

	for (i = 0; i < samples__nr_events(it); i++)
		if (samples__event(it, i)->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

bool branch_view__keyed(const struct hist *h)
{
	size_t i;

	for (i = 0; i < h->nr_keys; i++)
		if (sort_key__is_branch(h->keys[i]))
			return true;
	return false;
}

void branch_view__resolve_end(struct samples *it, const struct sample *smp, uint64_t addr,
			      struct resolved *res)
{
	uint16_t misc = (int64_t)addr < 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	session__resolve(it->s, smp->pid, addr, smp->time, misc, res);
}

int branch_view__add(struct samples *it, const struct sample *smp, const struct hist_key *base,
		     struct hist *h)
{
	const struct pr_sample *ps = &smp->ev->sample;
	struct resolved from, to;
	struct hist_key k;
	uint64_t i, a, b;
	uint16_t cycles;
	uint32_t idx;
	int err;

	for (i = 0; i < ps->nr_branches; i++) {
		pr_branch_at(ps, i, &a, &b, &cycles);
		branch_view__resolve_end(it, smp, a, &from);
		branch_view__resolve_end(it, smp, b, &to);
		k = *base;
		hist_side__set(&k.from, &from);
		hist_side__set(&k.to, &to);
		k.cycles = cycles;
		/*
		 * the sample's keys that are not a branch's (sym, dso) are of the
		 * branch's target, as perf's: its address as it is, the level
		 * the sample's own
		 */
		k.dso = k.to.dso;
		k.anon = k.to.anon;
		k.sym = k.to.sym;
		k.sym_start = k.to.sym_start;
		k.sym_by_name = k.to.sym_by_name;
		k.plt = k.to.plt;
		k.addr = k.to.sym ? 0 : b;
		err = hist__add_at(h, &k, 1, &idx);
		if (err)
			return err;
		hist__note_level(h, idx, base->level, smp->time);
		hist__note_thread(h, idx, smp->pid, smp->tid, smp->time);
	}
	return 0;
}
