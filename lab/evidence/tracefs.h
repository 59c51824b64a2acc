/*
 * A private tracefs instance for one bufbench run (instances/preemptlab-PID),
 * so that the lab neither reads nor disturbs anyone else's tracing: the
 * events of trace_join.h, trace_clock=mono, filtered to bufbench and the
 * clients it forks (set_event_pid with options/event-fork).
 */
#ifndef PREEMPTLAB_TRACEFS_H
#define PREEMPTLAB_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracefs {
	char dir[256];		/* the instance; empty: none */
	char root[128];		/* where tracefs is mounted */
	bool mounted_here;	/* mounted by us: unmounted at close */
	bool detached;		/* that mount is attached nowhere: root is /proc/self/fd/N */
	int detached_fd;	/* its N, closed at close */
	char kprobe[64];	/* "group/event" we defined; empty: none */
	const char *fault_event; /* what marks a fault (tracefs_open) */
	char merged[256];	/* the trace with nanoseconds (tracefs_trace_path); empty: none */
	bool timer;		/* irq_vectors:local_timer_entry is traced */
	bool channel;		/* sched_waking and the folio-lock kprobes are traced */
	char folio_probes[2][64];	/* "group/event" of the folio kprobes we defined */
};

/*
 * Create and arm the instance (tracing off); -1 with err saying why not.
 * The faults come from exceptions:page_fault_user where the architecture
 * has that tracepoint (x86, riscv), otherwise from a kprobe event on
 * handle_mm_fault defined for this run and removed at close (arm64);
 * fault_event names the one used.  Asking for "kprobe" (bufbench
 * --fault-event, or PREEMPTLAB_FAULT_EVENT when NULL) takes the kprobe where
 * the tracepoint exists too, to check one against the other and to measure
 * what each costs; "tracepoint" fails where there is none.
 */
int tracefs_open(struct tracefs *t, uint64_t fault_lo, uint64_t fault_hi,
		 const char *fault_event, char *err, size_t errlen);
/*
 * An instance with nothing armed and tracing off, for a tool that enables
 * its own events with tracefs_put (costbench --remote-wake's interrupt
 * sources); tracefs_close removes it as any other.  -1 with err saying why.
 */
int tracefs_open_bare(struct tracefs *t, char *err, size_t errlen);
/* Write VAL to the instance's FILE ("events/ipi/ipi_send_cpu/enable"). */
int tracefs_put(struct tracefs *t, const char *file, const char *val, char *err, size_t errlen);
/*
 * The channel census's events (bufbench --trace-channel), after
 * tracefs_open: sched:sched_waking (the woken task is filtered, so a
 * waker outside bufbench is seen too), and kprobe events on __folio_lock
 * (the slow path of folio_lock: a contended folio lock, the waiter) and on
 * folio_unlock filtered to folios with PG_waiters set (bit 7 of the flags,
 * which folio_xor_flags_has_waiters requires: the unlock that wakes
 * someone, by the folio's holder).  Both probes fire only on contention.
 * -1 with err saying why not.
 */
int tracefs_channel(struct tracefs *t, char *err, size_t errlen);
int tracefs_on(struct tracefs *t, bool on);
/* Events the ring buffer lost (overrun + dropped, all CPUs). */
uint64_t tracefs_lost(struct tracefs *t);
/*
 * The instance's trace for trace_parse, tracing off: a file beside it in
 * $TMPDIR (or /tmp) with every timestamp at the clock's nanoseconds
 * (trace_ns.h), removed at close; the instance's own trace, microseconds,
 * when that cannot be made (the reason on stderr).
 */
const char *tracefs_trace_path(struct tracefs *t, char *buf, size_t len);
void tracefs_close(struct tracefs *t);

#endif
