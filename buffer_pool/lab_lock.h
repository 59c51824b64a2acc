/*
 * The lab's locks behind one interface.  The strategy lock is the object of
 * study, so its implementation is a run-time choice:
 *
 *   tas    PostgreSQL's s_lock algorithm (s_lock.c): test-and-set on a byte,
 *          spin with PAUSE, sleep with randomized growing backoff, declare
 *          the lock stuck after too many sleeps.
 *   rseq   tas, plus the Linux 7.0 rseq time-slice extension requested
 *          around the critical section (rseq_slice.c).
 *   futex  a sleeping mutex: a waiter gives its CPU away at once (control).
 *   mcs    a fair queued spinlock: waiters spin on their own cache line
 *          and are served in order (control).
 *   resilient       a test-and-set lock that detects a deadlock on itself
 *          and gives up after a timeout (resilient_lock.c);
 *   resilient-late  the same with the held-lock entry recorded after the
 *          exchange: the negative control.
 *
 * Locks live in shared memory and are used by forked processes, so nothing
 * here may use process-private addresses except through the segment, which
 * every backend maps at the same address (mapped before fork).
 */
#ifndef PREEMPTLAB_LAB_LOCK_H
#define PREEMPTLAB_LAB_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "hold_events.h"
#include "hold_trace.h"
#include "lockstats.h"

enum lab_lock_kind { LOCK_TAS, LOCK_RSEQ, LOCK_FUTEX, LOCK_MCS, LOCK_RESILIENT,
		     LOCK_RESILIENT_LATE };

/* One MCS queue node per backend; a backend holds at most one MCS lock. */
struct mcs_node {
	_Alignas(64) uint32_t next;	/* backend index + 1 of the successor */
	uint32_t locked;
};

struct lab_lock {
	_Alignas(64) enum lab_lock_kind kind;
	union {
		volatile uint8_t tas;	/* tas, rseq, resilient */
		uint32_t futex;		/* 0 free, 1 held, 2 held with waiters */
		uint32_t mcs_tail;	/* backend index + 1 of the last waiter */
	};
};

/* State every backend's tas waits share (PostgreSQL keeps it in PROC_HDR). */
struct spin_shared {
	int spins_per_delay;	/* estimate new backends start from */
	int stuck_limit;	/* sleeps before "stuck spinlock" */
	int fixed_spins_per_delay;	/* > 0: every backend spins this many, never adapts */
};

/* Per backend, per lock in use: where to count, who we are. */
struct lock_ctx {
	struct lockstats *stats;	/* NULL: run uninstrumented */
	struct mcs_node *mcs_nodes;	/* shared array, indexed by backend */
	uint32_t backend;
	uint64_t t_acquired;
	const char *name;		/* for the stuck-lock message */
	struct hold_events *events;	/* NULL unless --hold-events */
	struct hold_ring *trace;	/* NULL unless --trace-holds */
	uint64_t wait_sleeps;		/* sleeps of the acquisition in progress */
};

/* What a slow acquisition did; filled by the implementations. */
struct lock_wait {
	uint64_t spins;
	uint64_t sleeps;
	uint64_t sleep_ns;	/* wall time inside those sleeps, oversleep included */
};

#define SPIN_STUCK_EXIT 86

const char *lab_lock_kind_name(enum lab_lock_kind k);
int lab_lock_kind_parse(const char *s, enum lab_lock_kind *out);

void lab_lock_init(struct lab_lock *l, enum lab_lock_kind kind);
void lab_lock_acquire(struct lab_lock *l, struct lock_ctx *c);
void lab_lock_release(struct lab_lock *l, struct lock_ctx *c);

/*
 * An acquisition from code that interrupted this process (a signal
 * handler: the userspace analogue of a perf NMI), taken and released at
 * once.  Uninstrumented; *stall_ns receives how long it took.
 */
enum reentry {
	REENTRY_ACQUIRED,
	REENTRY_AA,		/* resilient: detected its own hold, gave up at once */
	REENTRY_TIMEOUT,	/* resilient: gave up after the timeout */
	REENTRY_DEADLOCK,	/* tas: this process holds it; acquiring would never return */
	REENTRY_UNSUPPORTED,	/* futex, mcs: not from a signal handler */
};
enum reentry lab_lock_reentrant(struct lab_lock *l, struct lock_ctx *c, uint64_t *stall_ns);

/* Call once per backend process before its first tas acquisition. */
void spin_backend_start(struct spin_shared *sh, uint32_t seed);
/* Call at backend exit: folds the local estimate into the shared one. */
void spin_backend_exit(struct spin_shared *sh);
void spin_shared_init(struct spin_shared *sh, int stuck_limit);
/*
 * Fix spins_per_delay at n for every backend started after this (0: back
 * to PostgreSQL's adaptation).  On 2 CPUs the adaptive value sinks to 10
 * and waiters sleep; fixed at 1000 they spin as on a many-CPU machine,
 * where spinning succeeds (issue 36, bufbench --spins-per-delay).
 */
void spin_shared_fix(struct spin_shared *sh, int n);
int spin_local_spins_per_delay(void);
/* The backend's backoff random stream, for tests that replay it. */
uint32_t spin_local_rng_state(void);

/* Implementations; each returns true when the first attempt failed. */
bool tas_acquire(volatile uint8_t *lock, struct lock_wait *w, const char *name);
void tas_release(volatile uint8_t *lock);
/* Nanoseconds per iteration of tas_acquire's spin loop, measured (s_lock.c). */
double tas_spin_cost_ns(void);
bool futex_lock_acquire(uint32_t *f, struct lock_wait *w);
void futex_lock_release(uint32_t *f);
bool mcs_acquire(uint32_t *tail, struct mcs_node *nodes, uint32_t me, struct lock_wait *w);
void mcs_release(uint32_t *tail, struct mcs_node *nodes, uint32_t me);

#endif
