/*
 * Dispatch and instrumentation around the lock implementations.
 *
 * Timing costs two clock reads per acquisition (start of wait, acquired)
 * and one per release; the uncontended fast path skips the first read's
 * use.  bufbench --no-instrument (ctx->stats == NULL) removes all of it so
 * the cost of measuring can itself be measured.
 */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "lab_lock.h"
#include "resilient_lock.h"
#include "rseq_slice.h"
#include "vocab.h"

const char *lab_lock_kind_name(enum lab_lock_kind k)
{
	return vocab_name(&vocab_locks, (int)k);
}

int lab_lock_kind_parse(const char *s, enum lab_lock_kind *out)
{
	const struct vocab_item *it = vocab_find(&vocab_locks, s, NULL);
	if (!it)
		return -1;
	*out = (enum lab_lock_kind)it->code;
	return 0;
}

void lab_lock_init(struct lab_lock *l, enum lab_lock_kind kind)
{
	memset(l, 0, sizeof(*l));
	l->kind = kind;
}

/* Until it has the lock: in a backend's own code a timeout is retried, counted. */
static bool resilient_until_acquired(struct lab_lock *l, struct lock_ctx *c, struct lock_wait *w)
{
	bool late = l->kind == LOCK_RESILIENT_LATE;
	enum resilient_result r;
	while ((r = resilient_acquire(&l->tas, late, &w->spins)) != RES_ACQUIRED)
		if (c->stats) {
			if (r == RES_AA)
				c->stats->aa_detected++;
			else
				c->stats->timeouts++;
		}
	return w->spins > 0;
}

static bool raw_acquire(struct lab_lock *l, struct lock_ctx *c, struct lock_wait *w)
{
	switch (l->kind) {
	case LOCK_RESILIENT:
	case LOCK_RESILIENT_LATE:
		return resilient_until_acquired(l, c, w);
	case LOCK_FUTEX:
		return futex_lock_acquire(&l->futex, w);
	case LOCK_MCS:
		return mcs_acquire(&l->mcs_tail, c->mcs_nodes, c->backend, w);
	case LOCK_RSEQ:
	case LOCK_TAS:
	default:
		return tas_acquire(&l->tas, w, c->name);
	}
}

static void raw_release(struct lab_lock *l, struct lock_ctx *c)
{
	switch (l->kind) {
	case LOCK_RESILIENT:
	case LOCK_RESILIENT_LATE:
		resilient_release(&l->tas);
		break;
	case LOCK_FUTEX:
		futex_lock_release(&l->futex);
		break;
	case LOCK_MCS:
		mcs_release(&l->mcs_tail, c->mcs_nodes, c->backend);
		break;
	case LOCK_RSEQ:
	case LOCK_TAS:
	default:
		tas_release(&l->tas);
		break;
	}
}

void lab_lock_acquire(struct lab_lock *l, struct lock_ctx *c)
{
	struct lock_wait w = { 0, 0, 0 };
	struct lockstats *s = c->stats;

	/* Outside the hold: the window is the wait plus the hold (hold_events.h). */
	if (c->events && !c->events->in_hold)
		hold_events_mark(c->events);
	if (!s) {
		raw_acquire(l, c, &w);
	} else {
		uint64_t t0 = clock_ns();
		bool contended = raw_acquire(l, c, &w);
		uint64_t t1 = clock_ns();

		s->acquisitions++;
		if (contended) {
			uint64_t waited = t1 - t0;
			s->contended++;
			s->spins += w.spins;
			s->sleeps += w.sleeps;
			s->sleep_ns += w.sleep_ns;
			s->wait_ns += waited;
			s->wait_hist[lockstats_bucket(waited)]++;
			if (waited > s->max_wait_ns)
				s->max_wait_ns = waited;
		}
		c->t_acquired = t1;
		if (c->trace) {
			c->trace->cur.wait_ns = contended ? t0 : t1;
			c->trace->cur.acquire_ns = t1;
			c->trace->cur.cpu = sched_getcpu();
		}
	}
	c->wait_sleeps = w.sleeps;
	/* The resilient kinds keep the table themselves, around the exchange. */
	if (l->kind != LOCK_RESILIENT && l->kind != LOCK_RESILIENT_LATE)
		held_push(l);
	/* --hold-events=in-hold only: two system calls inside every hold. */
	if (c->events && c->events->in_hold)
		hold_events_mark(c->events);
	/*
	 * Ask for the extension only once the lock is ours: a waiter that
	 * asked too would be shielded from preemption while it spins.
	 */
	if (l->kind == LOCK_RSEQ)
		rseq_slice_request();
}

