/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event-spec: an event as perf record's -e takes it, into the type, config
 * and exclusion bits of a perf_event_attr: perf's hardware, software and
 * hardware-cache event names, raw events (rNNN, hex), and the modifiers
 * after a colon (u, k, h: count only those contexts; G, H: guest or host
 * only; p, pp, ppp: precision), with perf's defaults (the guest excluded
 * unless G). The event keeps the name as typed, which perf shows.
 *
 * A tracepoint is "SYSTEM:NAME[:MODIFIERS]" where SYSTEM is no event name
 * (so "cycles:u" is cycles, "sched:sched_switch" a tracepoint): its type is
 * PERF_TYPE_TRACEPOINT and its config the tracepoint's id, which the caller
 * finds in tracefs (this file reads nothing of the machine). SYSTEM and NAME
 * may be globs ("sched:sched_wak*"), which the caller expands with
 * event_list__expand() to the tracepoints tracefs has.
 *
 * An -e argument may hold several events, "a,b", and groups, "{a,b}" with
 * optional modifiers after the brace that every member takes too
 * ("{cycles,instructions}:u"), as perf's parser reads them.
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
	bool tracepoint;    /* SYSTEM:NAME, config to be resolved (see above) */
	uint16_t leader;    /* its group's leader's index in the list; its own alone */
	uint16_t nr_members; /* a leader's: the events of its group, 1 alone */
	char name[64];	    /* as typed: "cycles:u" */
	char tp_sys[64], tp_name[64]; /* a tracepoint's SYSTEM and NAME */
};

#define EVENT_LIST_MAX 64

/* The events of one or more -e arguments, in order. */
struct event_list {
	struct event_spec ev[EVENT_LIST_MAX];
	size_t nr;
};

/*
 * One event. 0, or -EINVAL with the reason in @err (an unknown name, a bad
 * modifier, or several events: see event_list__parse()).
 */
int event_spec__parse(const char *s, struct event_spec *out, char *err, size_t errlen);

/*
 * Append the events of one -e argument ("a,b", "{a,b}:u", "a") to @l.
 * 0, or -EINVAL with the reason in @err (an event of event_spec__parse()'s
 * errors, an unbalanced or nested brace, an empty event or group, more than
 * EVENT_LIST_MAX events); @l is then as it was.
 */
int event_list__parse(struct event_list *l, const char *s, char *err, size_t errlen);

/* Whether @e is a tracepoint glob ('*' or '?' in its SYSTEM or NAME). */
bool event_spec__is_glob(const struct event_spec *e);

/*
 * Replace the glob @l->ev[@i] by the @n tracepoints @tps ({SYSTEM, NAME}
 * each, as the caller found them in tracefs), in that order, each named
 * "SYSTEM:NAME" with the glob's modifiers, and each its own event, or each a
 * member of the glob's group. 0, or -ENOENT (@n is 0) or -E2BIG (more than
 * EVENT_LIST_MAX events) with the reason in @err, @l then as it was.
 */
int event_list__expand(struct event_list *l, size_t i, const char (*tps)[2][64], size_t n,
		       char *err, size_t errlen);

/* How many groups of more than one event @l has (perf's GROUP_DESC count). */
size_t event_list__nr_groups(const struct event_list *l);

#endif
