/*
 * T_tail: how long the lock sits free after a release while some waiter is
 * waiting for it, from the hold records (hold_trace.h).  A waiter that
 * escalated to s_lock's 1 ms+ backoff sleeps during an outage may sleep
 * past the release; the lock is then idle with work queued behind it, a
 * cost no count of preempted holders shows (issue 24).  Computed after
 * the run from the records alone: nothing is added to the hold.
 *
 * One lock: the records of one strategy lock (--strategy with one
 * partition); holds of different locks overlap and have no tail.
 */
#ifndef PREEMPTLAB_HOLD_TAIL_H
#define PREEMPTLAB_HOLD_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "hold_trace.h"

struct hold_tail {
	uint64_t gaps;		/* releases followed by a recorded acquire */
	uint64_t count;		/* of them, with a waiter waiting in the gap */
	uint64_t total_ns;
	double mean_ns, p50_ns, p99_ns, max_ns;
};

/*
 * Sort h (n records of every client) by acquire time, then measure each
 * gap between a release and the next acquire that lies in [from, to)
 * (a gap across either bound is left out): the part of the gap during which some later acquirer had
 * already begun waiting.  Returns 0, or -1 when out of memory.
 */
int hold_tail_measure(struct hold_rec *h, size_t n, uint64_t from, uint64_t to,
		      struct hold_tail *out);

/*
 * With rings that overflowed, each client's records stop at a different
 * time and the gaps after the first stop are not real: the records before
 * this time (the earliest last release of an overflowed ring) are whole.
 * UINT64_MAX when no ring dropped a hold.
 */
uint64_t hold_tail_complete_until(const struct hold_ring *const *rings, size_t nrings);

#endif
