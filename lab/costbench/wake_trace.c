/*
 * costbench --wake-in-fault --trace on: the trials traced with
 * the events bufbench's channel census takes (tracefs.h: sched_switch
 * with a stack for every switch out that is not a plain sleep,
 * page_fault_user on the trials' pages, sched_waking, and the kprobes on
 * a contended __folio_lock and on the folio_unlock that wakes its
 * waiter), kept as PREFIX.trace (nanosecond stamps) and PREFIX.holds (the
 * holder's touches as hold records), and run through the census
 * (census.h) as bufbench runs its own.  This is how a real guest trace of
 * a folio wait joined to its holder is made: bufbench's own runs never
 * had one (no other task reads a page while its first toucher faults).
 *
 * The tracepoints run inside the fault the test times, so a traced run is
 * a twin of the bare one, never its replacement: the document says it was
 * traced, and the bare run's counts are the result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costbench.h"
#include "hold_file.h"
#include "trace_join.h"
#include "tracefs.h"

int costbench_wake_trace_open(struct tracefs *t, const char *lo, size_t len, struct costbench_wake *w)
{
	uint64_t a = (uint64_t)(uintptr_t)lo;
	if (tracefs_open(t, a, a + len, NULL, w->trace_why, sizeof(w->trace_why)) != 0)
		return -1;
	if (tracefs_channel(t, w->trace_why, sizeof(w->trace_why)) != 0 || tracefs_on(t, true) != 0) {
		if (!w->trace_why[0])
			snprintf(w->trace_why, sizeof(w->trace_why), "tracing_on: %s", strerror(errno));
		tracefs_close(t);
		return -1;
	}
	return 0;
}

/* The holder's touches, every trial of both arms: its critical sections. */
static struct hold_rec *holds_of(const struct costbench_wake *w, uint64_t *n)
{
	struct hold_rec *h = calloc((size_t)(w->ntrials[0] + w->ntrials[1]) + 1, sizeof(*h));
	*n = 0;
	for (int arm = 0; h && arm < 2; arm++)
		for (int i = 0; i < w->ntrials[arm]; i++) {
			const struct costbench_wake_trial *x = &w->trial[arm][i];
			struct hold_rec *r = &h[(*n)++];
			r->wait_ns = r->acquire_ns = (uint64_t)x->touch_at_ns;
			r->release_ns = (uint64_t)x->release_at_ns;
			r->pid = w->holder_pid;
			r->cpu = w->cpu;
		}
	return h;
}

void costbench_wake_trace_close(struct tracefs *t, const char *prefix, struct costbench_wake *w)
{
	tracefs_on(t, false);
	w->trace_lost = tracefs_lost(t);
	uint64_t n;
	struct hold_rec *h = holds_of(w, &n);
	char path[300];
	FILE *f = h ? fopen(tracefs_trace_path(t, path, sizeof(path)), "r") : NULL;
	if (!f) {
		snprintf(w->trace_why, sizeof(w->trace_why), "cannot read the trace: %s", strerror(errno));
	} else {
		hold_file_dump(prefix, f, h, n);
		struct trace_events *te = trace_parse(f);
		fclose(f);
		struct census_phase cz[2];
		/* The fault reference is the test's own fault (its median touch). */
		trace_census(te, h, n, 0, (uint64_t)w->fault_ns, cz);
		cz[0].wakes_traced = t->channel;
		cz[0].folios_traced = t->folio_probes[1][0] != 0;
		w->census = cz[0];
		w->trace_events = trace_event_count(te);
		w->traced = true;
		trace_events_free(te);
	}
	free(h);
	tracefs_close(t);
}
