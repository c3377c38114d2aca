// SPDX-License-Identifier: GPL-2.0
/*
 * rep_tree: a single-threaded program with a known call tree, for comparing
 * jrec report's call graph (-g) and its flame graph outputs with perf's.
 * Built with frame pointers and without sibling calls (tests/Makefile), so
 * that perf's -g walks every frame of its stacks.
 *
 *   main ─┬─ tree_parse ─┬─ tree_lex    (30)
 *         │              └─ tree_hash   (10)
 *         ├─ tree_eval  ─┬─ tree_hash   (20)
 *         │              └─ tree_mul    (25)
 *         └─ tree_emit ──── tree_mul    (15)
 *
 *   rep_tree [SECONDS]     (of CPU time, default 1)
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

/* not a leaf itself: gcc gives leaf functions no frame pointer */
__attribute__((noipa)) static void store(uint64_t x)
{
	sink = x;
}

/* each leaf its own loop, so that no two are folded into one function */
#define LEAF(name, mul)                                                                    \
	__attribute__((noipa)) static void name(int weight)                            \
	{                                                                                  \
		uint64_t x = sink;                                                         \
		for (int i = 0; i < weight * 20000; i++)                                   \
			x = x * (mul) + 1442695040888963407ULL;                            \
		store(x);                                                                  \
	}

LEAF(tree_lex, 6364136223846793005ULL)
LEAF(tree_hash, 2862933555777941757ULL)
LEAF(tree_mul, 3202034522624059733ULL)

__attribute__((noipa)) static void tree_parse(void)
{
	tree_lex(30);
	tree_hash(10);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) static void tree_eval(void)
{
	tree_hash(20);
	tree_mul(25);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noipa)) static void tree_emit(void)
{
	tree_mul(15);
	__asm__ volatile("" ::: "memory");
}

/* SECONDS of the process's own CPU time */
int main(int argc, char **argv)
{
	clock_t end = clock() + (clock_t)((argc > 1 ? atof(argv[1]) : 1) * CLOCKS_PER_SEC);

	while (clock() < end) {
		tree_parse();
		tree_eval();
		tree_emit();
	}
	return 0;
}
