// SPDX-License-Identifier: GPL-2.0
/* Which events are shown together (event-groups.h). */
#include <stdio.h>
#include <stdint.h>

#include "event-groups.h"
#include "perf-reader.h"

bool event_groups__plan(const struct samples *it, bool force, size_t *size, size_t n)
{
	bool any = false;
	size_t i, k;

	for (i = 0; i < n; i++)
		size[i] = 1;
	for (i = 0; i < n; i++) {
		const struct pr_attr *a = samples__event(it, i);

		if (!a || a->group_leader != i || a->group_members < 2 || a->group_members > n - i)
			continue;
		size[i] = a->group_members;
		for (k = 1; k < a->group_members; k++)
			size[i + k] = 0;
		i += a->group_members - 1;
		any = true;
	}
	if (!any && force && n > 1) {
		size[0] = n;
		for (i = 1; i < n; i++)
			size[i] = 0;
		any = true;
	}
	return any;
}

const char *event_groups__name(const struct samples *it, size_t leader, size_t nr, char *buf,
			       size_t len)
{
	const struct pr_attr *a = samples__event(it, leader);
	bool recorded = a && a->group_leader == leader && a->group_members == nr;
	size_t used = 0, i;
	int w;

	buf[0] = 0;
	if (recorded) {
		w = snprintf(buf, len, "%s { ", a->group_name[0] ? a->group_name : "anon group");
		used = w > 0 && (size_t)w < len ? (size_t)w : len - 1;
	}
	for (i = 0; i < nr && used + 1 < len; i++) {
		w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
			     samples__event_name(it, leader + i));
		used += w > 0 && (size_t)w < len - used ? (size_t)w : len - used - 1;
	}
	if (recorded && used + 1 < len)
		snprintf(buf + used, len - used, " }");
	return buf;
}
