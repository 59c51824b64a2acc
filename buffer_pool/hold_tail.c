#include "hold_tail.h"

#include <stdlib.h>

static int by_acquire(const void *a, const void *b)
{
	uint64_t x = ((const struct hold_rec *)a)->acquire_ns;
	uint64_t y = ((const struct hold_rec *)b)->acquire_ns;
	return x < y ? -1 : x > y;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted values: the smallest with at least q*n at or below. */
static double quantile(const uint64_t *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n + 0.999999);
	return (double)v[k ? k - 1 : 0];
}

int hold_tail_measure(struct hold_rec *h, size_t n, uint64_t from, uint64_t to,
		      struct hold_tail *out)
{
	*out = (struct hold_tail){ 0 };
	if (n < 2)
		return 0;
	qsort(h, n, sizeof(*h), by_acquire);
	/*
	 * Anyone waiting in the gap after hold i acquires after it, so the
	 * earliest wait start among holds i+1.. is when the queue formed:
	 * a suffix minimum.
	 */
	uint64_t *min_wait = malloc(n * sizeof(*min_wait));
	uint64_t *tail = malloc(n * sizeof(*tail));
	if (!min_wait || !tail) {
		free(min_wait);
		free(tail);
		return -1;
	}
	min_wait[n - 1] = h[n - 1].wait_ns;
	for (size_t i = n - 1; i-- > 0;)
		min_wait[i] = h[i].wait_ns < min_wait[i + 1] ? h[i].wait_ns : min_wait[i + 1];
	for (size_t i = 0; i + 1 < n; i++) {
		uint64_t rel = h[i].release_ns, next = h[i + 1].acquire_ns;
		if (rel < from || next >= to || next <= rel)
			continue;
		out->gaps++;
		uint64_t queued = min_wait[i + 1] > rel ? min_wait[i + 1] : rel;
		if (queued >= next)
			continue;	/* free, and nobody wanted it */
		tail[out->count++] = next - queued;
		out->total_ns += next - queued;
	}
	if (out->count) {
		qsort(tail, out->count, sizeof(*tail), by_value);
		out->mean_ns = (double)out->total_ns / (double)out->count;
		out->p50_ns = quantile(tail, out->count, 0.50);
		out->p99_ns = quantile(tail, out->count, 0.99);
		out->max_ns = (double)tail[out->count - 1];
	}
	free(min_wait);
	free(tail);
	return 0;
}

uint64_t hold_tail_complete_until(const struct hold_ring *const *rings, size_t nrings)
{
	uint64_t until = UINT64_MAX;
	for (size_t i = 0; i < nrings; i++) {
		const struct hold_ring *r = rings[i];
		if (r->dropped && r->n && r->rec[r->n - 1].release_ns < until)
			until = r->rec[r->n - 1].release_ns;
		else if (r->dropped && !r->n)
			until = 0;
	}
	return until;
}
