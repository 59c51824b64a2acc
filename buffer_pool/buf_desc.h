/*
 * Buffer descriptors.  As in PostgreSQL, everything a backend must test or
 * change to pin, unpin or choose a victim lives in one 32-bit atomic state
 * word, so the hot paths are single compare-and-swaps:
 *
 *   bits  0..17  reference count (pins)
 *   bits 18..21  usage count (clock sweep "recently used" credit, max 5)
 *   bits 22..31  flags, BM_LOCKED being the buffer header spinlock
 *
 * Descriptors are padded to 64 bytes, one per cache line, so 64 of them
 * share a 4 KB page: a backend that walks descriptors under the strategy
 * lock takes a minor fault every 64 descriptors until it has touched them
 * all, which is the event this lab exists to observe.
 */
#ifndef PREEMPTLAB_BUF_DESC_H
#define PREEMPTLAB_BUF_DESC_H

#include <stdint.h>

#define BUF_REFCOUNT_ONE 1u
#define BUF_REFCOUNT_MASK ((1u << 18) - 1)
#define BUF_USAGECOUNT_ONE (1u << 18)
#define BUF_USAGECOUNT_MASK (0xFu << 18)
#define BUF_USAGECOUNT_SHIFT 18
#define BM_MAX_USAGE_COUNT 5

#define BM_LOCKED (1u << 22)
#define BM_DIRTY (1u << 23)
#define BM_VALID (1u << 24)
#define BM_TAG_VALID (1u << 25)
#define BM_IO_IN_PROGRESS (1u << 26)

#define BUF_REFCOUNT(s) ((s) & BUF_REFCOUNT_MASK)
#define BUF_USAGECOUNT(s) (((s) & BUF_USAGECOUNT_MASK) >> BUF_USAGECOUNT_SHIFT)

#define BLOCK_INVALID UINT32_MAX
#define FREENEXT_END_OF_LIST (-1)
#define FREENEXT_NOT_IN_LIST (-2)

struct buf_desc {
	_Alignas(64) uint32_t state;
	uint32_t tag;		/* block number in the relation */
	int32_t buf_id;
	int32_t free_next;	/* freelist link, under the strategy lock */
	uint32_t content_lock;	/* futex mutex guarding the page contents */
};

_Static_assert(sizeof(struct buf_desc) == 64, "one descriptor per cache line");

/* Spin until we own the header lock; returns the state with BM_LOCKED set. */
uint32_t buf_hdr_lock(struct buf_desc *d);

/* Store the new state (without BM_LOCKED), releasing the header lock. */
static inline void buf_hdr_unlock(struct buf_desc *d, uint32_t state)
{
	__atomic_store_n(&d->state, state & ~BM_LOCKED, __ATOMIC_RELEASE);
}

#endif
