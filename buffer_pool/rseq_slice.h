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

/* Request an extension: call with the lock just taken. */
void rseq_slice_request(void);

enum rseq_slice_outcome {
	SLICE_NOT_NEEDED,	/* no preemption was due while we held the lock */
	SLICE_GRANTED,		/* extended: the caller must rseq_slice_yield() */
	SLICE_REVOKED,		/* the kernel cleared our request: a grant ran
				 * out before we released, and we were
				 * scheduled out with the lock held anyway */
};

/* Withdraw the request and say what became of it. */
enum rseq_slice_outcome rseq_slice_withdraw(void);

void rseq_slice_yield(void);

#endif
