// SPDX-License-Identifier: GPL-2.0
/*
 * script-brinsn: perf script's brstackinsn (script-brinsn.h). x86-64 code
 * is shown as perf 6.1 shows it, "insn: " and each byte; a block is at most
 * BB_MAX bytes, read with INSN_MAX more for the last instruction.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "branch-view.h"
#include "disasm.h"
#include "perf-reader.h"
#include "script-brinsn.h"
#include "script-code.h"
#include "script-srccode.h"

#define BB_MAX 16384
#define INSN_MAX 15
#define FINAL_SCAN 128 /* a final block that goes backwards: how far perf looks for a branch */

struct bb_walk {
	struct script_code *code;
	struct samples *it;
	const struct sample *smp;
	bool ilen, srcline;
	struct script_srccode **srccode; /* srccode asked for: its state, else NULL */
	FILE *out;
	/* the function named last (perf's lastsym): its file, start and name */
	const struct dso *last_dso;
	uint64_t last_start;
	const char *last_name;
	int total_cycles; /* the sample's cycles so far */
	uint8_t buf[BB_MAX + INSN_MAX];
};

static bool kernel_addr(uint64_t a)
{
	return (int64_t)a < 0;
}

/*
 * The code from @start up to @end (and INSN_MAX bytes more) into w->buf:
 * how many bytes; 0 when it cannot be read or the block is too long;
 * -ENXIO when it crosses between the kernel and user space (a branch
 * into the kernel that the hardware left out).
 */
static long grab_bb(struct bb_walk *w, uint64_t start, uint64_t end)
{
	struct resolved res;

	if (!start || !end)
		return 0;
	if (kernel_addr(start) != kernel_addr(end))
		return -ENXIO;
	if (end - start > BB_MAX - INSN_MAX)
		return 0;
	branch_view__resolve_end(w->it, w->smp, start, &res);
	if (res.level == 'k' || !res.dso || res.jit)
		return 0;
	return (long)script_code__read(w->code, w->it->s, res.dso, res.map_addr, w->buf,
				       end - start + INSN_MAX);
}

/*
 * The instruction at @p (@len bytes left) as perf 6.1's x86 decoder prints
 * it into @txt: "insn: " and each byte; its length into *@ilen and whether
 * it changes the flow into *@transfer. "<bad>" (*@ilen untouched) when no
 * instruction starts there; "?" with length 0 for code of another machine.
 */
static const char *dump_insn(struct bb_walk *w, uint64_t ip, const uint8_t *p, size_t len,
			     int *ilen, bool *transfer, char *txt, size_t txtlen)
{
	struct disasm_insn in;
	size_t i, n;

	if (transfer)
		*transfer = false;
	if (!w->code->dis || w->code->dis_machine != EM_X86_64) {
		*ilen = 0;
		return "?";
	}
	if (!disasm__one(w->code->dis, p, len, ip, &in) || !in.valid || in.size > len)
		return "<bad>";
	*ilen = in.size;
	if (transfer)
		*transfer = in.transfer;
	n = (size_t)snprintf(txt, txtlen, "insn: ");
	for (i = 0; i < in.size && n < txtlen; i++)
		n += (size_t)snprintf(txt + n, txtlen - n, "%02x ", in.bytes[i]);
	return txt;
}

/* "\tname+OFF:" where the code at @addr enters another function than the last one named */
static void print_sym(struct bb_walk *w, uint64_t addr)
{
	struct resolved res;
	const char *line;
	int64_t off;

	branch_view__resolve_end(w->it, w->smp, addr, &res);
	if (!res.sym || (w->last_name && res.dso == w->last_dso && res.sym_start == w->last_start &&
			 !strcmp(res.sym, w->last_name)))
		return;
	off = (int64_t)(res.addr - res.sym_start);
	fputc('\t', w->out);
	script__print_symname(w->out, &res, false);
	if (off)
		fprintf(w->out, "%+d", (int)off);
	fputc(':', w->out);
	if (w->srcline && (line = samples__srcline_found(w->it, &res)))
		fprintf(w->out, "\t%s", line);
	fputc('\n', w->out);
	w->last_dso = res.dso;
	w->last_start = res.sym_start;
	w->last_name = res.sym;
}

/* "\tADDRESS\tinsn: XX XX ", the bytes padded to 30 with @pad: the instruction's length */
static int print_insn_text(struct bb_walk *w, uint64_t ip, const uint8_t *p, size_t len, bool pad,
			   bool *transfer)
{
	char txt[128];
	int ilen = 0;
	const char *s = dump_insn(w, ip, p, len, &ilen, transfer, txt, sizeof(txt));

	fprintf(w->out, "\t%016llx\t%-*s", (unsigned long long)ip, pad ? 30 : 0, s);
	return ilen;
}

