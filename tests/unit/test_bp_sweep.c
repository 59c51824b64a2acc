/*
 * StrategyGetBuffer: freelist first, then the clock sweep, which skips
 * pinned buffers, decrements usage counts as the hand passes, and reports
 * "no unpinned buffers" instead of spinning forever.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bp_fixture.h"
#include "check.h"

#define N 16

static int32_t get(struct pool *p, struct lock_ctx *c, uint32_t home)
{
	uint32_t s;
	int32_t id = strategy_get_buffer(&p->ctl->strategy, p->descs, c, home, &s);
	if (id >= 0)
		buf_hdr_unlock(&p->descs[id], s);
	return id;
}

static void set_all(struct pool *p, uint32_t refcount, uint32_t usage)
{
	for (int i = 0; i < N; i++)
		p->descs[i].state = refcount * BUF_REFCOUNT_ONE + usage * BUF_USAGECOUNT_ONE;
}

static void test_strategy(enum strategy_kind kind, uint32_t parts, const char *name)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool(N, 64, kind, parts, 1, &seg);
	struct lockstats ls;
	memset(&ls, 0, sizeof(ls));
	struct lock_ctx c = { &ls, p->mcs, 0, 0, "strategy lock", NULL, NULL, 0 };
	int seen[N] = { 0 }, distinct = 0;

	/* Each call from another home: partitioned pools start in their own. */
	for (int i = 0; i < N; i++) {
		int32_t id = get(p, &c, (uint32_t)i);
		if (id >= 0 && !seen[id]++)
			distinct++;
		/* Mark it in use, as a backend that read a page in would. */
		if (id >= 0)
			p->descs[id].state = BUF_USAGECOUNT_ONE;
	}
	CHECK(distinct == N, "%s: the freelist hands out all %d buffers once", name, N);

	set_all(p, 0, 0);
	p->descs[0].state = BUF_REFCOUNT_ONE;	/* pinned */
	int pinned_chosen = 0;
	for (int i = 0; i < 3 * N; i++)
		pinned_chosen |= get(p, &c, 0) == 0;
	CHECK(!pinned_chosen, "%s: a pinned buffer is never chosen", name);

	set_all(p, 0, 3);
	int32_t id = get(p, &c, 0);
	uint32_t total = 0;
	for (int i = 0; i < N; i++)
		total += BUF_USAGECOUNT(p->descs[i].state);
	CHECK(id >= 0 && total < 3 * N,
	      "%s: the hand found victim %d after decrementing usage counts (%u of %d left)",
	      name, id, total, 3 * N);
	CHECK(id >= 0 && BUF_USAGECOUNT(p->descs[id].state) == 0,
	      "%s: the victim's usage count is zero", name);

	set_all(p, 1, 0);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	id = get(p, &c, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(id == -1, "%s: all pinned -> 'no unpinned buffers' (-1), got %d", name, id);
	CHECK(t1.tv_sec - t0.tv_sec < 2, "%s: ...and it returned at once", name);
	shmem_destroy(&seg);
}

static void test_passes(void)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool(N, 64, STRATEGY_PG, 1, 1, &seg);
	struct lock_ctx c = { NULL, p->mcs, 0, 0, "strategy lock", NULL, NULL, 0 };
	for (int i = 0; i < N; i++)
		get(p, &c, 0);
	set_all(p, 0, 0);
	for (int i = 0; i < 5 * N; i++)
		get(p, &c, 0);
	uint32_t passes = strategy_complete_passes(&p->ctl->strategy);
	CHECK(passes >= 4 && passes <= 5, "5*N sweeps complete 4-5 passes of the hand (%u)", passes);
	shmem_destroy(&seg);
}

