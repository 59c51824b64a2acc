/*
 * The layout of the shared segment, in the order PostgreSQL lays out its
 * buffer manager's share of shared memory:
 *
 *   control (config, strategy control, spin estimate, run phase)
 *   buffer descriptors      64 bytes each
 *   buffer mapping table    partitioned hash
 *   per-backend stats (fill phase, then steady phase), MCS nodes and
 *   per-backend timelines
 *   buffer blocks           BLCKSZ each, page aligned
 *
 * Offsets rather than pointers are stored, but since the segment is mapped
 * before fork every process sees it at the same address anyway.
 */
#ifndef PREEMPTLAB_POOL_H
#define PREEMPTLAB_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "buf_desc.h"
#include "buf_table.h"
#include "freelist.h"
#include "lab_lock.h"
#include "stats.h"

#define BLCKSZ 8192

/*
 * PHASE_FORKING holds every client at its start until all are forked:
 * forking a thousand clients takes seconds, and the first ones would
 * otherwise fill the pool before the last exists (and before the run's
 * clock starts).  The parent wakes them with FUTEX_WAKE on phase.
 */
enum run_phase { PHASE_FORKING, PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

/*
 * Transactions per interval of the measured run, per backend (so that
 * counting adds no shared cache line).  The parent picks the interval so
 * that the run fits in TIMELINE_MAX of them.
 */
#define TIMELINE_MAX 600

struct pool_config {
	uint32_t nbuffers;
	uint32_t relation_blocks;
	uint32_t max_backends;
	enum strategy_kind strategy;
	uint32_t strategy_parts;
	enum lab_lock_kind lock;
	int stuck_limit;
	uint32_t freelist_stride;	/* 0 or 1: PostgreSQL's order */
	int touch_before_lock;		/* the mitigation (freelist.c, touch_head) */
	int fixed_spins_per_delay;	/* > 0: tas waits never adapt (spin_shared_fix) */
};

struct pool_ctl {
	struct pool_config cfg;
	struct spin_shared spin;
	int relation_fd;	/* backing store; inherited by fork */
	size_t descs_off, table_off, stats_off, mcs_off, timeline_off, blocks_off;
	int phase;		/* enum run_phase, atomic */
	uint64_t measure_start_ns;	/* set before phase becomes PHASE_MEASURE */
	uint64_t timeline_step_ns;
	struct strategy_ctl strategy;
};

struct pool {
	struct pool_ctl *ctl;
	struct buf_desc *descs;
	struct buf_table *table;
	struct backend_stats *stats;		/* [max_backends]: the fill phase */
	struct backend_stats *stats_steady;	/* [max_backends]: after the fill */
	struct mcs_node *mcs;
	uint32_t *timeline;			/* [max_backends][TIMELINE_MAX] */
	char *blocks;
};

size_t pool_segment_size(const struct pool_config *cfg);

/* Format a zeroed segment of pool_segment_size bytes; fd is the relation. */
void pool_init(struct pool *p, void *base, const struct pool_config *cfg, int relation_fd);

static inline char *pool_page(struct pool *p, int32_t buf_id)
{
	return p->blocks + (size_t)buf_id * BLCKSZ;
}

#endif
