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
 *
 * The caller gets the victim with its header locked, as in PostgreSQL,
 * so nobody can pin it between the choice and the caller's pin.
 */
#ifndef PREEMPTLAB_FREELIST_H
#define PREEMPTLAB_FREELIST_H

#include <stdint.h>

#include "buf_desc.h"
#include "lab_lock.h"

enum strategy_kind { STRATEGY_PG, STRATEGY_GLOBAL, STRATEGY_PARTITIONED };

#define MAX_STRATEGY_PARTS 64

struct strategy_part {
	struct lab_lock lock;
	_Alignas(64) uint32_t next_victim;	/* atomic; may run past len until wrapped */
	int32_t first_free;			/* under lock */
	uint32_t complete_passes;		/* under lock */
	uint32_t start, len;			/* the buffers this part owns */
	uint64_t allocs;			/* atomic */
};

struct strategy_ctl {
	enum strategy_kind kind;
	uint32_t nparts;
	struct strategy_part part[MAX_STRATEGY_PARTS];
};

/* "pg", "global", "partitioned:N"; returns -1 on anything else. */
int strategy_parse(const char *s, enum strategy_kind *kind, uint32_t *nparts);
/* Writes e.g. "partitioned:8". */
void strategy_name(enum strategy_kind kind, uint32_t nparts, char *out, unsigned len);

/* Puts every buffer on the freelist; descs must be initialised. */
void strategy_init(struct strategy_ctl *c, enum strategy_kind kind, uint32_t nparts,
		   enum lab_lock_kind lock, struct buf_desc *descs, uint32_t nbuffers);

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