/* The stride order is a permutation: every buffer once, every Nth first. */
static void test_stride(uint32_t nbuffers, uint32_t stride)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool(nbuffers, 4 * nbuffers, STRATEGY_PG, 1, 1, &seg);
	strategy_init(&p->ctl->strategy, STRATEGY_PG, 1, stride, LOCK_TAS, p->descs, nbuffers);
	char *seen = calloc(nbuffers, 1);
	uint32_t n = 0, dup = 0, in_order = 1, expect = 0;
	for (int32_t b = p->ctl->strategy.part[0].first_free; b >= 0 && n <= nbuffers;
	     b = p->descs[b].free_next, n++) {
		dup += seen[b]++;
		if (n < nbuffers / stride && (uint32_t)b != expect)
			in_order = 0;
		expect += stride;
	}
	CHECK(n == nbuffers && dup == 0,
	      "stride %u over %u buffers: the freelist holds each buffer exactly once (%u links, %u repeats)",
	      stride, nbuffers, n, dup);
	CHECK(in_order, "stride %u: the list starts 0, %u, %u, ...", stride, stride, 2 * stride);
	free(seen);
	shmem_destroy(&seg);
}

/* The fill ends when the last never-used buffer is handed out, not before. */
static void test_fill_stamp(enum strategy_kind kind, const char *name)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool(N, 64, kind, 1, 1, &seg);
	struct lock_ctx c = { NULL, p->mcs, 0, 0, "strategy lock", NULL, NULL, 0 };
	int early = 0;
	for (int i = 0; i < N; i++) {
		early |= strategy_fill_ns(&p->ctl->strategy) != 0;
		int32_t id = get(p, &c, 0);
		if (id >= 0)
			p->descs[id].state = BUF_USAGECOUNT_ONE;
	}
	if (kind == STRATEGY_PG19)
		get(p, &c, 0);	/* the tick that wraps the hand ends the first pass */
	CHECK(!early && strategy_fill_ns(&p->ctl->strategy) != 0,
	      "%s: the pool counts as filled once all %d buffers have been handed out, not before",
	      name, N);
	shmem_destroy(&seg);
}

/* PostgreSQL 19: no freelist; the strategy lock only where the hand wraps. */
static void test_pg19_lock_on_wrap(void)
{
	struct shmem_seg seg;
	struct pool *p = fixture_pool(N, 64, STRATEGY_PG19, 1, 1, &seg);
	struct lockstats ls;
	memset(&ls, 0, sizeof(ls));
	struct lock_ctx c = { &ls, p->mcs, 0, 0, "strategy lock", NULL, NULL, 0 };
	CHECK(p->ctl->strategy.part[0].first_free < 0, "pg19: there is no freelist");
	for (int i = 0; i < 7 * N + 3; i++) {
		int32_t id = get(p, &c, 0);
		if (id >= 0 && i % 3 == 0)
			p->descs[id].state = BUF_USAGECOUNT_ONE;	/* some are used again */
	}
	uint32_t passes = strategy_complete_passes(&p->ctl->strategy);
	CHECK(passes > 0 && ls.acquisitions == passes,
	      "pg19: strategy lock acquisitions (%llu) equal completed passes (%u)",
	      (unsigned long long)ls.acquisitions, passes);
	shmem_destroy(&seg);
}

int main(void)
{
	test_strategy(STRATEGY_PG, 1, "pg");
	test_strategy(STRATEGY_GLOBAL, 1, "global");
	test_strategy(STRATEGY_PARTITIONED, 4, "partitioned:4");
	test_strategy(STRATEGY_PG19, 1, "pg19");
	test_passes();
	test_stride(1000, 1);
	test_stride(1000, 8);
	test_stride(1000, 64);
	test_stride(1000, 1024);
	test_stride(4096, 64);
	test_fill_stamp(STRATEGY_PG, "pg");
	test_fill_stamp(STRATEGY_GLOBAL, "global");
	test_fill_stamp(STRATEGY_PG19, "pg19");
	test_pg19_lock_on_wrap();
	return CHECK_DONE();
}
