/* SPDX-License-Identifier: GPL-2.0 */
/*
 * branch-view: perf report's branch mode, the default for a recording whose
 * samples carry branch stacks (perf record -b, LBR): each entry of a
 * sample's branch stack counts once, keyed by its source and target
 * (dso_from, symbol_from, dso_to, symbol_to) and its basic block's cycles,
 * as perf counts them.
 */
#ifndef JREC_BRANCH_VIEW_H
#define JREC_BRANCH_VIEW_H

#include <stdbool.h>

#include "hist.h"
#include "samples.h"

/* perf's sort in branch mode */
#define BRANCH_VIEW_SORT "comm,dso_from,symbol_from,symbol_to,cycles"

/* Whether any event of the recording samples branch stacks. */
bool branch_view__available(const struct samples *it);
/* Whether any of @h's sort keys is a branch's. */
bool branch_view__keyed(const struct hist *h);
/* One end of a branch, @addr of @smp's process, in the kernel's half or the user's. */
void branch_view__resolve_end(struct samples *it, const struct sample *smp, uint64_t addr,
			      struct resolved *res);
/*
 * The current sample's branches into @h: @base's keys (comm, pid...) with
 * each branch's ends resolved in the sample's process at its time, a
 * period of 1 each. 0 or -ENOMEM.
 */
int branch_view__add(struct samples *it, const struct sample *smp, const struct hist_key *base,
		     struct hist *h);

#endif
