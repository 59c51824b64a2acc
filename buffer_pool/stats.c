#include "stats.h"

int lat_bucket(uint64_t ns)
{
	if (ns < LAT_SUB)
		return (int)ns;
	int e = 63 - __builtin_clzll(ns);	/* ns >= 16, so e >= 4 */
	int b = (e - 3) * LAT_SUB + (int)((ns >> (e - 4)) & (LAT_SUB - 1));
	return b < LAT_BUCKETS ? b : LAT_BUCKETS - 1;
}

uint64_t lat_bucket_floor(int b)
{
	if (b < LAT_SUB)
		return (uint64_t)b;
	int e = b / LAT_SUB + 3;
	uint64_t sub = (uint64_t)(b % LAT_SUB);
	return (1ull << e) + (sub << (e - 4));
}

void backend_stats_add(struct backend_stats *sum, const struct backend_stats *s)
{
	sum->transactions += s->transactions;
	sum->hits += s->hits;
	sum->misses += s->misses;
	sum->evictions += s->evictions;
	sum->writes += s->writes;
	sum->lat_sum_ns += s->lat_sum_ns;
	if (s->lat_max_ns > sum->lat_max_ns)
		sum->lat_max_ns = s->lat_max_ns;
	for (int i = 0; i < LAT_BUCKETS; i++)
		sum->lat_hist[i] += s->lat_hist[i];
	lockstats_add(&sum->strategy, &s->strategy);
	lockstats_add(&sum->mapping, &s->mapping);
	sum->minflt += s->minflt;
	sum->majflt += s->majflt;
	sum->nvcsw += s->nvcsw;
	sum->nivcsw += s->nivcsw;
	sum->minflt_total += s->minflt_total;
	sum->utime_s += s->utime_s;
	sum->stime_s += s->stime_s;
	if (s->pmd_mapped_kb > sum->pmd_mapped_kb)
		sum->pmd_mapped_kb = s->pmd_mapped_kb;
	sum->processes += s->processes;
	sum->prefault_ns += s->prefault_ns;
	if (s->prefault_max_ns > sum->prefault_max_ns)
		sum->prefault_max_ns = s->prefault_max_ns;
	sum->prefault_cpu_ns += s->prefault_cpu_ns;
	sum->prefault_pages += s->prefault_pages;
	sum->prefault_calls += s->prefault_calls;
	sum->prefault_pte_kb += s->prefault_pte_kb;
	sum->prefault_errors += s->prefault_errors;
	sum->reentry.attempts += s->reentry.attempts;
	sum->reentry.acquired += s->reentry.acquired;
	sum->reentry.aa += s->reentry.aa;
	sum->reentry.timeouts += s->reentry.timeouts;
	sum->reentry.deadlocks += s->reentry.deadlocks;
	sum->reentry.stall_ns += s->reentry.stall_ns;
	if (s->reentry.max_stall_ns > sum->reentry.max_stall_ns)
		sum->reentry.max_stall_ns = s->reentry.max_stall_ns;
}

double lat_quantile(const uint64_t *hist, double q)
{
	uint64_t total = 0, seen = 0;
	for (int i = 0; i < LAT_BUCKETS; i++)
		total += hist[i];
	if (total == 0)
		return 0;
	uint64_t rank = (uint64_t)(q * (double)(total - 1)) + 1;
	for (int i = 0; i < LAT_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= rank) {
			/* Midpoint of the bucket: half its width is the error bound. */
			uint64_t lo = lat_bucket_floor(i);
			uint64_t hi = i + 1 < LAT_BUCKETS ? lat_bucket_floor(i + 1) : lo;
			return (double)(lo + hi) / 2.0;
		}
	}
	return (double)lat_bucket_floor(LAT_BUCKETS - 1);
}