/* After the release unless in-hold: what the holder went through. */
static void count_events(struct lock_ctx *c, uint64_t held)
{
	struct lockstats *s = c->stats;
	uint64_t faults = 0, switches = 0;
	hold_events_since(c->events, &faults, &switches);
	/* The window's backoff sleeps each cost a switch that the hold did not. */
	if (!c->events->in_hold)
		switches = switches > c->wait_sleeps ? switches - c->wait_sleeps : 0;
	if (!s)
		return;
	if (faults) {
		s->holds_with_fault++;
		s->fault_hold_ns += held;
	}
	if (switches) {
		s->holds_with_switch++;
		s->switch_hold_ns += held;
		s->switch_hold_hist[lockstats_bucket(held)]++;
	}
}

void lab_lock_release(struct lab_lock *l, struct lock_ctx *c)
{
	struct lockstats *s = c->stats;
	uint64_t held = 0;

	if (c->events && c->events->in_hold)
		count_events(c, s ? clock_ns() - c->t_acquired : 0);
	if (s) {
		held = clock_ns() - c->t_acquired;
		s->hold_ns += held;
		s->hold_hist[lockstats_bucket(held)]++;
		if (held > s->max_hold_ns)
			s->max_hold_ns = held;
		if (c->trace)
			c->trace->cur.release_ns = c->t_acquired + held;
	}
	raw_release(l, c);
	if (l->kind != LOCK_RESILIENT && l->kind != LOCK_RESILIENT_LATE)
		held_pop();
	/*
	 * The record is filed after the release: the ring's next slot may lie
	 * on a page this process has not touched yet, and a first touch is a
	 * page fault, which must not happen inside the hold.
	 */
	if (s && c->trace)
		hold_ring_push(c->trace, &c->trace->cur);
	if (c->events && !c->events->in_hold)
		count_events(c, held);
	if (l->kind == LOCK_RSEQ) {
		enum rseq_slice_outcome o = rseq_slice_withdraw();
		if (o == SLICE_GRANTED) {
			/* The kernel let us finish; hand the CPU back now. */
			bool in_time = rseq_slice_yield();
			if (s) {
				s->rseq_grants++;
				s->rseq_yields += in_time;
			}
		} else if (o == SLICE_REVOKED && s) {
			s->rseq_revoked++;
		}
	}
}

enum reentry lab_lock_reentrant(struct lab_lock *l, struct lock_ctx *c, uint64_t *stall_ns)
{
	uint64_t t0 = clock_ns(), spins = 0;
	enum reentry r = REENTRY_ACQUIRED;
	struct lock_wait w = { 0, 0, 0 };

	switch (l->kind) {
	case LOCK_RESILIENT:
	case LOCK_RESILIENT_LATE: {
		enum resilient_result q = resilient_acquire(&l->tas, l->kind == LOCK_RESILIENT_LATE,
							    &spins);
		if (q == RES_ACQUIRED)
			resilient_release(&l->tas);
		r = q == RES_ACQUIRED ? REENTRY_ACQUIRED : q == RES_AA ? REENTRY_AA : REENTRY_TIMEOUT;
		break;
	}
	case LOCK_TAS:
	case LOCK_RSEQ:
		/*
		 * tas cannot tell: it would spin, sleep and finally declare the
		 * lock stuck, minutes later.  The lab's own table knows.
		 */
		if (held_has(l, 0)) {
			r = REENTRY_DEADLOCK;
			break;
		}
		tas_acquire(&l->tas, &w, c->name);
		tas_release(&l->tas);
		break;
	default:
		r = REENTRY_UNSUPPORTED;
		break;
	}
	*stall_ns = clock_ns() - t0;
	return r;
}
