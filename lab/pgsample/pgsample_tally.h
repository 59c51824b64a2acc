/*
 * Counting what PostgreSQL's client backends were doing at each sample.
 * Kept apart from libpq so the counting rules can be unit tested: only
 * backends whose state is "active" count, because an idle pgbench
 * connection waits in Client:ClientRead between transactions and would
 * drown the events that matter (Timeout:SpinDelay, LWLock:BufferMapping).
 */
#ifndef PREEMPTLAB_PGSAMPLE_TALLY_H
#define PREEMPTLAB_PGSAMPLE_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

#define TALLY_MAX_EVENTS 256
#define TALLY_KEY_LEN 96

struct wait_count {
	char key[TALLY_KEY_LEN]; /* "wait_event_type:wait_event" */
	uint64_t n;
};

struct wait_tally {
	struct wait_count ev[TALLY_MAX_EVENTS];
	size_t nev;
	uint64_t samples;         /* pg_stat_activity snapshots taken */
	uint64_t active_sum;      /* active backends summed over samples */
	uint64_t on_cpu;          /* active backend-samples with no wait event */
	uint64_t spindelay;       /* active backend-samples in Timeout:SpinDelay */
	uint64_t dropped;         /* events beyond TALLY_MAX_EVENTS distinct keys */
};

void tally_init(struct wait_tally *t);

/* One row of a snapshot; NULL columns are passed as NULL. */
void tally_row(struct wait_tally *t, const char *state, const char *type, const char *event);

/* Close one snapshot. */
void tally_end_sample(struct wait_tally *t);

/*
 * Write the "wait_events" object: Timeout:SpinDelay first (always present,
 * so a reader never has to guess whether zero means "absent"), then the
 * rest by decreasing count.
 */
void tally_write_events(struct json *j, const struct wait_tally *t);

#endif
