// SPDX-License-Identifier: GPL-2.0
/* A sample's call chain, resolved (sample-chain.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "sample-chain.h"

int sample_chain__walk(struct session *s, const struct pr_event *ev, sample_frame_fn fn, void *ctx,
		      size_t *nr_frames)
{
	uint16_t mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const uint64_t *ips;
	uint64_t i, nr = 0;
	int err;

	*nr_frames = 0;
	err = session__callchain(s, ev, &ips, &nr);
	for (i = 0; i < nr && !err; i++) {
		uint64_t ip = ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL
			       : ip == PERF_CONTEXT_USER ? PERF_RECORD_MISC_USER
							 : 0; /* hypervisor, guest: not ours */
			continue;
		}
		if (!mode)
			continue;
		err = fn(ip, mode, ctx);
		(*nr_frames)++;
	}
	return err;
}

struct resolve_ctx {
	struct session *s;
	const struct pr_event *ev;
	uint64_t time;
	struct sample_chain *c;
};

static int resolve_frame(uint64_t ip, uint16_t mode, void *arg)
{
	struct resolve_ctx *x = arg;
	struct sample_chain *c = x->c;

	if (array_grow(&c->res, &c->cap, c->nr + 1))
		return -ENOMEM;
	session__resolve(x->s, x->ev->id.pid, ip, x->time, mode, &c->res[c->nr++]);
	return 0;
}

int sample_chain__resolve(struct session *s, const struct pr_event *ev, uint64_t time,
			  const struct resolved *self, struct sample_chain *c)
{
	struct resolve_ctx x = { s, ev, time, c };
	size_t nr;
	int err;

	c->nr = 0;
	err = sample_chain__walk(s, ev, resolve_frame, &x, &nr);
	if (err)
		return err;
	if (!nr) {
		if (array_grow(&c->res, &c->cap, 1))
			return -ENOMEM;
		c->res[c->nr++] = *self;
	}
	return 0;
}

void sample_chain__release(struct sample_chain *c)
{
	if (!c)
		return;
	free(c->res);
	memset(c, 0, sizeof(*c));
}
