/*
 * Per-backend counters, one cache-line-aligned slot per client in shared
 * memory.  A client process re-forked by --reconnect keeps adding to its
 * slot, so the parent's sum covers every process that ever ran.
 */
#ifndef PREEMPTLAB_STATS_H
#define PREEMPTLAB_STATS_H

#include <stdint.h>

#include "lockstats.h"

/*
 * Latency histogram: values below 16 ns exactly, above that 16 linear
 * sub-buckets per power of two (about 6% resolution), up to 2^43 ns.
 */
#define LAT_SUB 16
#define LAT_BUCKETS ((43 - 3) * LAT_SUB)

/* --reentrant-signal: the strategy lock taken from a SIGPROF handler. */
struct reentry_stats {
	uint64_t attempts, acquired, aa, timeouts, deadlocks;
	uint64_t stall_ns, max_stall_ns;
};

struct backend_stats {
	_Alignas(64) uint64_t transactions;
	uint64_t hits, misses, evictions, writes;
	uint64_t lat_sum_ns, lat_max_ns;
	uint64_t lat_hist[LAT_BUCKETS];
	struct lockstats strategy;
	struct lockstats mapping;
	/* getrusage deltas over the measured interval, summed per process. */
	int64_t minflt, majflt, nvcsw, nivcsw;
	int64_t minflt_total;	/* whole process lives, warm-up included */
	double utime_s, stime_s;
	int64_t pmd_mapped_kb;	/* THP actually mapping the segment, max seen */
	uint32_t processes;	/* how many processes used this slot */
	struct reentry_stats reentry;
	/* --mitigation prefault: what populating the descriptors' page tables
	 * cost the processes of this slot (mitigation.h), summed. */
	uint64_t prefault_ns, prefault_max_ns, prefault_cpu_ns, prefault_pages, prefault_calls;
	int64_t prefault_pte_kb;
	uint32_t prefault_errors;
};

int lat_bucket(uint64_t ns);
/* Lower bound of a bucket, in ns. */
uint64_t lat_bucket_floor(int b);

void backend_stats_add(struct backend_stats *sum, const struct backend_stats *s);

/* The q-quantile (0..1) of a latency histogram, in ns. */
double lat_quantile(const uint64_t *hist, double q);

#endif
