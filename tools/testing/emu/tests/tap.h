/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the emulator's unit tests:
 *   ok(cond, "name", ...)      one test point
 *   is_u(got, want, "name")    numeric comparison with a diagnostic
 *   tap_done()                 plan line and exit status
 */
#ifndef EMU_TAP_H
#define EMU_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#define is_u(got, want, ...) do {					\
	unsigned long long g_ = (unsigned long long)(got);		\
	unsigned long long w_ = (unsigned long long)(want);		\
	if (!ok(g_ == w_, __VA_ARGS__))					\
		printf("#   got 0x%llx, want 0x%llx\n", g_, w_);	\
} while (0)

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* EMU_TAP_H */
