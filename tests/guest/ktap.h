/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal kselftest-style TAP 13 for the guest tests: one plan line at the
 * end, "ok N - what" / "not ok N - what", exit 0 pass, 1 fail, 4 skip.
 */
#ifndef JMMAP_GUEST_KTAP_H
#define JMMAP_GUEST_KTAP_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4

static int ktap_n, ktap_failed, ktap_skipped;

static inline void ktap_begin(void)
{
	printf("TAP version 13\n");
	fflush(stdout);
}

static inline __attribute__((format(printf, 2, 3))) int ktap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	ktap_n++;
	if (!ok)
		ktap_failed++;
	printf("%sok %d - ", ok ? "" : "not ", ktap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

static inline __attribute__((format(printf, 2, 3))) void ktap_skip(const char *why,
								  const char *fmt, ...)
{
	va_list ap;

	ktap_n++;
	ktap_skipped++;
	printf("ok %d - ", ktap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

#define ktap_diag(...)                                                                             \
	do {                                                                                       \
		printf("# ");                                                                      \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		fflush(stdout);                                                                    \
	} while (0)

/* Print the plan and exit: fail if anything failed, skip if all skipped. */
static inline int ktap_finish(void)
{
	printf("1..%d\n", ktap_n);
	if (ktap_failed)
		return KSFT_FAIL;
	if (ktap_n && ktap_skipped == ktap_n)
		return KSFT_SKIP;
	return KSFT_PASS;
}

/* Skip the whole program for a missing precondition. */
static inline __attribute__((noreturn)) void ktap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(KSFT_SKIP);
}

#endif