/* The branch's own instruction at @ip, its flags and cycles; @insn: the block's instructions */
static void print_jump(struct bb_walk *w, uint64_t ip, uint64_t flags, const uint8_t *p,
		       size_t len, int insn)
{
	unsigned int cycles = (unsigned int)(flags >> 4 & 0xffff);
	int ilen = print_insn_text(w, ip, p, len, true, NULL);

	fputc('\t', w->out);
	if (w->ilen)
		fprintf(w->out, "ilen: %d\t", ilen);
	fprintf(w->out, "#%s%s%s%s", flags & 2 ? " PRED" : "", flags & 1 ? " MISPRED" : "",
		flags & 4 ? " INTX" : "", flags & 8 ? " ABORT" : "");
	if (cycles) {
		w->total_cycles += (int)cycles;
		fprintf(w->out, " %u cycles [%d]", cycles, w->total_cycles);
		if (insn)
			fprintf(w->out, " %.2f IPC", (double)((float)insn / (float)cycles));
	}
	fputc('\n', w->out);
}

/* One instruction's line in a block: its address, bytes and (brstackinsnlen) length */
static int print_insn_line(struct bb_walk *w, uint64_t ip, const uint8_t *p, size_t len,
			   bool *transfer)
{
	int ilen = print_insn_text(w, ip, p, len, false, transfer);

	if (w->ilen)
		fprintf(w->out, "\tilen: %d", ilen);
	fputc('\n', w->out);
	return ilen;
}

/* srccode: the source line of @ip, when the thread's last one printed was another */
static void print_srccode(struct bb_walk *w, uint64_t ip)
{
	struct resolved res;

	if (!w->srccode)
		return;
	branch_view__resolve_end(w->it, w->smp, ip, &res);
	script_srccode__print(w->srccode, &res, w->smp->tid, w->out);
}

/* The block from the newest branch's target to the sample's address. */
static void final_block(struct bb_walk *w, uint64_t to)
{
	uint64_t ip = w->smp->ev->sample.ip, start = to, end = ip, off;
	bool transfer;
	long len;
	int ilen;

	/* branches the hardware missed: go on from the target up to a branch */
	if (end < start)
		end = start + FINAL_SCAN;
	len = grab_bb(w, start, end);
	print_sym(w, start);
	if (len <= 0) {
		/* at least the sample's own instruction */
		len = grab_bb(w, ip, ip);
		if (len > 0) {
			print_insn_line(w, ip, w->buf, (size_t)len, NULL);
			print_srccode(w, ip);
		}
		return;
	}
	for (off = 0; off <= end - start && off < (uint64_t)len; off += (uint64_t)ilen) {
		ilen = print_insn_line(w, start + off, w->buf + off, (size_t)len - off, &transfer);
		if (!ilen)
			break;
		if (transfer && start + off != ip) {
			fputs("\t... not reaching sample ...\n", w->out);
			break;
		}
		print_srccode(w, start + off);
	}
}

void script_brinsn__print(struct script_code *code, struct samples *it, const struct sample *smp,
			  bool ilen, bool srcline, struct script_srccode **srccode, FILE *out)
{
	const struct pr_sample *ps = &smp->ev->sample;
	struct bb_walk *w;
	uint64_t nr = ps->nr_branches, from, to, prev_to, start, end, flags, off;
	uint16_t cycles;
	long len;
	int64_t i;
	int n, insn;

	if (!nr)
		return;
	w = calloc(1, sizeof(*w));
	if (!w)
		return;
	w->code = code;
	w->it = it;
	w->smp = smp;
	w->ilen = ilen;
	w->srcline = srcline;
	w->srccode = srccode;
	w->out = out;
	fputc('\n', out);
	/* the oldest branch, whose block's start is not known: its own instruction */
	pr_branch_at(ps, nr - 1, &from, &prev_to, &cycles);
	len = grab_bb(w, from, from);
	if (len > 0) {
		print_sym(w, from);
		print_jump(w, from, pr_branch_flags_at(ps, nr - 1), w->buf, (size_t)len, 0);
		print_srccode(w, from);
	}
	for (i = (int64_t)nr - 2; i >= 0; i--) {
		pr_branch_at(ps, (uint64_t)i + 1, &from, &start, &cycles);
		pr_branch_at(ps, (uint64_t)i, &end, &to, &cycles);
		len = grab_bb(w, start, end);
		/* a branch into the kernel the hardware left out: the block goes on to the next */
		if (len == -ENXIO && i > 0) {
			pr_branch_at(ps, (uint64_t)--i, &end, &to, &cycles);
			len = grab_bb(w, start, end);
		}
		if (len <= 0)
			continue;
		insn = 0;
		flags = pr_branch_flags_at(ps, (uint64_t)i);
		for (off = 0; off < (uint64_t)len; off += (uint64_t)n) {
			uint64_t ip = start + off;

			print_sym(w, ip);
			if (ip == end) {
				print_jump(w, ip, flags, w->buf + off, (size_t)len - off, ++insn);
				print_srccode(w, ip);
				break;
			}
			n = print_insn_line(w, ip, w->buf + off, (size_t)len - off, NULL);
			if (!n)
				break;
			print_srccode(w, ip);
			insn++;
		}
		if (off != end - start)
			fputs("\tmismatch of LBR data and executable\n", out);
	}
	pr_branch_at(ps, 0, &from, &to, &cycles);
	/* the sample is on the newest branch (its target not run yet), or the branch aborted */
	if (from != ps->ip && !(pr_branch_flags_at(ps, 0) & 8))
		final_block(w, to);
	free(w);
}
