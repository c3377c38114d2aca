// SPDX-License-Identifier: GPL-2.0
/*
 * libx: the library of the replaced-library scenario (tests/progs/rec_replace),
 * built twice, libx-v1.so and libx-v2.so, with XV=1 and XV=2: the same layout
 * and entry point x_work(), each build's loop named for it (x_v1_loop,
 * x_v2_loop), so a report shows which build a sample ran in.
 */
#define LOOP_NAME2(v) x_v##v##_loop
#define LOOP_NAME(v) LOOP_NAME2(v)

unsigned long LOOP_NAME(XV)(unsigned long x);
unsigned long x_work(unsigned long x);

__attribute__((noinline)) unsigned long LOOP_NAME(XV)(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ul + XV;
	return x;
}

unsigned long x_work(unsigned long x)
{
	return LOOP_NAME(XV)(x);
}
