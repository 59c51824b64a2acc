#include "bufmgr.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spin_delay.h"

void backend_attach(struct backend *b, struct pool *p, uint32_t id, bool instrument)
{
	memset(b, 0, sizeof(*b));
	b->pool = p;
	b->id = id;
	b->st = &p->stats[id];
	b->strategy_lock.stats = instrument ? &b->st->strategy : NULL;
	b->strategy_lock.mcs_nodes = p->mcs;
	b->strategy_lock.backend = id;
	b->strategy_lock.name = "strategy lock";
	b->mapping_stats = instrument ? &b->st->mapping : NULL;
}

static uint32_t wait_hdr_unlocked(struct buf_desc *d)
{
	uint32_t s;
	while ((s = __atomic_load_n(&d->state, __ATOMIC_RELAXED)) & BM_LOCKED)
		spin_delay();
	return s;
}

void pin_buffer(struct buf_desc *d)
{
	uint32_t old = wait_hdr_unlocked(d);
	for (;;) {
		if (old & BM_LOCKED) {
			old = wait_hdr_unlocked(d);
			continue;
		}
		uint32_t new = old + BUF_REFCOUNT_ONE;
		if (BUF_USAGECOUNT(old) < BM_MAX_USAGE_COUNT)
			new += BUF_USAGECOUNT_ONE;
		if (__atomic_compare_exchange_n(&d->state, &old, new, true, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
}

void unpin_buffer(struct buf_desc *d)
{
	uint32_t old = wait_hdr_unlocked(d);
	for (;;) {
		if (old & BM_LOCKED) {
			old = wait_hdr_unlocked(d);
			continue;
		}
		if (__atomic_compare_exchange_n(&d->state, &old, old - BUF_REFCOUNT_ONE, true,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
	}
}

void buffer_lock_content(struct backend *b, int32_t buf_id)
{
	struct lock_wait w = { 0, 0, 0 };
	futex_lock_acquire(&b->pool->descs[buf_id].content_lock, &w);
}

void buffer_unlock_content(struct backend *b, int32_t buf_id)
{
	futex_lock_release(&b->pool->descs[buf_id].content_lock);
}

void mark_buffer_dirty(struct backend *b, int32_t buf_id)
{
	struct buf_desc *d = &b->pool->descs[buf_id];
	uint32_t s = buf_hdr_lock(d);
	buf_hdr_unlock(d, s | BM_DIRTY);
}

/* Another backend is reading the block in: wait for it to finish. */
static void wait_io(struct buf_desc *d)
{
	while (!(__atomic_load_n(&d->state, __ATOMIC_ACQUIRE) & BM_VALID))
		sched_yield();
}

static void flush_buffer(struct backend *b, int32_t id)
{
	struct pool *p = b->pool;
	struct buf_desc *d = &p->descs[id];

	buffer_lock_content(b, id);
	uint32_t s = buf_hdr_lock(d);
	uint32_t tag = d->tag;
	buf_hdr_unlock(d, s & ~BM_DIRTY);
	if (pwrite(p->ctl->relation_fd, pool_page(p, id), BLCKSZ, (off_t)tag * BLCKSZ) != BLCKSZ) {
		fprintf(stderr, "bufbench: write of block %u failed: %s\n", tag, strerror(errno));
		exit(1);
	}
	buffer_unlock_content(b, id);
	b->st->writes++;
}

static void lock_two(struct backend *b, uint32_t p1, uint32_t p2, uint64_t *t1, uint64_t *t2)
{
	struct buf_table *t = b->pool->table;
	/* In partition order, as PostgreSQL does, so two evictors never deadlock. */
	if (p1 == p2) {
		*t1 = buf_table_lock_exclusive(t, p1, b->mapping_stats);
	} else if (p1 < p2) {
		*t1 = buf_table_lock_exclusive(t, p1, b->mapping_stats);
		*t2 = buf_table_lock_exclusive(t, p2, b->mapping_stats);
	} else {
		*t2 = buf_table_lock_exclusive(t, p2, b->mapping_stats);
		*t1 = buf_table_lock_exclusive(t, p1, b->mapping_stats);
	}
}

static void unlock_two(struct backend *b, uint32_t p1, uint32_t p2, uint64_t t1, uint64_t t2)
{
	struct buf_table *t = b->pool->table;
	if (p1 != p2)
		buf_table_unlock(t, p2, b->mapping_stats, t2);
	buf_table_unlock(t, p1, b->mapping_stats, t1);
}

int32_t read_buffer(struct backend *b, uint32_t block, bool *hit)
{
	struct pool *p = b->pool;
	struct buf_table *t = p->table;
	uint32_t hash = buf_table_hash(block), part = buf_table_partition(hash);

	for (;;) {
		uint64_t ta = buf_table_lock_shared(t, part, b->mapping_stats);
		int32_t id = buf_table_lookup(t, hash, block);
		if (id >= 0) {
			pin_buffer(&p->descs[id]);
			buf_table_unlock(t, part, b->mapping_stats, ta);
			wait_io(&p->descs[id]);
			*hit = true;
			b->st->hits++;
			return id;
		}
		buf_table_unlock(t, part, b->mapping_stats, ta);

		uint32_t s;
		int32_t victim = strategy_get_buffer(&p->ctl->strategy, p->descs, &b->strategy_lock,
						     b->id, &s);
		if (victim < 0)
			return -1;
		struct buf_desc *d = &p->descs[victim];
		buf_hdr_unlock(d, s + BUF_REFCOUNT_ONE);
		if (s & BM_DIRTY)
			flush_buffer(b, victim);

		uint32_t old_tag = d->tag;
		int old_valid = (s & BM_TAG_VALID) != 0;
		uint32_t old_hash = buf_table_hash(old_tag);
		uint32_t old_part = old_valid ? buf_table_partition(old_hash) : part;
		uint64_t t1 = 0, t2 = 0;

		lock_two(b, part, old_part, &t1, &t2);
		int32_t other = buf_table_insert(t, hash, block, victim);
		if (other == -2) {
			unlock_two(b, part, old_part, t1, t2);
			unpin_buffer(d);
			return -2;
		}
		if (other >= 0) {
			/* Someone else read the block in meanwhile: use theirs. */
			pin_buffer(&p->descs[other]);
			unlock_two(b, part, old_part, t1, t2);
			unpin_buffer(d);
			wait_io(&p->descs[other]);
			*hit = true;
			b->st->hits++;
			return other;
		}
		s = buf_hdr_lock(d);
		if (BUF_REFCOUNT(s) != 1 || (s & BM_DIRTY)) {
			/* Pinned or dirtied through its old mapping: find another. */
			buf_hdr_unlock(d, s);
			buf_table_delete(t, hash, block);
			unlock_two(b, part, old_part, t1, t2);
			unpin_buffer(d);
			continue;
		}
		if (old_valid) {
			buf_table_delete(t, old_hash, old_tag);
			b->st->evictions++;
		}
		d->tag = block;
		s &= ~(BM_VALID | BM_DIRTY | BUF_USAGECOUNT_MASK);
		buf_hdr_unlock(d, s | BM_TAG_VALID | BM_IO_IN_PROGRESS | BUF_USAGECOUNT_ONE);
		unlock_two(b, part, old_part, t1, t2);

		/* First touch of the block's pages by this process happens here. */
		if (pread(p->ctl->relation_fd, pool_page(p, victim), BLCKSZ,
			  (off_t)block * BLCKSZ) != BLCKSZ) {
			fprintf(stderr, "bufbench: read of block %u failed: %s\n", block,
				strerror(errno));
			exit(1);
		}
		s = buf_hdr_lock(d);
		buf_hdr_unlock(d, (s & ~BM_IO_IN_PROGRESS) | BM_VALID);
		*hit = false;
		b->st->misses++;
		return victim;
	}
}

void release_buffer(struct backend *b, int32_t buf_id)
{
	unpin_buffer(&b->pool->descs[buf_id]);
}

bool mapping_consistent(struct pool *p, uint32_t *entries, uint32_t *tagged)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->ctl->cfg.nbuffers; i++) {
		const struct buf_desc *d = &p->descs[i];
		if (!(d->state & BM_TAG_VALID))
			continue;
		n++;
		if (buf_table_lookup(p->table, buf_table_hash(d->tag), d->tag) != (int32_t)i)
			break;
	}
	*tagged = n;
	*entries = buf_table_entries_used(p->table);
	return *entries == n;
}
