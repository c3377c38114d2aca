// SPDX-License-Identifier: GPL-2.0
/*
 * insn-window: a TCG plugin for QEMU (the plugin interface of version 1,
 * Debian bookworm's QEMU 7.2) that counts the guest instructions executed in
 * each translation block while a window is open, for scripts/guest-profile.
 *
 * The window is opened and closed by the guest itself: a translation block
 * holding the 10-byte instruction `movabs $WINDOW_OPEN, %rax` opens it when
 * it runs, one holding `movabs $WINDOW_CLOSE, %rax` closes it
 * (tests/bench/bench_mmap_loop.c runs them around its timed loop). Whatever
 * runs meanwhile counts, on any CPU, kernel and user space alike.
 *
 * At QEMU's exit it writes "windows N", then one line per block that ran
 * inside a window: its guest virtual address (hex), its instructions and
 * how many times it ran. A block that left early (an exception, an I/O
 * access under -icount) is counted whole: a fault is rare enough here.
 *
 *   -plugin insn-window.so,arg=out=FILE[,arg=window=K]
 *
 * With window=K only the K-th window counts (1 the first): one run of a
 * sequence that opens a window per run.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The part of QEMU's plugin interface (qemu-plugin.h, version 1) used here. */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  void (*cb)(unsigned int, void *),
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *),
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

/* "JMPROF<<" and "JMPROF>>", little-endian, as the guest's immediates */
#define WINDOW_OPEN  0x3c3c464f52504d4aULL
#define WINDOW_CLOSE 0x3e3e464f52504d4aULL

enum mark { MARK_NONE, MARK_OPEN, MARK_CLOSE };

struct block {
	uint64_t vaddr, runs;
	uint32_t insns;
	enum mark mark;
	struct block *next;
};

static struct block *blocks;
static uint64_t windows;
static bool open_now;
static char *out_path;
static uint64_t only_window; /* 0: every window */

static void block_ran(unsigned int vcpu, void *userdata)
{
	struct block *b = userdata;

	if (b->mark == MARK_OPEN && !open_now) {
		open_now = true;
		windows++;
	}
	if (open_now && (!only_window || windows == only_window))
		b->runs++;
	if (b->mark == MARK_CLOSE)
		open_now = false;
}

/* Whether the instruction is `movabs $imm64, %rax` with @imm. */
static bool is_movabs_rax(const struct qemu_plugin_insn *insn, uint64_t imm)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	uint64_t v;

	if (qemu_plugin_insn_size(insn) != 10 || p[0] != 0x48 || p[1] != 0xb8)
		return false;
	memcpy(&v, p + 2, 8);
	return v == imm;
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));
	size_t i;

	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = (uint32_t)qemu_plugin_tb_n_insns(tb);
	for (i = 0; i < b->insns; i++) {
		const struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (is_movabs_rax(insn, WINDOW_OPEN))
			b->mark = MARK_OPEN;
		else if (is_movabs_rax(insn, WINDOW_CLOSE))
			b->mark = MARK_CLOSE;
	}
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;

	if (!f) {
		perror(out_path);
		return;
	}
	fprintf(f, "windows %llu\n", (unsigned long long)windows);
	for (b = blocks; b; b = b->next)
		if (b->runs)
			fprintf(f, "%llx %u %llu\n", (unsigned long long)b->vaddr, b->insns,
				(unsigned long long)b->runs);
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "window=", 7))
			only_window = strtoull(argv[i] + 7, NULL, 10);
	}
	if (!out_path) {
		fprintf(stderr, "insn-window: no out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
