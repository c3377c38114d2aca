// SPDX-License-Identifier: GPL-2.0
/*
 * branch-ipc's rule for perf's IPC column: how the blocks that end at one
 * branch source are counted (the longest start wins, a longer one starts
 * the count again, one without a start yields to one with), and which
 * blocks make a function's IPC and coverage (a block counts when its start
 * is known and its source is one of the function's instructions; a source
 * whose count was started again too often is not shown).
 */
#include <string.h>

#include "report/branch-ipc.h"
#include "tap.h"

int main(void)
{
	/* a function of 6 instructions, at these offsets */
	static const uint64_t offs[] = {0, 2, 5, 7, 9, 12};
	struct bipc_block x, blk[4];
	struct bipc_figures fig;

	memset(&x, 0, sizeof(x));
	x.end = 9;
	bipc_block__count(&x, true, 5, 4);
	bipc_block__count(&x, true, 5, 6);
	check(x.have_start && x.start == 5 && x.cycles == 10 && x.num == 2 && !x.reset,
	      "two blocks of one start: their cycles summed, counted twice");
	bipc_block__count(&x, true, 7, 100);
	check(x.start == 5 && x.cycles == 10 && x.num == 2, "a shorter block is dropped");
	bipc_block__count(&x, false, 0, 100);
	check(x.have_start && x.cycles == 10 && x.num == 2,
	      "a block without a start is dropped once one with a start was counted");
	bipc_block__count(&x, true, 2, 3);
	check(x.start == 2 && x.cycles == 3 && x.num == 1 && x.reset == 1,
	      "a longer block starts the count again, and the restart is counted");

	memset(&x, 0, sizeof(x));
	bipc_block__count(&x, false, 0, 8);
	bipc_block__count(&x, false, 0, 2);
	check(!x.have_start && x.cycles == 10 && x.num == 2,
	      "blocks without a start counted together");
	bipc_block__count(&x, true, 0, 5);
	check(x.have_start && !x.start && x.cycles == 5 && x.num == 1 && x.reset == 1,
	      "a block with a start replaces those without");

	memset(blk, 0, sizeof(blk));
	/* 2..9: 4 instructions, 3 times in 6 cycles */
	blk[0] =
	    (struct bipc_block){.end = 9, .start = 2, .cycles = 6, .num = 3, .have_start = true};
	/* no start: not counted */
	blk[1] = (struct bipc_block){.end = 5, .cycles = 50, .num = 1};
	/* a source that is not an instruction's start: not counted */
	blk[2] =
	    (struct bipc_block){.end = 8, .start = 0, .cycles = 70, .num = 1, .have_start = true};
	/* 0..2: 2 instructions, once in 2 cycles */
	blk[3] =
	    (struct bipc_block){.end = 2, .start = 0, .cycles = 2, .num = 1, .have_start = true};
	bipc__figures(blk, 4, offs, 6, &fig);
	check(fig.hit_insn == 4 * 3 + 2 && fig.hit_cycles == 8,
	      "IPC: the counted blocks' instructions, times their count, over their cycles");
	check(fig.cover_insn == 2 && fig.total_insn == 6,
	      "coverage: the counted blocks' sources over the function's instructions");
	blk[0].reset = BIPC_RESET_HIDE;
	bipc__figures(blk, 4, offs, 6, &fig);
	check(fig.hit_insn == 2 && fig.hit_cycles == 2 && fig.cover_insn == 1,
	      "a source whose count started again too often is not shown");
	bipc__figures(blk, 4, offs, 0, &fig);
	check(!fig.hit_cycles && !fig.cover_insn && !fig.total_insn,
	      "no code: nothing counted, nothing to cover");
	return tap_done();
}
