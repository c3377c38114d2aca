/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-spec: an event as perf record's -e takes it, into the type, config
 * and exclusion bits of a perf_event_attr: perf's hardware, software and
 * hardware-cache event names, raw events (rNNN, hex), and the modifiers
 * after a colon (u, k, h: count only those contexts; G, H: guest or host
 * only; p, pp, ppp: precision), with perf's defaults (the guest excluded
 * unless G). The event keeps the name as typed, which perf shows.
 */
#ifndef JREC_EVENT_SPEC_H
#define JREC_EVENT_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event_spec {
	uint32_t type;
	uint64_t config;
	bool exclude_user, exclude_kernel, exclude_hv, exclude_guest, exclude_host;
	uint8_t precise_ip;
	bool has_modifiers; /* ":..." was given */
	char name[64];	    /* as typed: "cycles:u" */
};

/*
 * One event. 0, or -EINVAL with the reason in @err (an unknown name, a bad
 * modifier, or several events, which jrec record does not take yet).
 */
int event_spec__parse(const char *s, struct event_spec *out, char *err, size_t errlen);

#endif
