#include "buf_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

struct buf_table_entry {
	uint32_t tag;
	int32_t buf_id;
	int32_t next;		/* chain link, under the partition lock */
	int32_t free_next;	/* stack link, atomic: a stale pop may read it */
};

static size_t align64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

/* Chains of about one entry: the bucket count the table always had. */
static uint32_t part_buckets(uint32_t nbuffers)
{
	return pow2_at_least((nbuffers / MAPPING_PARTITIONS) * 2 + 32);
}

static uint32_t table_entries(uint32_t nbuffers)
{
	return nbuffers + MAPPING_PARTITIONS;
}

size_t buf_table_size(uint32_t nbuffers)
{
	return align64(sizeof(struct buf_table)) +
	       align64(part_buckets(nbuffers) * sizeof(int32_t)) * MAPPING_PARTITIONS +
	       align64(table_entries(nbuffers) * sizeof(struct buf_table_entry));
}

static int32_t *buckets(struct buf_table *t, struct buf_table_part *p)
{
	return (int32_t *)((char *)t + p->buckets_off);
}

static struct buf_table_entry *entries(struct buf_table *t)
{
	return (struct buf_table_entry *)((char *)t + t->entries_off);
}

static void free_push(struct buf_table *t, struct buf_table_part *p, int32_t n)
{
	struct buf_table_entry *e = entries(t);
	uint64_t top = __atomic_load_n(&p->free_top, __ATOMIC_RELAXED);
	uint64_t next;
	do {
		__atomic_store_n(&e[n].free_next, (int32_t)(uint32_t)top - 1, __ATOMIC_RELAXED);
		next = ((top >> 32) + 1) << 32 | (uint32_t)(n + 1);
	} while (!__atomic_compare_exchange_n(&p->free_top, &top, next, 1, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
}

static int32_t free_pop(struct buf_table *t, struct buf_table_part *p)
{
	struct buf_table_entry *e = entries(t);
	uint64_t top = __atomic_load_n(&p->free_top, __ATOMIC_ACQUIRE);
	uint64_t next;
	int32_t n;
	do {
		if ((uint32_t)top == 0)
			return -1;
		n = (int32_t)(uint32_t)top - 1;
		int32_t succ = __atomic_load_n(&e[n].free_next, __ATOMIC_RELAXED);
		next = ((top >> 32) + 1) << 32 | (uint32_t)(succ + 1);
	} while (!__atomic_compare_exchange_n(&p->free_top, &top, next, 1, __ATOMIC_ACQUIRE,
					      __ATOMIC_ACQUIRE));
	return n;
}

/* This partition's free entry, or one borrowed from the next that has one. */
static int32_t alloc_entry(struct buf_table *t, uint32_t part)
{
	for (uint32_t i = 0; i < MAPPING_PARTITIONS; i++) {
		int32_t n = free_pop(t, &t->part[(part + i) % MAPPING_PARTITIONS]);
		if (n >= 0)
			return n;
	}
	return -1;
}

void buf_table_init(struct buf_table *t, uint32_t nbuffers)
{
	uint32_t nb = part_buckets(nbuffers);
	size_t off = align64(sizeof(struct buf_table));
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	t->npart = MAPPING_PARTITIONS;
	t->nentries = table_entries(nbuffers);
	for (uint32_t i = 0; i < MAPPING_PARTITIONS; i++) {
		struct buf_table_part *p = &t->part[i];
		pthread_rwlock_init(&p->lock, &attr);
		p->nbuckets = nb;
		p->used = 0;
		p->free_top = 0;
		p->buckets_off = off;
		off += align64(nb * sizeof(int32_t));
		for (uint32_t b = 0; b < nb; b++)
			buckets(t, p)[b] = -1;
	}
	t->entries_off = off;
	/* Each partition starts with its share as one run of entries, so that
	 * chains under different partition locks rarely share a cache line. */
	uint32_t share = (t->nentries + MAPPING_PARTITIONS - 1) / MAPPING_PARTITIONS;
	for (uint32_t e = t->nentries; e-- > 0;)
		free_push(t, &t->part[e / share], (int32_t)e);
	pthread_rwlockattr_destroy(&attr);
}

uint32_t buf_table_entries_used(const struct buf_table *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < MAPPING_PARTITIONS; i++)
		n += t->part[i].used;
	return n;
}

static uint64_t timed_lock(pthread_rwlock_t *l, int exclusive, struct lockstats *s)
{
	int busy = exclusive ? pthread_rwlock_trywrlock(l) : pthread_rwlock_tryrdlock(l);
	if (!busy) {
		if (s)
			s->acquisitions++;
		return s ? clock_ns() : 0;
	}
	uint64_t t0 = s ? clock_ns() : 0;
	int rc = exclusive ? pthread_rwlock_wrlock(l) : pthread_rwlock_rdlock(l);
	if (rc != 0) {
		/* Going on unlocked would corrupt the chains silently. */
		fprintf(stderr, "bufbench: buffer mapping lock: %s\n", strerror(rc));
		abort();
	}
	if (!s)
		return 0;
	uint64_t t1 = clock_ns();
	s->acquisitions++;
	s->contended++;
	s->sleeps++;
	s->wait_ns += t1 - t0;
	s->wait_hist[lockstats_bucket(t1 - t0)]++;
	if (t1 - t0 > s->max_wait_ns)
		s->max_wait_ns = t1 - t0;
	return t1;
}

uint64_t buf_table_lock_shared(struct buf_table *t, uint32_t part, struct lockstats *s)
{
	return timed_lock(&t->part[part].lock, 0, s);
}

uint64_t buf_table_lock_exclusive(struct buf_table *t, uint32_t part, struct lockstats *s)
{
	return timed_lock(&t->part[part].lock, 1, s);
}

void buf_table_unlock(struct buf_table *t, uint32_t part, struct lockstats *s,
		      uint64_t t_acquired)
{
	if (s) {
		uint64_t held = clock_ns() - t_acquired;
		s->hold_ns += held;
		s->hold_hist[lockstats_bucket(held)]++;
		if (held > s->max_hold_ns)
			s->max_hold_ns = held;
	}
	pthread_rwlock_unlock(&t->part[part].lock);
}

int32_t buf_table_lookup(struct buf_table *t, uint32_t hash, uint32_t tag)
{
	struct buf_table_part *p = &t->part[buf_table_partition(hash)];
	struct buf_table_entry *e = entries(t);
	for (int32_t i = buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)]; i >= 0;
	     i = e[i].next)
		if (e[i].tag == tag)
			return e[i].buf_id;
	return -1;
}

int32_t buf_table_insert(struct buf_table *t, uint32_t hash, uint32_t tag, int32_t buf_id)
{
	struct buf_table_part *p = &t->part[buf_table_partition(hash)];
	struct buf_table_entry *e = entries(t);
	int32_t *head = &buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)];

	for (int32_t i = *head; i >= 0; i = e[i].next)
		if (e[i].tag == tag)
			return e[i].buf_id;
	int32_t n = alloc_entry(t, buf_table_partition(hash));
	if (n < 0)
		return -2;
	e[n].tag = tag;
	e[n].buf_id = buf_id;
	e[n].next = *head;
	*head = n;
	p->used++;
	return -1;
}

void buf_table_delete(struct buf_table *t, uint32_t hash, uint32_t tag)
{
	struct buf_table_part *p = &t->part[buf_table_partition(hash)];
	struct buf_table_entry *e = entries(t);
	int32_t *link = &buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)];

	while (*link >= 0) {
		int32_t i = *link;
		if (e[i].tag == tag) {
			*link = e[i].next;
			p->used--;
			free_push(t, p, i);
			return;
		}
		link = &e[i].next;
	}
}
