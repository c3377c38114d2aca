/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample-chain: a sample's call chain, each address resolved. The one place
 * in the report that walks a sample's chain: Children, the call tree (-g)
 * and the flame graph outputs all take it from here.
 */
#ifndef JREC_SAMPLE_CHAIN_H
#define JREC_SAMPLE_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct sample_chain {
	struct resolved *res; /* the sampled function first, the outermost caller last */
	size_t nr, cap;
};

/*
 * The chain of sample @ev at @time into @c: the recorded chain's addresses
 * (the context markers say whose: the kernel's or user space's; hypervisor
 * and guest addresses are left out), or only @self when it has none.
 */
int sample_chain__resolve(struct session *s, const struct pr_event *ev, uint64_t time,
			  const struct resolved *self, struct sample_chain *c);

/*
 * The same walk without resolving: @fn gets each address of the chain that
 * is ours with its mode (PERF_RECORD_MISC_KERNEL or _USER), the sampled
 * function first; *@nr_frames says how many (0: the sample has no chain).
 * Stops at the first non-zero return of @fn, which it returns.
 */
typedef int (*sample_frame_fn)(uint64_t ip, uint16_t mode, void *ctx);
int sample_chain__walk(struct session *s, const struct pr_event *ev, sample_frame_fn fn, void *ctx,
		       size_t *nr_frames);
void sample_chain__release(struct sample_chain *c);

#endif
