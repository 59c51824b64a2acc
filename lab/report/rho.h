/*
 * The strategy lock's utilisation in the fill phase, rho = X m E[hold]
 * (buffer_pool/lock_util.h), per cell: the median over its runs of
 * results.phase.fill.rho.value.  Where any run has it from its hold
 * records (EVIDENCE=on, --hold-records) only those runs count; else the
 * runs' lockstats figure (the bare twins, HOLD_EVENTS).
 *
 * The report's regime is a hot lock that is spun on: with rho < RHO_HOT a
 * faulting holder delays almost nobody, whatever the model does to it, and
 * a model comparison there says so (issue 36: "cold lock (rho = ...): not
 * the report's regime"); with a fill CPU spin share under SPIN_HOT its
 * waiters wait off CPU instead of burning CPUs, which is what made the
 * report's 55% of CPU in s_lock, and the comparison says that instead,
 * with the most a lock of that rho can be spun on with the run's CPUs
 * (rho (n - 1) / n: with rho 0.35 on 2 CPUs, 17.5%).
 */
#ifndef PREEMPTLAB_REPORT_RHO_H
#define PREEMPTLAB_REPORT_RHO_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

#define RHO_HOT 0.3
#define SPIN_HOT 0.2	/* the "CPU spin share of at least 20%" */

/* The cell's fill-phase rho, or -1; *from_records: whether from hold records. */
double cell_fill_rho(const struct cell *c, bool *from_records);
/*
 * For a comparison of a and b (b may be NULL): "cold lock (rho = R): not
 * the report's regime" with the larger rho of the two when it is under
 * RHO_HOT; else, where both spin under SPIN_HOT, "hot lock (rho = R) spun
 * on little (...)" and whether the CPUs allow more; false (buf "") when
 * neither applies, or when neither has a rho.
 */
bool cold_lock_line(const struct cell *a, const struct cell *b, char *buf, size_t len);

#endif
