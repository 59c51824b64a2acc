/*
 * One phase of the join (trace_join.h) as the run document's
 * evidence.phases[] object (docs/evidence.md): the counts, q_M with its
 * split and Wilson interval, the in-fault preemptions one by one.
 */
#ifndef PREEMPTLAB_EVIDENCE_JSON_H
#define PREEMPTLAB_EVIDENCE_JSON_H

#include "json.h"
#include "trace_join.h"

void evidence_phase_json(struct json *j, const char *name, const struct evidence_phase *e);
/* The timestamp resolution the phases were joined at (ns): 1, or 1000 for microseconds. */
uint32_t evidence_resolution_ns(const struct evidence_phase ph[2]);

#endif
