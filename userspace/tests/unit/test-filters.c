// SPDX-License-Identifier: GPL-2.0
/* filters: --time in percentages of the samples' span, as perf rounds them. */
#include <stdint.h>

#include "report/filters.h"
#include "tap.h"

/* Whether --time @arg over [@first, @last] keeps @t. */
static bool keeps(const char *arg, uint64_t first, uint64_t last, uint64_t t)
{
	struct filters f = { 0 };
	bool kept;

	if (filters__parse(&f, 'T', arg) || filters__time_bounds(&f, first, last))
		return false;
	kept = filters__time(&f, t);
	filters__release(&f);
	return kept;
}

int main(void)
{
	/* a span of 3 ns: 50% is 1.5 ns in, perf's round() makes it 2 */
	check(!keeps("50%-100%", 1000, 1003, 1001) && keeps("50%-100%", 1000, 1003, 1002),
	      "a slice starts at its share of the span rounded to the nearest ns");
	/* 0%-50% ends 1 ns before 1002, where the next slice starts */
	check(keeps("0%-50%", 1000, 1003, 1001) && !keeps("0%-50%", 1000, 1003, 1002),
	      "a slice ends just before the next one starts");
	check(keeps("50%-100%", 1000, 1003, 1003), "the last slice keeps the last sample");
	check(keeps("25%-50%", 0, 10, 3) && !keeps("25%-50%", 0, 10, 2) && keeps("25%-50%", 0, 10, 4) &&
		      !keeps("25%-50%", 0, 10, 5),
	      "25%-50% of 10 ns: 3 (2.5 rounded) to 4");
	return tap_done();
}
