/*
 * What happened to the holder while it held the lock: did it take a page
 * fault, was it switched out?  The regression report's claim is that a
 * holder preempted inside a minor fault stalls every waiter; this counts
 * exactly those holds instead of inferring them.
 *
 * Each client opens two software perf counters on itself (minor faults,
 * context switches) as one group and reads the group at acquire and at
 * release.  A read is a system call, so evidence mode lengthens every hold
 * by about a microsecond: compare its counts, not its throughput.
 */
#ifndef PREEMPTLAB_HOLD_EVENTS_H
#define PREEMPTLAB_HOLD_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hold_events {
	int group_fd;		/* -1: not open */
	uint64_t faults_at_acquire;
	uint64_t switches_at_acquire;
};

/* Open the counters for this process; -1 with err explaining why not. */
int hold_events_open(struct hold_events *h, char *err, size_t errlen);
void hold_events_close(struct hold_events *h);

void hold_events_mark(struct hold_events *h);
/* Faults and switches since the mark. */
void hold_events_since(struct hold_events *h, uint64_t *faults, uint64_t *switches);

#endif
