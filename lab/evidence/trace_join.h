/*
 * The join: what the kernel's trace says happened to each strategy-lock
 * holder, hold by hold.
 *
 * Input: the text of a tracefs instance (trace_clock=mono) holding
 * sched:sched_switch with a stacktrace trigger, sched:sched_wakeup,
 * irq_vectors:local_timer_entry where it exists, and
 * exceptions:page_fault_user/page_fault_kernel (or, where the architecture
 * has no such tracepoint, the kprobe event TRACE_KPROBE_FAULT on
 * handle_mm_fault: tracefs.h), and the hold records of the same window
 * (buffer_pool/hold_trace.h).  Each time a holder is switched out while
 * holding, the switch is classified from the caller of __schedule on its
 * stack:
 *
 *   irq        preempt_schedule_irq: preempted on an interrupt's return to
 *              kernel code; only possible under full and lazy
 *   preempt    preempt_schedule, preempt_schedule_notrace: preempted at a
 *              preempt_enable (ftrace's own included); full and lazy only
 *   user       on the way back to user mode (every model)
 *   voluntary  cond_resched (preempt_schedule_common reached from
 *              __cond_resched), might_resched, sched_yield
 *   blocked    prev_state not runnable: it slept
 *   unknown    no stack recorded, or no rule matched
 *
 * and by where the fault stands: inside the fault handler (handle_mm_fault
 * and the architecture's handler on the stack), at the fault's exit (the
 * fault entry on the stack, the handler returned: the return to user), or
 * neither.
 *
 * A hold faulted when a fault event of its holder falls in it, or when a
 * switch in it has a fault on its stack (a fault the event's address
 * filter, the pool's range, left out).
 *
 * q_M = P(the holder is switched out before release | the hold faulted),
 * by any switch kind, split by the hold's first switch into in-fault
 * (runnable, inside the handler), at fault exit, blocked in the fault (a
 * sleep inside the handler: folio lock, reclaim, mmap_lock retry) and
 * other.
 *
 * Timestamps: the text of `trace` prints a nanosecond clock rounded to the
 * microsecond; trace_ns.h restores the nanoseconds from the raw view of
 * the same buffer.  The parser reads either (6 or 9 decimals) and says
 * which (trace_resolution_ns); a microsecond stamp covers +-500 ns.
 */
#ifndef PREEMPTLAB_TRACE_JOIN_H
#define PREEMPTLAB_TRACE_JOIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "census.h"
#include "hold_trace.h"

/* The kprobe event's name: a fault, as page_fault_user is. */
#define TRACE_KPROBE_FAULT "preemptlab_fault"
/* The channel's kprobe events (tracefs_channel): a contended folio lock, and its unlock. */
#define TRACE_FOLIO_WAIT "preemptlab_folio_wait"
#define TRACE_FOLIO_UNLOCK "preemptlab_folio_unlock"

enum switch_kind { SW_IRQ, SW_PREEMPT, SW_USER, SW_VOLUNTARY, SW_BLOCKED, SW_UNKNOWN, SW_KINDS };
const char *switch_kind_name(enum switch_kind k);

/* Where a switch stands relative to a page fault, from its stack. */
enum fault_place { FP_NONE, FP_IN, FP_EXIT };

/* The q_M split: the category of a faulting hold's first switch. */
enum q_split { Q_IN_FAULT, Q_FAULT_EXIT, Q_BLOCKED_IN_FAULT, Q_OTHER, Q_SPLITS };
const char *q_split_name(enum q_split s);

#define OFFCPU_BUCKETS 24	/* log2 microseconds: [2^i, 2^(i+1)) us, bucket 0 < 2 us */
#define INFAULT_KEPT 16		/* in-fault preemptions described one by one */
#define EXAMPLE_LEN 1024

/* One preemption inside a fault (irq or preempt kind), as the trace has it. */
struct infault_detail {
	uint64_t ts;		/* the switch */
	uint64_t fault_age_ns;	/* since the hold's last fault event; 0 when none */
	int32_t timer_ticks;	/* local_timer_entry events of the holder since that fault; -1: not traced */
	int32_t next_pid, next_prio;	/* who ran instead: prio < 100 RT/DL, 100-139 fair */
	char next_comm[17];
	char irq[48];		/* the interrupt entry on the stack, "" for none (preempt_enable) */
	char stack[EXAMPLE_LEN];	/* the switch's stack as printed */
	uint8_t kind;		/* SW_IRQ or SW_PREEMPT */
};

struct evidence_phase {
	uint64_t holds;
	uint64_t holds_with_fault;	/* a fault event in the hold, or a switch with a fault on its stack */
	uint64_t holds_fault_off_filter;	/* of those, seen only on a stack: not on the pool's addresses */
	uint64_t holds_switched;
	uint64_t switches[SW_KINDS];
	/* Runnable switches inside the fault handler, by kind (irq, preempt, voluntary). */
	uint64_t in_fault[SW_KINDS];
	uint64_t irq_in_fault;	/* in_fault[SW_IRQ] + in_fault[SW_PREEMPT]: preempted inside */
	uint64_t fault_switched;	/* q_M's k: faulting holds switched before release */
	uint64_t q_split[Q_SPLITS];	/* of those, by the first switch */
	uint64_t offcpu_count;
	uint64_t offcpu_ns;
	double offcpu_p50_us, offcpu_p99_us, offcpu_max_us;
	uint64_t offcpu_hist[OFFCPU_BUCKETS];
	uint64_t waiter_ns;	/* waiters' waiting time inside those off-CPU intervals */
	uint32_t ts_resolution_ns;	/* of the trace joined: 1 or 1000 */
	bool timer_traced;	/* local_timer_entry was in the trace */
	uint32_t ninfault;
	struct infault_detail infault[INFAULT_KEPT];
	/*
	 * The stack of the first holder switch of each kind and fault place,
	 * as the trace printed it: what each count stands for.
	 */
	char example[SW_KINDS][3][EXAMPLE_LEN];
	/* The same of any traced task's switches in the window, holding or not. */
	char example_any[SW_KINDS][3][EXAMPLE_LEN];
	struct census_phase census;	/* trace_census, after trace_join */
};

struct trace_events;	/* parsed trace, opaque */

struct trace_events *trace_parse(FILE *f);
void trace_events_free(struct trace_events *t);
/* Lines and events the parser understood, for provenance. */
uint64_t trace_event_count(const struct trace_events *t);
uint64_t trace_stack_count(const struct trace_events *t);
/* 1 when every timestamp had nanoseconds, 1000 when any had microseconds only. */
uint32_t trace_resolution_ns(const struct trace_events *t);
/* The i-th stack of a runnable switch that no rule classified; NULL past the last kept. */
const char *trace_unclassified(const struct trace_events *t, int i);

/* The rules above, on one stack (" => frame" lines); exposed for the tests. */
enum switch_kind trace_classify(const char *stack, enum fault_place *where);

/*
 * Join the holds (all backends, any order) with the trace.  A hold
 * acquired before fill_ns (or any hold, if fill_ns is 0) is a fill-phase
 * hold: out[0]; the others out[1].
 */
void trace_join(const struct trace_events *t, const struct hold_rec *holds, uint64_t nholds,
		uint64_t fill_ns, struct evidence_phase out[2]);

#endif
