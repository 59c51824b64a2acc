/*
 * T_tail from hold records (buffer_pool/hold_tail.c), on records whose
 * gaps were worked out by hand: a gap counts only from when a later
 * acquirer had begun waiting, records arrive in any order, bounds cut
 * gaps, and overflowed rings bound the complete part of the window.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hold_tail.h"

/* wait, acquire, release (ns), listed out of order as clients' rings are. */
static const struct hold_rec recs[] = {
	{ 42, 50, 55, 5, 0 },	/* E: waiting from 42 */
	{ 0, 0, 10, 1, 0 },	/* A: uncontended */
	{ 25, 25, 30, 3, 0 },	/* C: uncontended: nobody waited after B */
	{ 5, 12, 20, 2, 1 },	/* B: waiting from 5, through A's release at 10 */
	{ 60, 60, 70, 6, 1 },	/* F: uncontended: nobody waited after E */
	{ 28, 40, 45, 4, 1 },	/* D: waiting from 28, before C's release at 30 */
};
#define N (sizeof(recs) / sizeof(recs[0]))

static void whole(void)
{
	struct hold_rec h[N];
	struct hold_tail t;
	memcpy(h, recs, sizeof(h));
	CHECK(hold_tail_measure(h, N, 0, UINT64_MAX, &t) == 0, "measured");
	/* A->B 12-10 = 2; B->C none; C->D 40-30 = 10; D->E 50-45 = 5; E->F none. */
	CHECK(t.gaps == 5 && t.count == 3 && t.total_ns == 17,
	      "5 gaps, 3 with a waiter, 17 ns in all (got %llu, %llu, %llu)",
	      (unsigned long long)t.gaps, (unsigned long long)t.count,
	      (unsigned long long)t.total_ns);
	CHECK(t.p50_ns == 5 && t.p99_ns == 10 && t.max_ns == 10 && t.mean_ns > 5.66 &&
	      t.mean_ns < 5.67, "p50 5, p99 10, max 10, mean 17/3 (got %g, %g, %g, %g)", t.p50_ns,
	      t.p99_ns, t.max_ns, t.mean_ns);
}

static void bounded(void)
{
	struct hold_rec h[N];
	struct hold_tail t;
	memcpy(h, recs, sizeof(h));
	hold_tail_measure(h, N, 0, 30, &t);
	/* A->B and B->C lie before 30; C->D ends at 40: left out. */
	CHECK(t.gaps == 2 && t.count == 1 && t.total_ns == 2,
	      "[0, 30): 2 gaps, 1 tail of 2 ns (got %llu, %llu, %llu)",
	      (unsigned long long)t.gaps, (unsigned long long)t.count,
	      (unsigned long long)t.total_ns);
	hold_tail_measure(h, N, 30, UINT64_MAX, &t);
	CHECK(t.gaps == 3 && t.count == 2 && t.total_ns == 15,
	      "[30, end): C->D 10 and D->E 5 (got %llu, %llu, %llu)",
	      (unsigned long long)t.gaps, (unsigned long long)t.count,
	      (unsigned long long)t.total_ns);
}

static void rings(void)
{
	size_t sz = hold_ring_bytes(4);
	char *mem = calloc(3, sz);
	struct hold_ring *r[3];
	for (uint32_t i = 0; i < 3; i++) {
		r[i] = hold_ring_at(mem, 4, i);
		r[i]->cap = 4;
	}
	r[0]->n = 2;
	r[0]->rec[1] = recs[5];		/* released at 45, then dropped 3 */
	r[0]->dropped = 3;
	r[1]->n = 1;
	r[1]->rec[0] = recs[4];		/* released at 70, none dropped */
	const struct hold_ring *cr[3] = { r[0], r[1], r[2] };
	CHECK(hold_tail_complete_until(cr + 1, 1) == UINT64_MAX, "no ring dropped: all complete");
	CHECK(hold_tail_complete_until(cr, 2) == 45,
	      "complete until the overflowed ring's last release (45)");
	r[2]->dropped = 1;
	CHECK(hold_tail_complete_until(cr, 3) == 0, "an overflowed empty ring: nothing complete");
	free(mem);
}

int main(void)
{
	whole();
	bounded();
	rings();
	return CHECK_DONE();
}
