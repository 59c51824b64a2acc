/*
 * The join: what the kernel's trace says happened to each strategy-lock
 * holder, hold by hold.
 *
 * Input: the text of a tracefs instance (trace_clock=mono) holding
 * sched:sched_switch with a stacktrace trigger, sched:sched_wakeup and
 * exceptions:page_fault_user/page_fault_kernel (or, where the architecture
 * has no such tracepoint, the kprobe event TRACE_KPROBE_FAULT on
 * handle_mm_fault: tracefs.h), and the hold records of the same window
 * (buffer_pool/hold_trace.h).  Each time a holder is switched
 * out while holding, the switch is classified from its stack:
 *
 *   irq        preempted inside the kernel: preempt_schedule_irq (an
 *              interrupt's return to kernel code) or preempt_schedule*
 *              (a preempt_enable); only possible under full and lazy.
 *              irq_in_fault: the same with the fault handler on the stack.
 *   user       preempted on the way back to user mode (every model)
 *   voluntary  cond_resched and the like (every model but full)
 *   blocked    prev_state not runnable: it slept
 *   unknown    no stack recorded for the switch
 *
 * Text timestamps have microsecond resolution: an event counts in a hold
 * when its microsecond overlaps the hold.
 */
#ifndef PREEMPTLAB_TRACE_JOIN_H
#define PREEMPTLAB_TRACE_JOIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hold_trace.h"

/* The kprobe event's name: a fault, as page_fault_user is. */
#define TRACE_KPROBE_FAULT "preemptlab_fault"

enum switch_kind { SW_IRQ, SW_USER, SW_VOLUNTARY, SW_BLOCKED, SW_UNKNOWN, SW_KINDS };
const char *switch_kind_name(enum switch_kind k);

#define OFFCPU_BUCKETS 24	/* log2 microseconds: [2^i, 2^(i+1)) us, bucket 0 < 2 us */

struct evidence_phase {
	uint64_t holds;
	uint64_t holds_with_fault;
	uint64_t holds_switched;
	uint64_t switches[SW_KINDS];
	uint64_t irq_in_fault;
	uint64_t offcpu_count;
	uint64_t offcpu_ns;
	double offcpu_p50_us, offcpu_p99_us, offcpu_max_us;
	uint64_t offcpu_hist[OFFCPU_BUCKETS];
	uint64_t waiter_ns;	/* waiters' waiting time inside those off-CPU intervals */
};

struct trace_events;	/* parsed trace, opaque */

struct trace_events *trace_parse(FILE *f);
void trace_events_free(struct trace_events *t);
/* Lines and events the parser understood, for provenance. */
uint64_t trace_event_count(const struct trace_events *t);
uint64_t trace_stack_count(const struct trace_events *t);
/* The i-th stack of a runnable switch that no rule classified; NULL past the last kept. */
const char *trace_unclassified(const struct trace_events *t, int i);

/*
 * Join the holds (all backends, any order) with the trace.  A hold
 * acquired before fill_ns (or any hold, if fill_ns is 0) is a fill-phase
 * hold: out[0]; the others out[1].
 */
void trace_join(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		uint64_t fill_ns, struct evidence_phase out[2]);

#endif
