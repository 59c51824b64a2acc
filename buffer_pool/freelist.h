/*
 * StrategyGetBuffer: choosing a victim buffer for a miss.
 *
 * A victim comes from the freelist while it lasts (every buffer starts
 * there), then from the clock sweep: a hand moves round the buffers,
 * decrementing usage counts, and stops at the first unpinned buffer whose
 * usage count is zero.  How much of that happens under the one strategy
 * lock is the switch this lab turns:
 *
 *   pg             as PostgreSQL 15-18: freelist pops and the hand's
 *                  wrap-around (the pass counter) under the lock; the sweep
 *                  itself advances the hand with an atomic increment.
 *   global         the whole victim search under the lock, so every
 *                  descriptor the sweep touches is touched lock held.
 *   partitioned:N  N independent freelists, hands and locks over disjoint
 *                  ranges of buffers; a backend starts in its own and moves
 *                  on when that one is exhausted.  No global lock: the
 *                  cure-by-design control.
 *   pg19           as PostgreSQL 19 (commit 2c789405275): no freelist at
 *                  all; the sweep starts at once and the lock is taken only
 *                  by the backend whose tick wraps the hand.  The control
 *                  that shows whether 19 is immune to faults under the lock.
 *
 * The pool "fills" once: from the start until every buffer has been handed
 * out for the first time.  For the freelist strategies that is the moment
 * the freelist is first empty (in every part); for pg19, the end of the
 * hand's first pass.  The fill phase is where the report's mechanism lives:
 * each pop touches a descriptor nobody in this process has touched, so a
 * backend's first touch of a descriptor page faults with the lock held.
 *
 * The freelist's initial order is a knob (the stride): PostgreSQL links
 * buffers 0, 1, 2, ... so that on a few CPUs one backend pops a run of
 * consecutive descriptors within a time slice and faults on a page only
 * once per 64 pops.  With 1024 backends on 96 CPUs, consecutive pops go to
 * different processes, each faulting for itself.  A stride of N links
 * every Nth descriptor first (0, N, 2N, ..., then 1, N+1, ...), so that
 * consecutive pops land on different descriptor pages: the page-touch
 * pattern of many concurrent backends, reproduced on few CPUs.
 *
 * The caller gets the victim with its header locked, as in PostgreSQL,
 * so nobody can pin it between the choice and the caller's pin.
 */
#ifndef PREEMPTLAB_FREELIST_H
#define PREEMPTLAB_FREELIST_H

#include <stdint.h>

#include "buf_desc.h"
#include "lab_lock.h"

enum strategy_kind { STRATEGY_PG, STRATEGY_GLOBAL, STRATEGY_PARTITIONED, STRATEGY_PG19 };

#define MAX_STRATEGY_PARTS 64

struct strategy_part {
	struct lab_lock lock;
	_Alignas(64) uint32_t next_victim;	/* atomic; may run past len until wrapped */
	int32_t first_free;			/* under lock */
	uint32_t complete_passes;		/* under lock */
	uint32_t start, len;			/* the buffers this part owns */
	uint64_t allocs;			/* atomic */
	int filled;				/* under lock: this part's fill is over */
};

struct strategy_ctl {
	enum strategy_kind kind;
	uint32_t nparts;
	uint32_t stride;
	int touch_before_lock;			/* the mitigation (freelist.c); set once, before fork */
	/* Written once, read by every backend each transaction: its own line. */
	_Alignas(64) uint64_t fill_ns;		/* atomic; CLOCK_MONOTONIC; 0 until filled */
	uint32_t parts_filled;			/* atomic */
	_Alignas(64) struct strategy_part part[MAX_STRATEGY_PARTS];
};

/* "pg", "global", "partitioned:N", "pg19"; returns -1 on anything else. */
int strategy_parse(const char *s, enum strategy_kind *kind, uint32_t *nparts);
/* Writes e.g. "partitioned:8". */
void strategy_name(enum strategy_kind kind, uint32_t nparts, char *out, unsigned len);

/*
 * Puts every buffer on the freelist (none for pg19) in stride order
 * (0 or 1: PostgreSQL's); descs must be initialised.
 */
void strategy_init(struct strategy_ctl *c, enum strategy_kind kind, uint32_t nparts,
		   uint32_t stride, enum lab_lock_kind lock, struct buf_desc *descs,
		   uint32_t nbuffers);

/* When the pool finished filling (CLOCK_MONOTONIC ns), or 0 while it fills. */
static inline uint64_t strategy_fill_ns(const struct strategy_ctl *c)
{
	return __atomic_load_n(&c->fill_ns, __ATOMIC_ACQUIRE);
}

/*
 * A victim buffer, returned with its header locked and its state in
 * *state; or -1 when every buffer is pinned ("no unpinned buffers
 * available" in PostgreSQL), never a hang.
 */
int32_t strategy_get_buffer(struct strategy_ctl *c, struct buf_desc *descs, struct lock_ctx *lc,
			    uint32_t home, uint32_t *state);

/* Sum of completed passes of every hand (for tests and reports). */
uint32_t strategy_complete_passes(struct strategy_ctl *c);

#endif
