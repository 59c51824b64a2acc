/*
 * Per-backend lock statistics.  Each backend owns its counters (in shared
 * memory, one slot per backend) so that counting never adds a shared cache
 * line to the very critical sections being measured; the parent sums the
 * slots after the run.
 */
#ifndef PREEMPTLAB_LOCKSTATS_H
#define PREEMPTLAB_LOCKSTATS_H

#include <stdint.h>

#define LOCKSTATS_BUCKETS 32

struct lockstats {
	uint64_t acquisitions;
	uint64_t contended;	/* first attempt failed */
	uint64_t spins;		/* delay-loop iterations while waiting */
	uint64_t sleeps;	/* backoff sleeps (tas) or futex waits */
	uint64_t sleep_ns;	/* time in those sleeps: the waiters' side of T_tail */
	uint64_t wait_ns;
	uint64_t hold_ns;
	uint64_t max_wait_ns;
	uint64_t max_hold_ns;
	uint64_t rseq_grants;	/* slice extensions the kernel granted */
	uint64_t rseq_yields;	/* grants handed back in time (rseq_slice_yield 1) */
	uint64_t rseq_revoked;	/* request found cleared without a grant standing */
	/* resilient: attempts that gave up on a detected self-deadlock / the timeout. */
	uint64_t aa_detected;
	uint64_t timeouts;
	/*
	 * With --hold-events: holds during which the holder faulted / was
	 * switched out (window mode: during the wait or the hold, hold_events.h).
	 */
	uint64_t holds_with_fault;
	uint64_t holds_with_switch;
	uint64_t fault_hold_ns;
	uint64_t switch_hold_ns;
	uint64_t switch_hold_hist[LOCKSTATS_BUCKETS];
	uint64_t hold_hist[LOCKSTATS_BUCKETS];
	uint64_t wait_hist[LOCKSTATS_BUCKETS];
};

/* Bucket i holds 2^i <= ns < 2^(i+1); 0 and 1 go to bucket 0. */
static inline int lockstats_bucket(uint64_t ns)
{
	int b = ns < 2 ? 0 : 63 - __builtin_clzll(ns);
	return b < LOCKSTATS_BUCKETS ? b : LOCKSTATS_BUCKETS - 1;
}

void lockstats_add(struct lockstats *sum, const struct lockstats *s);

#endif
