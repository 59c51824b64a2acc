#include "freelist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "vocab.h"

int strategy_parse(const char *s, enum strategy_kind *kind, uint32_t *nparts)
{
	long n = 1;
	const struct vocab_item *it = vocab_find(&vocab_strategies, s, &n);
	if (!it || vocab_range_error(&vocab_strategies, s))
		return -1;
	*kind = (enum strategy_kind)it->code;
	*nparts = (uint32_t)n;
	return 0;
}

void strategy_name(enum strategy_kind kind, uint32_t nparts, char *out, unsigned len)
{
	if (kind == STRATEGY_PARTITIONED)
		snprintf(out, len, "partitioned:%u", nparts);
	else
		snprintf(out, len, "%s", vocab_name(&vocab_strategies, (int)kind));
}

/* Link a part's buffers: every stride-th first, then the next residue. */
static void link_freelist(struct strategy_part *p, struct buf_desc *descs, uint32_t stride)
{
	int32_t *link = &p->first_free;
	for (uint32_t r = 0; r < stride && r < p->len; r++)
		for (uint32_t b = p->start + r; b < p->start + p->len; b += stride) {
			*link = (int32_t)b;
			link = &descs[b].free_next;
		}
	*link = FREENEXT_END_OF_LIST;
}

void strategy_init(struct strategy_ctl *c, enum strategy_kind kind, uint32_t nparts,
		   uint32_t stride, enum lab_lock_kind lock, struct buf_desc *descs,
		   uint32_t nbuffers)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->nparts = nparts;
	c->stride = stride ? stride : 1;
	for (uint32_t i = 0; i < nparts; i++) {
		struct strategy_part *p = &c->part[i];
		lab_lock_init(&p->lock, lock);
		p->start = (uint32_t)((uint64_t)nbuffers * i / nparts);
		p->len = (uint32_t)((uint64_t)nbuffers * (i + 1) / nparts) - p->start;
		if (kind == STRATEGY_PG19)
			p->first_free = FREENEXT_END_OF_LIST;
		else
			link_freelist(p, descs, c->stride);
		for (uint32_t b = p->start; b < p->start + p->len; b++)
			if (kind == STRATEGY_PG19)
				descs[b].free_next = FREENEXT_NOT_IN_LIST;
	}
}

/*
 * Called with the part's lock held, when its freelist has just run dry (or,
 * for pg19, its hand has completed its first pass).  The last part to fill
 * stamps the time; an empty part (more parts than buffers) never counts.
 */
static void part_filled(struct strategy_ctl *c, struct strategy_part *p)
{
	if (p->filled)
		return;
	p->filled = 1;
	uint32_t nonempty = 0;
	for (uint32_t i = 0; i < c->nparts; i++)
		nonempty += c->part[i].len > 0;
	if (__atomic_add_fetch(&c->parts_filled, 1, __ATOMIC_ACQ_REL) == nonempty)
		__atomic_store_n(&c->fill_ns, clock_ns(), __ATOMIC_RELEASE);
}

/*
 * touch-before-lock (docs/mitigations.md): read the descriptor at the
 * freelist's head before taking the lock, so that this process's first
 * touch of its page, and the fault that comes with it, happens while
 * nobody waits on us.  The read is racy on purpose: the head may be popped
 * by another backend between this read and our acquire, and then we pop
 * its successor, whose page is almost always the same one (or within the
 * fault-around window of it).  Nothing is decided on the value read; a
 * stale or torn value costs at most the fault we meant to avoid.  The
 * loads are atomic only so that the compiler keeps them.
 */
static void touch_head(struct strategy_part *p, struct buf_desc *descs)
{
	int32_t head = __atomic_load_n(&p->first_free, __ATOMIC_RELAXED);
	if (head >= 0)
		(void)__atomic_load_n(&descs[head].free_next, __ATOMIC_RELAXED);
}

/*
 * Pop from the freelist under the lock.  A buffer on the freelist can have
 * been pinned since it was put there (a hit through a stale lookup), so
 * each candidate is checked under its header lock, outside the strategy
 * lock, and skipped if in use.
 */
