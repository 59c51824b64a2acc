#include "buf_table.h"

#include "clock.h"

struct buf_table_entry {
	uint32_t tag;
	int32_t buf_id;
	int32_t next;
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

static uint32_t part_capacity(uint32_t nbuffers)
{
	/* Twice the mean plus a margin: see the header. */
	return (nbuffers / MAPPING_PARTITIONS) * 2 + 32;
}

size_t buf_table_size(uint32_t nbuffers)
{
	uint32_t cap = part_capacity(nbuffers);
	size_t per_part = align64(pow2_at_least(cap) * sizeof(int32_t)) +
			  align64(cap * sizeof(struct buf_table_entry));
	return align64(sizeof(struct buf_table)) + per_part * MAPPING_PARTITIONS;
}

static int32_t *buckets(struct buf_table *t, struct buf_table_part *p)
{
	return (int32_t *)((char *)t + p->buckets_off);
}

static struct buf_table_entry *entries(struct buf_table *t, struct buf_table_part *p)
{
	return (struct buf_table_entry *)((char *)t + p->entries_off);
}

void buf_table_init(struct buf_table *t, uint32_t nbuffers)
{
	uint32_t cap = part_capacity(nbuffers);
	uint32_t nb = pow2_at_least(cap);
	size_t off = align64(sizeof(struct buf_table));
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	t->npart = MAPPING_PARTITIONS;
	for (uint32_t i = 0; i < MAPPING_PARTITIONS; i++) {
		struct buf_table_part *p = &t->part[i];
		pthread_rwlock_init(&p->lock, &attr);
		p->nbuckets = nb;
		p->nentries = cap;
		p->used = 0;
		p->buckets_off = off;
		off += align64(nb * sizeof(int32_t));
		p->entries_off = off;
		off += align64(cap * sizeof(struct buf_table_entry));
		for (uint32_t b = 0; b < nb; b++)
			buckets(t, p)[b] = -1;
		for (uint32_t e = 0; e < cap; e++)
			entries(t, p)[e].next = e + 1 < cap ? (int32_t)(e + 1) : -1;
		p->free_head = 0;
	}
	pthread_rwlockattr_destroy(&attr);
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
	if (exclusive)
		pthread_rwlock_wrlock(l);
	else
		pthread_rwlock_rdlock(l);
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
	struct buf_table_entry *e = entries(t, p);
	for (int32_t i = buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)]; i >= 0;
	     i = e[i].next)
		if (e[i].tag == tag)
			return e[i].buf_id;
	return -1;
}

int32_t buf_table_insert(struct buf_table *t, uint32_t hash, uint32_t tag, int32_t buf_id)
{
	struct buf_table_part *p = &t->part[buf_table_partition(hash)];
	struct buf_table_entry *e = entries(t, p);
	int32_t *head = &buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)];

	for (int32_t i = *head; i >= 0; i = e[i].next)
		if (e[i].tag == tag)
			return e[i].buf_id;
	if (p->free_head < 0)
		return -2;
	int32_t n = p->free_head;
	p->free_head = e[n].next;
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
	struct buf_table_entry *e = entries(t, p);
	int32_t *link = &buckets(t, p)[(hash / MAPPING_PARTITIONS) & (p->nbuckets - 1)];

	while (*link >= 0) {
		int32_t i = *link;
		if (e[i].tag == tag) {
			*link = e[i].next;
			e[i].next = p->free_head;
			p->free_head = i;
			p->used--;
			return;
		}
		link = &e[i].next;
	}
}
