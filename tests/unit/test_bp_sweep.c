/*
 * StrategyGetBuffer: freelist first, then the clock sweep, which skips
 * pinned buffers, decrements usage counts as the hand passes, and reports
 * "no unpinned buffers" instead of spinning forever.
 */
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
	struct lock_ctx c = { &ls, p->mcs, 0, 0, "strategy lock", NULL };
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
	struct lock_ctx c = { NULL, p->mcs, 0, 0, "strategy lock", NULL };
	for (int i = 0; i < N; i++)
		get(p, &c, 0);
	set_all(p, 0, 0);
	for (int i = 0; i < 5 * N; i++)
		get(p, &c, 0);
	uint32_t passes = strategy_complete_passes(&p->ctl->strategy);
	CHECK(passes >= 4 && passes <= 5, "5*N sweeps complete 4-5 passes of the hand (%u)", passes);
	shmem_destroy(&seg);
}

int main(void)
{
	test_strategy(STRATEGY_PG, 1, "pg");
	test_strategy(STRATEGY_GLOBAL, 1, "global");
	test_strategy(STRATEGY_PARTITIONED, 4, "partitioned:4");
	test_passes();
	return CHECK_DONE();
}
