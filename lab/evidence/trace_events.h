/*
 * The parsed trace, shared by the join (trace_join.c) and the census
 * (census.c): one event per line that matters, in trace order.  Private
 * to lab/evidence.
 */
#ifndef PREEMPTLAB_TRACE_EVENTS_H
#define PREEMPTLAB_TRACE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_join.h"

/*
 * EV_WAKE: sched_waking (or sched_wakeup) of pid, by next_pid on cpu,
 * onto aux (target_cpu).  EV_FWAIT: pid entered __folio_lock on folio addr
 * (a contended folio lock); EV_FUNLOCK: pid unlocked folio addr, which had
 * waiters.
 */
enum ev_type { EV_FAULT, EV_OUT, EV_IN, EV_TIMER, EV_WAKE, EV_FWAIT, EV_FUNLOCK };

struct ev {
	uint64_t ts;
	int32_t pid;
	int32_t cpu;
	int32_t next_pid;	/* EV_OUT: who runs instead */
	int16_t next_prio;
	uint8_t type;
	uint8_t kind;		/* EV_OUT: enum switch_kind */
	uint8_t place;		/* EV_OUT: enum fault_place */
	uint8_t has_stack;
	uint8_t runnable;	/* EV_OUT: prev_state R or R+ */
	uint8_t irq;		/* EV_OUT: index + 1 into irqs[], 0 for none */
	uint32_t stack;		/* EV_OUT: index + 1 into the stack table, 0 for none */
	uint8_t dstate;		/* EV_OUT: prev_state D (uninterruptible) */
	uint8_t dcat;		/* EV_OUT with a stack: enum dwait_cat of its wait */
	uint8_t foreign;	/* EV_OUT: prev_comm not trace_own_comm's (a kernel thread, a program it ran) */
	int32_t aux;		/* EV_WAKE: target_cpu */
	uint64_t addr;		/* EV_FWAIT, EV_FUNLOCK: the folio */
};

#define UNCLASSIFIED_KEPT 4
#define IRQ_NAMES 63
#define COMMS 4096
#define STACK_SLOTS 65536	/* distinct stacks kept: up to half of it */

struct trace_events {
	struct ev *ev;
	uint64_t n, cap;
	uint64_t stacks;
	uint32_t res_ns;
	bool timer;
	bool wakes;		/* sched_waking or sched_wakeup was in the trace */
	bool folios;		/* the folio-lock kprobes were */
	/* Stacks of runnable switches that named no known entry point, to name them. */
	char unclassified[UNCLASSIFIED_KEPT][1024];
	int nunclassified;
	/* Interrupt entries seen under preemptions, interned. */
	char irqs[IRQ_NAMES][48];
	int nirqs;
	/* The first stack of each kind and place, any task. */
	uint32_t first[SW_KINDS][3];
	/* Distinct stacks, interned (open addressing on their hash; slot 0 free). */
	char **stk;
	uint32_t nstk;
	uint32_t stk_slot[STACK_SLOTS];
	/* The last comm each pid switched in with (open addressing, pid 0 free). */
	struct { int32_t pid; char comm[17]; } comm[COMMS];
};

/* The comm pid last switched in with; "?" when it never did in the trace. */
const char *trace_comm(const struct trace_events *t, int32_t pid);
/* Is COMM (its first LEN bytes) one of the lab's traced programs: bufbench
 * and its clients, or costbench's two processes?  Other tasks a trace has
 * (a kernel thread, a program bufbench ran) are counted apart. */
bool trace_own_comm(const char *comm, size_t len);

/* Sort by pid, then time, an out before the in at the same stamp (trace_join.c). */
int trace_ev_by_pid_ts(const void *a, const void *b);

#endif
