/*
 * The "Why" section: bufbench's evidence object (docs/evidence.md) per cell,
 * fill phase, summed over the cell's runs: how many strategy-lock holds
 * faulted, how their holders lost the CPU (irq, of which inside a fault;
 * return to user; voluntary; blocked), for how long, and how many waiters
 * waited meanwhile.  One sentence per cell, one table row per cell.
 */
#ifndef PREEMPTLAB_REPORT_EVIDENCE_H
#define PREEMPTLAB_REPORT_EVIDENCE_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

bool evidence_present(const struct results *r);

/*
 * The share (%) of a cell's fill-phase holds, pooled over its runs, that
 * the trace counted in field ("holds_with_fault", "holds_switched"); -1
 * when no run has evidence.
 */
double evidence_fill_share(const struct cell *c, const char *field);
void write_evidence_txt(FILE *f, const struct results *r);
void write_evidence_md(FILE *f, const struct results *r);

#endif
