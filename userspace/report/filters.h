/* SPDX-License-Identifier: GPL-2.0 */
/* filters: the report's --pid/--tid/--comm/--dsos/--symbols/--time selections. */
#ifndef JREC_FILTERS_H
#define JREC_FILTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;

struct filters {
	uint32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	bool has_time;
	uint64_t t_start, t_end; /* ns, inclusive range */
};

/* @kind: 'p' pids, 't' tids, 'c' comms, 'd' dsos, 'S' symbols, 'T' time. 0 or -EINVAL. */
int filters__parse(struct filters *f, int kind, const char *arg);
/* "SEC.FRAC" into ns; -EINVAL on junk. */
int filters__parse_seconds(const char *s, size_t len, uint64_t *ns);
bool filters__task(const struct filters *f, uint32_t pid, uint32_t tid, uint64_t time);
bool filters__comm(const struct filters *f, const char *comm);
bool filters__dso(const struct filters *f, const struct dso *d, const char *anon);
bool filters__sym(const struct filters *f, const char *sym);
void filters__release(struct filters *f);

#endif
