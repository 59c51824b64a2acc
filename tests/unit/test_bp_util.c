/*
 * rho = X m E[hold] (buffer_pool/lock_util.c) on hold records whose
 * figures were worked out by hand: only holds acquired inside the phase
 * count, a faulting hold's whole length is in E[hold], and lockstats
 * gives the same rho from the same holds.
 */
#include <math.h>

#include "check.h"
#include "lock_util.h"

/* wait, acquire, release (ns), pid, cpu: a fill phase of 1 ms from 1000 ns. */
static const struct hold_rec recs[] = {
	{ 1000, 1000, 3000, 1, 0 },		/* 2 us */
	{ 2500, 3000, 63000, 2, 1 },		/* 60 us: faulted inside the hold */
	{ 63000, 63000, 67000, 3, 0 },		/* 4 us */
	{ 500, 500, 900, 4, 1 },		/* before the phase: left out */
	{ 1001000, 1001000, 1002000, 5, 0 },	/* after it: left out */
};
#define N (sizeof(recs) / sizeof(recs[0]))

int main(void)
{
	struct lock_util u;
	/* The phase: [1000, 1001000) ns, 1 ms; lockstats counted 6000 acquisitions. */
	lock_util_from_records(recs, N, 1000, 1001000, 6000, 0.001, &u);
	/* E[hold] = (2 + 60 + 4) / 3 = 22 us; X m = 6000 / 0.001 s = 6e6 /s; rho = 132. */
	CHECK(u.source == UTIL_HOLD_RECORDS && u.holds == 3, "3 records in the phase (got %llu)",
	      (unsigned long long)u.holds);
	CHECK(fabs(u.mean_hold_ns - 22000) < 1e-6, "E[hold] 22 us, the fault included (got %g ns)",
	      u.mean_hold_ns);
	CHECK(fabs(u.acq_per_s - 6e6) < 1e-3, "X m = 6e6 acquisitions/s (got %g)", u.acq_per_s);
	CHECK(fabs(u.rho - 132.0) < 1e-9, "rho = 6e6 x 22e-6 = 132 (got %g)", u.rho);

	/* A realistic cell: 2,970 acquisitions/s, the same holds: rho = 2970 x 22e-6. */
	lock_util_from_records(recs, N, 1000, 1001000, 2970, 1.0, &u);
	CHECK(fabs(u.rho - 0.06534) < 1e-12, "2,970/s x 22 us = 0.06534 (got %.6f)", u.rho);

	/* lockstats: hold_ns 66,000 over 3 acquisitions in 1 ms: the same 0.066. */
	lock_util_from_stats(66000, 3, 0.001, &u);
	CHECK(u.source == UTIL_LOCKSTATS && fabs(u.rho - 0.066) < 1e-12,
	      "lockstats: 66 us held in 1 ms, rho 0.066 (got %g)", u.rho);

	/* Nothing to say: no record in the phase, no acquisitions, no length. */
	lock_util_from_records(recs, N, 2000000, 3000000, 10, 1.0, &u);
	CHECK(u.source == UTIL_NONE, "no record in the phase: no rho");
	lock_util_from_stats(0, 0, 1.0, &u);
	CHECK(u.source == UTIL_NONE, "no acquisitions: no rho");
	lock_util_from_records(recs, N, 0, UINT64_MAX, 10, 0, &u);
	CHECK(u.source == UTIL_NONE, "a phase of no length: no rho");
	return CHECK_DONE();
}
