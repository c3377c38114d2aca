// SPDX-License-Identifier: GPL-2.0
/*
 * callchain: each sample's call chain, as the outputs see it: the one the
 * kernel recorded, or the recorded kernel part and the user stack copy
 * unwound (unwind.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "array.h"
#include "session.h"
#include "unwind.h"

/* perf's default kernel.perf_event_max_stack is 127 */
#define MAX_USER_FRAMES 256

void session__free_callchains(struct session *s)
{
	unwinder__delete(s->unwinder);
	s->unwinder = NULL;
	free(s->chain);
	s->chain = NULL;
	s->chain_cap = 0;
}

int session__callchain(struct session *s, const struct pr_event *ev, const uint64_t **ips,
		       uint64_t *nr)
{
	const struct pr_sample *smp = &ev->sample;
	bool dwarf = smp->regs_abi && smp->stack_size;
	uint64_t i, n = 0, need = smp->nr_callchain + (dwarf ? 1 + MAX_USER_FRAMES : 0);
	int err;

	*ips = NULL;
	*nr = 0;
	if (!need)
		return 0;
	if (array_grow(&s->chain, &s->chain_cap, need))
		return -ENOMEM;
	for (i = 0; i < smp->nr_callchain; i++) {
		uint64_t ip = pr_callchain_at(s->r, smp, i);

		/* unwound user frames replace whatever user part was recorded */
		if (dwarf && ip == PERF_CONTEXT_USER)
			break;
		s->chain[n++] = ip;
	}
	if (dwarf) {
		if (!s->unwinder) {
			err = unwinder__new(s, &s->unwinder);
			if (err)
				return err;
		}
		s->chain[n] = PERF_CONTEXT_USER;
		i = unwinder__frames(s->unwinder, ev, session__time(ev), s->chain + n + 1,
				     MAX_USER_FRAMES);
		if (i) {
			n += 1 + i;
			s->nr_unwound++;
		}
	}
	*ips = s->chain;
	*nr = n;
	return 0;
}
