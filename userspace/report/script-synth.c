// SPDX-License-Identifier: GPL-2.0
/*
 * The synthesized events' payloads (script-synth.h). Each payload is laid
 * out as perf's struct perf_synth_intel_* (tools/perf/util/event.h), whose
 * first 32 bits overlap the raw data's size: the offsets below are those of
 * the raw data, the bit fields those of perf's structs.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "byteorder.h"
#include "perf-reader.h"
#include "script-synth.h"

/* perf's kinds, in its order (enum PERF_SYNTH_INTEL_*) */
enum { SYNTH_PTWRITE, SYNTH_MWAIT, SYNTH_PWRE, SYNTH_EXSTOP, SYNTH_PWRX, SYNTH_CBR, SYNTH_PSB,
       SYNTH_EVT, SYNTH_IFLAG_CHG, SYNTH_MAX };

/* the raw data each kind needs: its struct's size less the 32 bits it shares with the size */
static const uint32_t min_size[SYNTH_MAX] = { 12, 12, 12, 4, 12, 12, 12, 4, 12 };

/* Event Trace's names of control flow events and of their data */
static const char *const cfe_names[32] = { NULL,     "INTR",   "IRET",   "SMI",
					   "RSM",    "SIPI",   "INIT",   "VMENTRY",
					   "VMEXIT", "VMEXIT_INTR", "SHUTDOWN" };
static const char *const evd_names[64] = { "PFA", "VMXQ", "VMXR" };

static unsigned int bits(uint64_t v, unsigned int from, unsigned int n)
{
	return (unsigned int)(v >> from & ((1ULL << n) - 1));
}

/* perf's column: what was printed padded to 34 */
static void pad(int len, FILE *out)
{
	if (len > 0 && len < 34)
		fprintf(out, "%*s", 34 - len, "");
}

void script_synth__print(const struct pr_sample *s, unsigned long long config, FILE *out)
{
	const uint8_t *p = s->raw;
	bool sw = s->swapped;
	uint32_t w0, i, n;
	uint64_t q;
	int len;

	if (config >= SYNTH_MAX || !p || s->raw_size < min_size[config])
		return;
	w0 = bo_u32(p, sw);
	q = config == SYNTH_EXSTOP || config == SYNTH_EVT ? 0 : bo_u64(p + 4, sw);
	switch (config) {
	case SYNTH_PTWRITE: {
		char str[9] = "";

		/* the payload's bytes as a string too when they are one: ASCII, then NULs */
		for (i = 0; i < 8 && p[4 + i] >= 0x20 && p[4 + i] < 0x7f; i++)
			;
		for (n = i; n < 8 && !p[4 + n]; n++)
			;
		if (n == 8)
			memcpy(str, p + 4, i);
		len = fprintf(out, " IP: %u payload: %#" PRIx64 " %s ", bits(w0, 0, 1), q, str);
		break;
	}
	case SYNTH_MWAIT:
		len = fprintf(out, " hints: %#x extensions: %#x ", bits(q, 0, 8), bits(q, 32, 2));
		break;
	case SYNTH_PWRE:
		len = fprintf(out, " hw: %u cstate: %u sub-cstate: %u ", bits(q, 7, 1), bits(q, 12, 4),
			      bits(q, 8, 4));
		break;
	case SYNTH_EXSTOP:
		len = fprintf(out, " IP: %u ", bits(w0, 0, 1));
		break;
	case SYNTH_PWRX:
		len = fprintf(out, " deepest cstate: %u last cstate: %u wake reason: %#x ",
			      bits(q, 0, 4), bits(q, 4, 4), bits(q, 8, 4));
		break;
	case SYNTH_CBR: {
		unsigned int cbr = bits(w0, 0, 8), max = bits(w0, 16, 8);

		len = fprintf(out, " cbr: %2u freq: %4u MHz ", cbr, (bo_u32(p + 4, sw) + 500) / 1000);
		if (max)
			len += fprintf(out, "(%3u%%) ", (5 + (1000 * cbr) / max) / 10);
		break;
	}
	case SYNTH_PSB:
		len = fprintf(out, " psb offs: %#" PRIx64, q);
		break;
	case SYNTH_EVT:
		if (cfe_names[bits(w0, 0, 5)])
			len = fprintf(out, " cfe: %s IP: %d vector: %u", cfe_names[bits(w0, 0, 5)],
				      bits(w0, 7, 1), bits(w0, 8, 8));
		else
			len = fprintf(out, " cfe: %u IP: %d vector: %u", bits(w0, 0, 5), bits(w0, 7, 1),
				      bits(w0, 8, 8));
		/* each event's data: 16 bytes (its type in the low 6 bits, the payload), those there are */
		n = bits(w0, 16, 16);
		for (i = 0; i < n && 4 + 16 * (i + 1) <= s->raw_size; i++) {
			unsigned int et = p[4 + 16 * i] & 0x3f;
			uint64_t v = bo_u64(p + 4 + 16 * i + 8, sw);

			if (evd_names[et])
				len += fprintf(out, " %s: %#" PRIx64, evd_names[et], v);
			else
				len += fprintf(out, " EVD_%u: %#" PRIx64, et, v);
		}
		break;
	default: /* SYNTH_IFLAG_CHG */
		len = fprintf(out, " IFLAG: %d->%d %s branch", !bits(w0, 0, 1), bits(w0, 0, 1),
			      bits(w0, 1, 1) ? "via" : "non");
		break;
	}
	pad(len, out);
}
