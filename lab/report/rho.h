/*
 * The strategy lock's utilisation in the fill phase, rho = X m E[hold]
 * (buffer_pool/lock_util.h), per cell: the median over its runs of
 * results.phase.fill.rho.value.  Where any run has it from its hold
 * records (EVIDENCE=on, --hold-records) only those runs count; else the
 * runs' lockstats figure (the bare twins, HOLD_EVENTS).
 *
 * The report's regime is a hot lock: with rho < RHO_HOT a faulting holder
 * delays almost nobody, whatever the model does to it, and a model
 * comparison there says so (issue 36: "cold lock (rho = ...): not the
 * report's regime").
 */
#ifndef PREEMPTLAB_REPORT_RHO_H
#define PREEMPTLAB_REPORT_RHO_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define RHO_HOT 0.3

/* The cell's fill-phase rho, or -1; *from_records: whether from hold records. */
double cell_fill_rho(const struct cell *c, bool *from_records);
/*
 * For a comparison of a and b (b may be NULL): "cold lock (rho = R): not
 * the report's regime" with the larger rho of the two when it is under
 * RHO_HOT; false (buf "") when it is not, or when neither has a rho.
 */
bool cold_lock_line(const struct cell *a, const struct cell *b, char *buf, size_t len);

#endif
