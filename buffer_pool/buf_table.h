/*
 * The buffer mapping table: block number -> buffer id, a hash table split
 * into partitions that each have their own lock, as PostgreSQL's
 * BufferMapping LWLock tranche.  Lookups take the partition lock shared,
 * insertions and deletions exclusive.  The lock is a process-shared
 * pthread rwlock: like an LWLock, its waiters sleep.
 *
 * Capacity.  The entries form one pool of nbuffers + MAPPING_PARTITIONS,
 * as PostgreSQL sizes its table (NBuffers + NUM_BUFFER_PARTITIONS): at
 * most nbuffers blocks are mapped at once, and a replacement inserts the
 * new mapping before it deletes the old one, which can happen in every
 * partition at the same instant but only once per partition, since both
 * happen under that partition's exclusive lock.  So the table cannot run
 * out.  A fixed share per partition could: which blocks are resident, and
 * so how many entries a partition holds, is not bounded by its mean.
 *
 * Free entries sit on per-partition lock-free stacks (PostgreSQL keeps
 * per-freelist spinlocks for the same reason: misses in different
 * partitions should not meet on one cache line); an entry freed by a
 * delete goes to that partition's stack, and an insert whose own stack is
 * empty borrows from the next partition that has one.  The stacks are
 * never touched under another partition's lock, so borrowing cannot
 * deadlock with the lock order of two-partition replacements.
 */
#ifndef PREEMPTLAB_BUF_TABLE_H
#define PREEMPTLAB_BUF_TABLE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstats.h"

#define MAPPING_PARTITIONS 128

struct buf_table_part {
	_Alignas(64) pthread_rwlock_t lock;
	/* Free-entry stack: low 32 bits index + 1 (0: empty), high 32 bits a
	 * version that every push and pop advances, so a pop that read a
	 * stale successor fails its compare-and-swap (ABA). */
	uint64_t free_top;
	uint32_t nbuckets;	/* power of two */
	uint32_t used;		/* entries in this partition's chains */
	size_t buckets_off;	/* from the table's base */
};

struct buf_table {
	uint32_t npart;
	uint32_t nentries;	/* nbuffers + MAPPING_PARTITIONS */
	size_t entries_off;	/* from the table's base */
	struct buf_table_part part[MAPPING_PARTITIONS];
};

/* Bytes needed for a table that maps nbuffers buffers. */
size_t buf_table_size(uint32_t nbuffers);
void buf_table_init(struct buf_table *t, uint32_t nbuffers);

static inline uint32_t buf_table_hash(uint32_t tag)
{
	/* Murmur3's finalizer: consecutive blocks land in different partitions. */
	uint32_t h = tag;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static inline uint32_t buf_table_partition(uint32_t hash)
{
	return hash % MAPPING_PARTITIONS;
}

/* Partition lock, timed into stats when stats is not NULL; returns the
 * time it was acquired, to be handed to buf_table_unlock. */
uint64_t buf_table_lock_shared(struct buf_table *t, uint32_t part, struct lockstats *stats);
uint64_t buf_table_lock_exclusive(struct buf_table *t, uint32_t part, struct lockstats *stats);
void buf_table_unlock(struct buf_table *t, uint32_t part, struct lockstats *stats,
		      uint64_t t_acquired);

/* The caller holds the partition lock (exclusive for insert/delete). */
int32_t buf_table_lookup(struct buf_table *t, uint32_t hash, uint32_t tag);
/* Returns -1 if inserted, else the buffer id already mapped for tag; -2
 * when no entry is free, which the sizing above rules out unless a caller
 * breaks the insert-then-delete contract. */
int32_t buf_table_insert(struct buf_table *t, uint32_t hash, uint32_t tag, int32_t buf_id);
void buf_table_delete(struct buf_table *t, uint32_t hash, uint32_t tag);

/* Entries in use over all partitions; read when nobody modifies the table. */
uint32_t buf_table_entries_used(const struct buf_table *t);

#endif
