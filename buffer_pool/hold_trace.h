/*
 * Hold records: one per strategy-lock hold, written by the holder into its
 * own ring in shared memory, with no system call inside the hold (the
 * record is filed after the release, so a ring page touched for the first
 * time does not fault inside the hold either).  The
 * timestamps are CLOCK_MONOTONIC (vDSO), the clock tracefs uses with
 * trace_clock=mono, so the records can be joined with the kernel's own
 * trace of the same window (lab/evidence/).  The CPU comes from
 * sched_getcpu(), which glibc answers from its rseq area.
 *
 * A ring keeps the first cap holds of the window and counts the rest as
 * dropped: the join then covers a prefix of the window, and says so.
 */
#ifndef PREEMPTLAB_HOLD_TRACE_H
#define PREEMPTLAB_HOLD_TRACE_H

#include <stddef.h>
#include <stdint.h>

struct hold_rec {
	uint64_t wait_ns;	/* when the wait began; == acquire_ns if uncontended */
	uint64_t acquire_ns;
	uint64_t release_ns;
	int32_t pid;
	int32_t cpu;		/* at acquire */
};

struct hold_ring {
	uint32_t cap;
	uint32_t n;		/* records written, <= cap */
	uint64_t dropped;	/* holds after the ring filled */
	int recording;		/* set by the parent for the measured window */
	struct hold_rec cur;	/* the owner's hold in progress */
	struct hold_rec rec[];
};

size_t hold_ring_bytes(uint32_t cap);
/* The slot-th ring of an array of rings, each of hold_ring_bytes(cap). */
struct hold_ring *hold_ring_at(void *base, uint32_t cap, uint32_t slot);
void hold_ring_push(struct hold_ring *r, const struct hold_rec *h);

#endif
