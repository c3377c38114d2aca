/* SPDX-License-Identifier: GPL-2.0 */
/* filters: the report's --pid/--tid/--comm/--dsos/--symbols/--time selections. */
#ifndef JREC_FILTERS_H
#define JREC_FILTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;

/* A --time range in ns, both ends included; 0 leaves that end open (perf's rule). */
struct time_range {
	uint64_t start, end;
};

struct filters {
	uint32_t *pids, *tids, *cpus;
	size_t nr_pids, nr_tids, nr_cpus;
	char **comms, **dsos, **syms;
	size_t nr_comms, nr_dsos, nr_syms;
	bool has_time;
	struct time_range *ranges; /* ascending, apart */
	size_t nr_ranges;
	char *time_pct; /* a --time of percentages, until filters__time_bounds() */
};

/*
 * @kind: 'p' pids, 't' tids, 'C' cpus ("0-3,5"), 'c' comms, 'd' dsos,
 * 'S' symbols, 'T' time as perf takes it: "START,END" in seconds with up
 * to 9 decimals, either end left out for open, several ranges apart by
 * blanks ("1.5,2 3,4"); or percentages of the recording's span,
 * "A%-B%[,...]" or "P%/N[,...]" (the Nth slice of P%), which
 * filters__time_bounds() turns into times. 0 or -EINVAL.
 */
int filters__parse(struct filters *f, int kind, const char *arg);
/* Whether --time was given in percentages. */
bool filters__time_needs_bounds(const struct filters *f);
/* The percentages of --time over [@first, @last], the samples' times. 0 or -EINVAL. */
int filters__time_bounds(struct filters *f, uint64_t first, uint64_t last);
bool filters__cpu(const struct filters *f, uint32_t cpu);
/* "SEC.FRAC" into ns; -EINVAL on junk. */
int filters__parse_seconds(const char *s, size_t len, uint64_t *ns);
bool filters__task(const struct filters *f, uint32_t pid, uint32_t tid, uint64_t time);
/* Only --time's part of filters__task(). */
bool filters__time(const struct filters *f, uint64_t time);
bool filters__comm(const struct filters *f, const char *comm);
bool filters__dso(const struct filters *f, const struct dso *d, const char *anon);
bool filters__sym(const struct filters *f, const char *sym);
/*
 * The one value that --comm ('c'), --dsos ('d') or --symbols ('S') keeps,
 * NULL when that filter is not given or keeps several (perf's lists of one
 * entry, repeated names counted once).
 */
const char *filters__pinned(const struct filters *f, int kind);
void filters__release(struct filters *f);

#endif
