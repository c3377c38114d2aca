/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-groups: which of a recording's events the report shows together in
 * one table, as perf report --group does: the groups of perf's GROUP_DESC
 * section (`-e '{a,b}'`), or with --group and no groups recorded, all the
 * events as one.
 */
#ifndef JREC_EVENT_GROUPS_H
#define JREC_EVENT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "samples.h"

/*
 * For each of the recording's @n events, into @size: at a group's leader
 * the number of its members (2 or more, the leader first, the others after
 * it), 1 for an event shown alone, 0 for a member after its leader. @force:
 * --group, all events one group when the recording has none. Returns
 * whether any group was made.
 */
bool event_groups__plan(const struct samples *it, bool force, size_t *size, size_t n);
/*
 * The group of the @nr events from @leader as perf names it: "anon group {
 * a, b }", "NAME { a, b }" for a named one, "a, b" for events grouped by
 * --group alone.
 */
const char *event_groups__name(const struct samples *it, size_t leader, size_t nr, char *buf,
			       size_t len);

#endif
