/*
 * The census (issue 36): what the trace the lab already takes says about
 * the emulator and about the kernel channels that could separate the
 * preemption models, per phase, beside the join's q_M (trace_join.h).
 *
 *   freezes   holds with no switch and no fault lasting more than 10x the
 *             phase's median hold, and faulting holds with no switch
 *             lasting more than 2x the fault reference (costbench's fault
 *             when bufbench is given it, otherwise the median faulting
 *             hold that nothing interrupted); count, lock time, and the
 *             holder's timer interrupts (local_timer_entry) inside them
 *   T_tail    every gap after a release with a waiter already waiting
 *             (hold_tail.h's definition), attributed to the state of the
 *             next acquirer at the gap's start: asleep (its backoff),
 *             woken and not yet running, preempted and runnable, running
 *             on the releaser's CPU or on another, the releaser itself
 *             taking it again, or unknown
 *   routes    the stall each q_M route causes: off-CPU time of faulting
 *             holds by the route of their first switch, and the waiters'
 *             time inside it
 *   D-state   every switch out in D of bufbench and its clients, or of
 *             costbench's two processes (trace_own_comm), by the wait its
 *             stack names, and the time until it ran again; other tasks
 *             the trace has (a kernel thread switching to a client:
 *             sched_switch's pid filter matches prev or next; a program
 *             bufbench ran) are counted apart
 *   folios    each contended folio lock (__folio_lock) joined to the
 *             unlock of the same folio that woke it: its holder, and
 *             whether that holder was off CPU when the wait began
 *   wakeups   holders asleep inside their fault: from sched_waking to
 *             their switch in, by whether the waker ran on another CPU
 *             than the one the holder was woken onto
 *   ticks     faulting holds with a timer interrupt of the holder between
 *             the fault's entry and the release (an upper bound of ticks
 *             inside the fault: the hold's work after it is ~2 us)
 */
#ifndef PREEMPTLAB_CENSUS_H
#define PREEMPTLAB_CENSUS_H

#include <stdbool.h>
#include <stdint.h>

#include "hold_trace.h"

/* What a D-state switch waits on, by the first matching frame of its stack. */
enum dwait_cat { DW_FOLIO, DW_RWSEM, DW_MUTEX, DW_HUGETLB_MUTEX, DW_OTHER, DW_NOSTACK, DW_CATS };
const char *dwait_name(enum dwait_cat c);
enum dwait_cat dwait_classify(const char *stack);

/* The next acquirer's state when a T_tail gap began. */
enum acq_state { AQ_ASLEEP, AQ_WOKEN, AQ_PREEMPTED, AQ_RUN_SAME, AQ_RUN_OTHER, AQ_SELF,
		 AQ_UNKNOWN, AQ_STATES };
const char *acq_state_name(enum acq_state s);

#define CENSUS_ROUTES 4		/* enum q_split of trace_join.h */
#define CENSUS_LAT_BUCKETS 24		/* log2 microseconds, as the join's off-CPU histogram */

struct census_lat {
	uint64_t n, total_ns, max_ns;
	uint64_t hist[CENSUS_LAT_BUCKETS];
};

struct census_phase {
	bool done;
	uint64_t holds, lock_ns, hold_median_ns;
	uint64_t fault_ref_ns;		/* the faulting-hold reference doubled */
	bool fault_ref_given;		/* from --freeze-fault-ns (costbench) */
	uint64_t fault_ref_n;		/* holds the run's own median is of */
	/* Freezes: [0] no fault, [1] faulting; ticked: with a timer interrupt inside. */
	uint64_t freeze_n[2], freeze_ns[2], freeze_ticked[2], freeze_ticks[2];
	/* T_tail by the next acquirer's state. */
	uint64_t tail_gaps, tail_ns;
	uint64_t tail_n[AQ_STATES], tail_state_ns[AQ_STATES];
	/* Of the releaser_again gaps: the earliest waiter's state (it could not take it). */
	uint64_t self_waiter_n[AQ_STATES], self_waiter_ns[AQ_STATES];
	/* Per q_M route (first switch of a faulting hold): holds, off-CPU and waiter ns. */
	uint64_t route_n[CENSUS_ROUTES], route_off_ns[CENSUS_ROUTES],
		route_waiter_ns[CENSUS_ROUTES];
	/* D-state switches of every traced task. */
	uint64_t d_n[DW_CATS], d_ns[DW_CATS], d_in_hold[DW_CATS];
	uint64_t d_foreign;	/* D switches of other tasks (not counted above) */
	/* Contended folio locks. */
	bool folios_traced;
	uint64_t folio_waits, folio_joined, folio_self, folio_waiter_in_hold;
	uint64_t folio_foreign;	/* waits of other tasks, not counted above */
	uint64_t folio_holder_off, folio_holder_preempted, folio_holder_off_ns, folio_wait_ns;
	/* Holders asleep in their fault: [0] local waker, [1] remote. */
	bool wakes_traced;		/* set by the caller where it knows the probes were armed */
	uint64_t slept_in_fault, slept_no_wake;
	struct census_lat wake[2];
	/* Faulting holds (a fault event in the hold) and those a tick landed in after the fault. */
	uint64_t fault_holds, fault_holds_ticked;
	bool timer_traced;
};

struct trace_events;

/*
 * The census of the holds (any order) and the trace, per phase as
 * trace_join splits them (fill_ns; events by their timestamp).
 * fault_ref_ns: the fault time to double for a faulting freeze; 0: the
 * median of the phase's faulting holds with no switch and no timer
 * interrupt.
 */
void trace_census(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		  uint64_t fill_ns, uint64_t fault_ref_ns, struct census_phase out[2]);
/* The census as a document's object (census_json.c; docs/json.md's "census"). */
struct json;
void census_json(struct json *j, const struct census_phase *c);

#endif
