/*
 * What a run can resolve.  A comparison that finds no difference is only
 * worth as much as the smallest difference it could have found: on a noisy
 * shared machine that is often 30%, under instruction-counted virtual time
 * 2%.  This states it for every comparison (the minimum detectable effect,
 * MDE, at p < 0.05 in Welch's test) and, per virtualization mode and tool,
 * how the runs vary and how many repetitions would resolve 10%, 5% and 2%.
 */
#ifndef PREEMPTLAB_RESOLUTION_H
#define PREEMPTLAB_RESOLUTION_H

#include <stdio.h>

#include "compare.h"
#include "results.h"

/* The comparison's MDE in % of the baseline's mean; NAN when fewer than 2
 * runs on a side or no spread at all. */
double comparison_mde_pct(const struct comparison *c);
/* "7.4%", or "-" when not computable. */
const char *mde_text(const struct comparison *c, char *buf, size_t len);

/* How each virtualization mode's cells vary and what that resolves. */
void write_resolution_txt(FILE *f, const struct results *r, const char *baseline);
void write_resolution_md(FILE *f, const struct results *r, const char *baseline);

#endif