static int32_t pop_free(struct strategy_ctl *c, struct strategy_part *p, struct buf_desc *descs,
			struct lock_ctx *lc, int hold_lock, uint32_t *state)
{
	/* An unlocked peek: once the freelist is empty it stays cheap. */
	while (__atomic_load_n(&p->first_free, __ATOMIC_RELAXED) >= 0) {
		if (!hold_lock) {
			if (c->touch_before_lock)
				touch_head(p, descs);
			lab_lock_acquire(&p->lock, lc);
		}
		int32_t id = p->first_free;
		if (id >= 0) {
			/* Touches the descriptor with the lock held. */
			p->first_free = descs[id].free_next;
			descs[id].free_next = FREENEXT_NOT_IN_LIST;
			if (p->first_free < 0)
				part_filled(c, p);
		}
		if (!hold_lock)
			lab_lock_release(&p->lock, lc);
		if (id < 0)
			break;
		uint32_t s = buf_hdr_lock(&descs[id]);
		if (BUF_REFCOUNT(s) == 0 && BUF_USAGECOUNT(s) == 0) {
			*state = s;
			return id;
		}
		buf_hdr_unlock(&descs[id], s);
	}
	return -1;
}

/* Advance the hand; the backend that wraps it counts the pass, under the lock. */
static uint32_t clock_tick(struct strategy_ctl *c, struct strategy_part *p, struct lock_ctx *lc,
			   int hold_lock)
{
	uint32_t victim = __atomic_fetch_add(&p->next_victim, 1, __ATOMIC_RELAXED);
	if (victim >= p->len) {
		uint32_t original = victim;
		victim %= p->len;
		if (victim == 0) {
			uint32_t expected = original + 1;
			if (!hold_lock)
				lab_lock_acquire(&p->lock, lc);
			/* Others may have ticked meanwhile: keep their advance. */
			while (!__atomic_compare_exchange_n(&p->next_victim, &expected,
							    expected % p->len, false,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
				;
			p->complete_passes++;
			if (c->kind == STRATEGY_PG19)
				part_filled(c, p);
			if (!hold_lock)
				lab_lock_release(&p->lock, lc);
		}
	}
	return p->start + victim;
}

static int32_t clock_sweep(struct strategy_ctl *c, struct strategy_part *p, struct buf_desc *descs,
			   struct lock_ctx *lc, int hold_lock, uint32_t *state)
{
	uint32_t tries = p->len;
	while (tries > 0) {
		uint32_t id = clock_tick(c, p, lc, hold_lock);
		struct buf_desc *d = &descs[id];
		uint32_t s = buf_hdr_lock(d);
		if (BUF_REFCOUNT(s) == 0) {
			if (BUF_USAGECOUNT(s) == 0) {
				*state = s;
				return (int32_t)id;
			}
			/* Someone used it recently: one more round of grace. */
			s -= BUF_USAGECOUNT_ONE;
			tries = p->len;
		} else {
			tries--;
		}
		buf_hdr_unlock(d, s);
	}
	return -1;
}

static int32_t get_from_part(struct strategy_ctl *c, struct strategy_part *p,
			     struct buf_desc *descs, struct lock_ctx *lc, uint32_t *state)
{
	int hold = c->kind == STRATEGY_GLOBAL;
	int32_t id;

	if (p->len == 0)
		return -1;
	__atomic_fetch_add(&p->allocs, 1, __ATOMIC_RELAXED);
	if (hold && c->touch_before_lock)
		touch_head(p, descs);
	if (hold)
		lab_lock_acquire(&p->lock, lc);
	/* pg19's freelist is always empty: its unlocked peek costs one load. */
	id = pop_free(c, p, descs, lc, hold, state);
	if (id < 0)
		id = clock_sweep(c, p, descs, lc, hold, state);
	if (hold)
		lab_lock_release(&p->lock, lc);
	return id;
}

int32_t strategy_get_buffer(struct strategy_ctl *c, struct buf_desc *descs, struct lock_ctx *lc,
			    uint32_t home, uint32_t *state)
{
	for (uint32_t i = 0; i < c->nparts; i++) {
		int32_t id = get_from_part(c, &c->part[(home + i) % c->nparts], descs, lc, state);
		if (id >= 0)
			return id;
	}
	return -1;
}

uint32_t strategy_complete_passes(struct strategy_ctl *c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->nparts; i++)
		n += c->part[i].complete_passes;
	return n;
}
