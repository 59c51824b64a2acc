/*
 * Monotonic nanoseconds.  CLOCK_MONOTONIC goes through the vDSO, so reading
 * it costs tens of nanoseconds on bare metal; under TCG it costs more, and
 * bufbench measures that cost (instrumentation overhead) rather than assume.
 */
#ifndef PREEMPTLAB_CLOCK_H
#define PREEMPTLAB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
