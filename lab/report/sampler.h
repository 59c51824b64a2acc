/*
 * pgbench's wait-event sampler, summed over a cell's repetitions: SpinDelay
 * samples, the active-backend samples they are a share of, time on CPU and
 * the most frequent wait events.  Samples are of active backends only
 * (docs/postgres.md), so shares are of the time backends were busy.
 */
#ifndef PREEMPTLAB_SAMPLER_H
#define PREEMPTLAB_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

struct wait_count {
	char name[64];
	double n;
};

struct sampler_sum {
	size_t runs;           /* repetitions that carried a sampler */
	double spindelay;      /* Timeout:SpinDelay samples */
	double active;         /* active-backend samples; 0 when unknown */
	double on_cpu;         /* active with no wait event; -1 when unknown */
	struct wait_count top[6];  /* other events, most frequent first */
	size_t ntop;
};

/* False when no run of c has a sampler object. */
bool sampler_of(const struct cell *c, struct sampler_sum *s);

/* SpinDelay samples per run and their share of all active-backend
 * samples: "12 (3.4%)", or "12" when the active count is unknown. */
const char *spindelay_text(const struct sampler_sum *s, char *buf, size_t len);

/* "on CPU 83%; Client:ClientRead 9.0%, IO:DataFileRead 2.3%" (at most
 * `max` events; counts instead of shares when active is unknown). */
void waits_text(const struct sampler_sum *s, size_t max, char *buf, size_t len);

#endif
