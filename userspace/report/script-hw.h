/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-hw: the fields of perf script that print what the hardware
 * recorded beside the sample's address, in perf 6.1's layout: the data
 * source decoded (data_src), the interrupt and user registers (iregs,
 * uregs), the page sizes (data_page_size, code_page_size) and a BPF
 * program's output (bpf-output).
 */
#ifndef JREC_SCRIPT_HW_H
#define JREC_SCRIPT_HW_H

#include <stdint.h>
#include <stdio.h>

struct pr_sample;

/*
 * data_src: the value in hex and its decoding ("|OP LOAD|LVL L1 hit|..."),
 * cut at perf's 99 characters, padded to the widest printed so far
 * (@width, kept by the caller from one sample to the next).
 */
void script_hw__data_src(uint64_t data_src, int *width, FILE *out);
/* iregs or uregs: " ABI:N " and each register of @mask "NAME:0xVALUE " (x86's names) */
void script_hw__regs(const struct pr_sample *s, uint64_t abi, const void *regs, uint64_t mask,
		     FILE *out);
/* A page size as perf names it ("4K", "2M", "1024B"), "N/A" for 0 */
void script_hw__page_size(uint64_t size, FILE *out);
/*
 * bpf-output: the @size bytes a BPF program wrote (a BPF-output event's
 * raw data) below the sample's line, as perf 6.1 dumps them: eight bytes a
 * line in hex and as characters after "BPF output:", then the bytes as a
 * string when they are one (printable, ended by NULs).
 */
void script_hw__bpf_output(const uint8_t *raw, uint32_t size, FILE *out);

#endif
