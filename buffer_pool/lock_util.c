/* The strategy lock's utilisation rho (see lock_util.h). */
#include "lock_util.h"

static void finish(struct lock_util *u, enum lock_util_source src, uint64_t holds,
		   double mean_hold_ns, uint64_t acquisitions, double duration_s)
{
	u->source = src;
	u->holds = holds;
	u->mean_hold_ns = mean_hold_ns;
	u->acq_per_s = (double)acquisitions / duration_s;
	u->rho = u->acq_per_s * mean_hold_ns / 1e9;
}

void lock_util_from_records(const struct hold_rec *h, size_t n, uint64_t from, uint64_t to,
			    uint64_t acquisitions, double duration_s, struct lock_util *out)
{
	*out = (struct lock_util){ .source = UTIL_NONE };
	if (duration_s <= 0)
		return;
	uint64_t k = 0;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (h[i].acquire_ns < from || h[i].acquire_ns >= to || h[i].release_ns < h[i].acquire_ns)
			continue;
		sum += (double)(h[i].release_ns - h[i].acquire_ns);
		k++;
	}
	if (k)
		finish(out, UTIL_HOLD_RECORDS, k, sum / (double)k, acquisitions, duration_s);
}

void lock_util_from_stats(uint64_t hold_ns, uint64_t acquisitions, double duration_s,
			  struct lock_util *out)
{
	*out = (struct lock_util){ .source = UTIL_NONE };
	if (duration_s <= 0 || !acquisitions)
		return;
	finish(out, UTIL_LOCKSTATS, acquisitions, (double)hold_ns / (double)acquisitions,
	       acquisitions, duration_s);
}

const char *lock_util_source_name(enum lock_util_source s)
{
	return s == UTIL_HOLD_RECORDS ? "hold_records" : s == UTIL_LOCKSTATS ? "lockstats" : "none";
}
