// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware's fields of a sample as perf script prints them
 * (script-hw.h). The data source follows union perf_mem_data_src
 * (linux/perf_event.h): op 5 bits, lvl 14, snoop 5, lock 2, dtlb 7,
 * lvl_num 4, remote 1, snoopx 2, blk 3, hops 3.
 */
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "perf-reader.h"
#include "script-hw.h"

/* A string that grows to at most its size - 1 characters, as perf's buffers */
struct sbuf {
	char s[512];
	size_t len;
};

static void sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= sizeof(b->s) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, sizeof(b->s) - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < sizeof(b->s) - b->len ? (size_t)n : sizeof(b->s) - 1 - b->len;
}

/* The names of the set bits of @m, from bit 0, joined by " or "; how many */
static int sb_bits(struct sbuf *b, uint64_t m, const char *const *names, size_t nr, int printed)
{
	size_t i;

	for (i = 0; m && i < nr; i++, m >>= 1)
		if (m & 1)
			sb_add(b, "%s%s", printed++ ? " or " : "", names[i]);
	return printed;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void data_src_op(struct sbuf *b, uint64_t op)
{
	static const char *const names[] = {"N/A", "LOAD", "STORE", "PFETCH", "EXEC"};
	size_t i;

	for (i = 0; i < NR(names); i++)
		if (op & (1u << i)) {
			sb_add(b, "%s", names[i]);
			return;
		}
	sb_add(b, "No");
}

static void data_src_lvl(struct sbuf *b, uint64_t v)
{
	static const char *const lvl[] = {"N/A",
					  "HIT",
					  "MISS",
					  "L1",
					  "LFB/MAB",
					  "L2",
					  "L3",
					  "Local RAM",
					  "Remote RAM (1 hop)",
					  "Remote RAM (2 hops)",
					  "Remote Cache (1 hop)",
					  "Remote Cache (2 hops)",
					  "I/O",
					  "Uncached"};
	/* lvl_num's names; the others are "L<n>" */
	static const char *const lvlnum[16] = {
	    [0x9] = "CXL", [0xa] = "I/O",  [0xb] = "Any cache", [0xc] = "LFB/MAB",
	    [0xd] = "RAM", [0xe] = "PMEM", [0xf] = "N/A"};
	/* hops: "Remote " before them names the remote core of the same node */
	static const char *const hops[] = {"N/A", "core, same node", "node, same socket",
					   "socket, same board", "board"};
	uint64_t m = (v >> 5) & 0x3fff, num = (v >> 33) & 0xf, hop = (v >> 43) & 0x7;
	size_t start = b->len;
	int printed = 0;

	if ((v >> 37) & 1)
		sb_add(b, "Remote ");
	if (hop) /* perf 6.1 reads past its table for 5 to 7: glibc prints that NULL so */
		sb_add(b, "%s ", hop < NR(hops) ? hops[hop] : "(null)");
	else
		printed = sb_bits(b, m & ~(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS), lvl,
				  NR(lvl), 0);
	if (num) {
		if (printed++)
			sb_add(b, " or ");
		if (lvlnum[num])
			sb_add(b, "%s", lvlnum[num]);
		else
			sb_add(b, "L%u", (unsigned int)num);
	}
	if (b->len == start)
		sb_add(b, "N/A");
	if (m & PERF_MEM_LVL_HIT)
		sb_add(b, " hit");
	if (m & PERF_MEM_LVL_MISS)
		sb_add(b, " miss");
}

static void data_src_snoop(struct sbuf *b, uint64_t v)
{
	static const char *const snoop[] = {"N/A", "None", "Hit", "Miss", "HitM"};
	static const char *const snoopx[] = {"Fwd", "Peer"};
	int printed = sb_bits(b, (v >> 19) & 0x1f, snoop, NR(snoop), 0);

	if (!sb_bits(b, (v >> 38) & 0x3, snoopx, NR(snoopx), printed))
		sb_add(b, "N/A");
}

static void data_src_tlb(struct sbuf *b, uint64_t v)
{
	static const char *const tlb[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
	uint64_t m = (v >> 26) & 0x7f;

	if (!sb_bits(b, m & ~(uint64_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS), tlb, NR(tlb), 0))
		sb_add(b, "N/A");
	if (m & PERF_MEM_TLB_HIT)
		sb_add(b, " hit");
	if (m & PERF_MEM_TLB_MISS)
		sb_add(b, " miss");
}

void script_hw__data_src(uint64_t v, int *width, FILE *out)
{
	uint64_t lock = (v >> 24) & 0x3, blk = (v >> 40) & 0x7;
	struct sbuf b = {.len = 0};
	char line[100];
	int n;

	b.s[0] = 0;
	sb_add(&b, "|OP ");
	data_src_op(&b, v & 0x1f);
	sb_add(&b, "|LVL ");
	data_src_lvl(&b, v);
	sb_add(&b, "|SNP ");
	data_src_snoop(&b, v);
	sb_add(&b, "|TLB ");
	data_src_tlb(&b, v);
	sb_add(&b, "|LCK %s",
	       (lock & PERF_MEM_LOCK_NA)       ? "N/A"
	       : (lock & PERF_MEM_LOCK_LOCKED) ? "Yes"
					       : "No");
	sb_add(&b, "|BLK ");
	if (!blk || (blk & PERF_MEM_BLK_NA))
		sb_add(&b, " N/A");
	if (blk & PERF_MEM_BLK_DATA)
		sb_add(&b, " Data");
	if (blk & PERF_MEM_BLK_ADDR)
		sb_add(&b, " Addr");
	/* perf's line buffer: 99 characters */
	n = snprintf(line, sizeof(line), "%16llx %s", (unsigned long long)v, b.s);
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	if (n > *width)
		*width = n;
	fprintf(out, "%-*s", *width, line);
}

/* x86's register names (perf_regs.h's order); XMM registers take two bits each */
static const char *x86_reg_name(unsigned int r)
{
	static const char *const names[] = {
	    "AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",  "FLAGS", "CS",  "SS",
	    "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",   "R14", "R15"};
	static const char *const xmm[] = {"XMM0",  "XMM1",  "XMM2",  "XMM3", "XMM4",  "XMM5",
					  "XMM6",  "XMM7",  "XMM8",  "XMM9", "XMM10", "XMM11",
					  "XMM12", "XMM13", "XMM14", "XMM15"};

	if (r < NR(names))
		return names[r];
	if (r >= 32 && r < 64)
		return xmm[(r - 32) / 2];
	return "unknown";
}

void script_hw__regs(const struct pr_sample *s, uint64_t abi, const void *regs, uint64_t mask,
		     FILE *out)
{
	unsigned int r, i = 0;

	if (!regs)
		return;
	fprintf(out, " ABI:%llu ", (unsigned long long)abi);
	for (r = 0; r < 64; r++)
		if (mask & (1ULL << r))
			fprintf(out, "%5s:0x%llx ", x86_reg_name(r),
				(unsigned long long)pr_regs_at(s, regs, i++));
}

void script_hw__page_size(uint64_t size, FILE *out)
{
	static const char unit[] = "BKMG";
	unsigned int i = 0;

	if (!size) {
		fputs(" N/A", out);
		return;
	}
	/* perf's rule: divide while the quotient is above 1 (so 1024 stays "1024B") */
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	fprintf(out, " %llu%c", (unsigned long long)size, unit[i]);
}

/* perf's isprint(), its own table's: ASCII's and Latin-1's printable characters (0xa0 on) */
static bool perf_isprint(uint8_t ch)
{
	return (ch >= 0x20 && ch < 0x7f) || ch >= 0xa0;
}

void script_hw__bpf_output(const uint8_t *raw, uint32_t size, FILE *out)
{
	bool printable = true, hit_nul = false;
	uint32_t i, j, last;

	fputc('\n', out);
	for (i = 0; i < size; i += 8) {
		last = size - i < 8 ? size - i : 8;
		fprintf(out, "%17s %04x:", i ? "" : "BPF output:", i);
		for (j = 0; j < 8; j++)
			if (j < last)
				fprintf(out, " %02x", raw[i + j]);
			else
				fputs("   ", out);
		fputs("  ", out);
		for (j = 0; j < last; j++) {
			uint8_t ch = raw[i + j];

			/* a string: printable characters, then NULs only */
			if (hit_nul && ch)
				printable = false;
			if (perf_isprint(ch)) {
				fputc(ch, out);
				continue;
			}
			fputc('.', out);
			if (printable && !ch)
				hit_nul = true;
			else
				printable = false;
		}
		for (; j < 8; j++)
			fputc(' ', out);
		fputc('\n', out);
	}
	if (printable && hit_nul)
		fprintf(out, "%17s \"%s\"\n", "BPF string:", (const char *)raw);
}
