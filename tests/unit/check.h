/*
 * Minimal assertion helpers for the C unit tests.  Each check prints one
 * PASS/FAIL line that tests/run.sh counts; a test binary exits non-zero when
 * any check failed, so it also works when run alone.
 */
#ifndef PREEMPTLAB_CHECK_H
#define PREEMPTLAB_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                   \
	do {                                                                   \
		if (cond) {                                                        \
			printf("PASS: ");                                              \
		} else {                                                           \
			printf("FAIL: %s:%d (%s) ", __FILE__, __LINE__, #cond);        \
			check_failures++;                                              \
		}                                                                  \
		printf(__VA_ARGS__);                                               \
		printf("\n");                                                      \
		fflush(stdout);                                                    \
	} while (0)

#define SKIP(...)                                                          \
	do {                                                                   \
		printf("SKIP: ");                                                  \
		printf(__VA_ARGS__);                                               \
		printf("\n");                                                      \
		fflush(stdout);                                                    \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
