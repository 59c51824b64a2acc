/*
 * The strategy lock's utilisation in a phase: rho = X * m * E[hold], the
 * acquisitions per second (X transactions a second, m acquisitions each)
 * times the mean hold, the holder's faults and time off CPU included.
 * rho near 1 is the report's regime (every backend queues on the lock);
 * at rho ~ 0.02 a faulting holder delays almost nobody (issue 36).
 *
 * Two sources.  The hold records (hold_trace.h, --trace-holds or
 * --hold-records) time each hold from its acquire to its release, and are
 * preferred; without them, lockstats' hold_ns over its acquisitions, the
 * same interval timed inside the lock.  The acquisitions per second come
 * from lockstats either way: the records may be a prefix of the phase
 * (a ring that filled), the count is whole.
 */
#ifndef PREEMPTLAB_LOCK_UTIL_H
#define PREEMPTLAB_LOCK_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "hold_trace.h"

enum lock_util_source { UTIL_NONE, UTIL_HOLD_RECORDS, UTIL_LOCKSTATS };

struct lock_util {
	enum lock_util_source source;
	uint64_t holds;		/* the holds E[hold] is the mean of */
	double mean_hold_ns;	/* E[hold], faults included */
	double acq_per_s;	/* X * m */
	double rho;
};

/*
 * From the records whose acquire lies in [from, to): their mean hold,
 * times acquisitions / duration_s.  UTIL_NONE when no record lies there
 * or the phase has no length.
 */
void lock_util_from_records(const struct hold_rec *h, size_t n, uint64_t from, uint64_t to,
			    uint64_t acquisitions, double duration_s, struct lock_util *out);
/* From lockstats: hold_ns / acquisitions as E[hold]. */
void lock_util_from_stats(uint64_t hold_ns, uint64_t acquisitions, double duration_s,
			  struct lock_util *out);
const char *lock_util_source_name(enum lock_util_source s);

#endif
