/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the unit tests: check() prints one "ok N - what" or
 * "not ok N - what" line, skip() an "ok N - what # SKIP why" line for a test
 * whose precondition is missing, tap_done() prints the plan and returns the
 * exit status. Each unit test is a program of its own, so the counters are
 * too.
 */
#ifndef JREC_UNIT_TAP_H
#define JREC_UNIT_TAP_H

#include <stdio.h>

static int test_no, failures;

static inline void check(int ok, const char *what)
{
	test_no++;
	if (!ok)
		failures++;
	printf("%sok %d - %s\n", ok ? "" : "not ", test_no, what);
}

/* A test that cannot run here: counted, neither passed nor failed. */
static inline void skip(const char *what, const char *why)
{
	test_no++;
	printf("ok %d - %s # SKIP %s\n", test_no, what, why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}

#endif /* JREC_UNIT_TAP_H */
