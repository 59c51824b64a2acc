/*
 * ReadBuffer / ReleaseBuffer for one backend process.
 *
 * A hit pins the buffer found through the mapping table (bumping its usage
 * count).  A miss asks the strategy for a victim, writes it out if dirty,
 * moves its mapping from the old block to the new one under both mapping
 * partition locks, and reads the new block from the relation file.  Reads
 * and writes are pread/pwrite on a memory file: like PostgreSQL reading
 * through the OS page cache, a miss costs a system call and a copy.
 */
#ifndef PREEMPTLAB_BUFMGR_H
#define PREEMPTLAB_BUFMGR_H

#include <stdbool.h>
#include <stdint.h>

#include "pool.h"

struct backend {
	struct pool *pool;
	uint32_t id;
	struct backend_stats *st;
	struct lock_ctx strategy_lock;
	struct lockstats *mapping_stats;	/* NULL when uninstrumented */
};

/* Prepare this process to act as backend id (after fork). */
void backend_attach(struct backend *b, struct pool *p, uint32_t id, bool instrument);

/*
 * Pin the buffer holding block; sets *hit.  Returns the buffer id, or -1
 * when no unpinned buffer could be found (the error PostgreSQL reports as
 * "no unpinned buffers available"), or -2 when the mapping table is full.
 */
int32_t read_buffer(struct backend *b, uint32_t block, bool *hit);
/*
 * With every backend gone: each tagged buffer is found through the mapping
 * table and the table holds nothing else.  A leak here would fill the
 * table however it is sized.
 */
bool mapping_consistent(struct pool *p, uint32_t *entries, uint32_t *tagged);

void release_buffer(struct backend *b, int32_t buf_id);

/* Exclusive access to the page contents (a pin is required). */
void buffer_lock_content(struct backend *b, int32_t buf_id);
void buffer_unlock_content(struct backend *b, int32_t buf_id);
/* The caller holds the content lock. */
void mark_buffer_dirty(struct backend *b, int32_t buf_id);

/* Pin and unpin by descriptor: exported for tests. */
void pin_buffer(struct buf_desc *d);
void unpin_buffer(struct buf_desc *d);

#endif
