/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-synth: perf script's synth field, the payload of the events perf
 * synthesizes when it decodes an Intel PT trace (perf inject --itrace
 * writes them to a file: PERF_TYPE_SYNTH attributes, the payload in the
 * samples' raw data), as perf 6.1 prints each kind (ptwrite, mwait, pwre,
 * exstop, pwrx, cbr, psb, evt, iflag).
 */
#ifndef JREC_SCRIPT_SYNTH_H
#define JREC_SCRIPT_SYNTH_H

#include <stdio.h>

struct pr_sample;

/* perf's attr.type of the events it synthesizes */
#define SCRIPT_SYNTH_TYPE 0x80000000u

/*
 * The payload of sample @s of a synthesized event of kind @config, padded
 * to perf's column of 34; nothing when the kind is unknown or the payload
 * shorter than the kind's.
 */
void script_synth__print(const struct pr_sample *s, unsigned long long config, FILE *out);

#endif
