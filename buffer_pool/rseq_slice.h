/*
 * The Linux 7.0 rseq time-slice extension (CONFIG_RSEQ_SLICE_EXTENSION):
 * a thread sets a request flag in its rseq area while it holds a lock; if
 * the scheduler wants to preempt it then, the kernel grants a short
 * extension (5-50 us) instead, and the thread gives the CPU back with
 * rseq_slice_yield() as soon as it has released the lock.
 */
#ifndef PREEMPTLAB_RSEQ_SLICE_H
#define PREEMPTLAB_RSEQ_SLICE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Enable the extension for the calling thread.  Returns 0, or -1 with a
 * message in err naming the reason (kernel without the feature, disabled at
 * boot, rseq area too small, ...).
 */
int rseq_slice_enable(char *err, size_t errlen);

/*
 * True when the kernel offers the extension but glibc registered an rseq
 * area too small for it: the process must be restarted with
 * GLIBC_TUNABLES=glibc.pthread.rseq=0 so that it can register its own.
 */
bool rseq_slice_needs_own_area(void);

/*
 * From 7.1 the slice extension needs an rseq area larger than the one
 * glibc 2.36 registers, and a thread cannot register twice: where that is
 * so, restart the program once (argv, /proc/self/exe) with glibc's
 * registration turned off, so that rseq_slice_enable() registers its own.
 * Registration is inherited across fork.  Returns where no restart is
 * needed or it failed (said on stderr under PROG's name).
 */
void rseq_slice_reexec(char **argv, const char *prog);

/* Request an extension: call with the lock just taken. */
void rseq_slice_request(void);

enum rseq_slice_outcome {
	SLICE_NOT_NEEDED,	/* no preemption was due while we held the lock */
	SLICE_GRANTED,		/* extended: the caller must rseq_slice_yield() */
	SLICE_REVOKED,		/* the kernel cleared our request without a
				 * grant standing: a grant ran out before we
				 * released (we were scheduled out with the
				 * lock held anyway), or other pending work
				 * made it refuse one */
};

/*
 * Withdraw the request and say what became of it.  No grant can be lost:
 * the request is cleared before granted is read.
 */
enum rseq_slice_outcome rseq_slice_withdraw(void);

/*
 * Give the CPU back after a grant.  True when the kernel says we did so
 * inside the grant; false when it had already ended (expired, or we were
 * scheduled out by a later interrupt) by the time the call entered.
 */
bool rseq_slice_yield(void);

/*
 * Point the request/withdraw protocol at a 4-byte slice_ctrl word of the
 * caller's (tests/unit/test_bp_rseq.c plays the kernel's part on it, from
 * a signal handler, which runs at an instruction boundary as the kernel's
 * grant does).  rseq_slice_enable() points it at the registered area.
 */
void rseq_slice_use_ctrl(void *slice_ctrl);

#endif
