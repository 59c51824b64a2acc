/*
 * SCENARIO=mitigations (issue 26, docs/mitigations.md): the table the
 * mailing-list thread needs.  One row per mitigation (and page size) and
 * model: fill-phase tps, its ratio with its 95% interval against none
 * under the least preemptible model (none/none) and against none under
 * the same model, the share of fill-phase holds that faulted, q_M where
 * the trace join ran, and what the mitigation costs; then a paragraph
 * written for the thread.  The report opens with it when any run had a
 * mitigation.
 */
#ifndef PREEMPTLAB_REPORT_MITIGATIONS_H
#define PREEMPTLAB_REPORT_MITIGATIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

bool mitigations_present(const struct results *r);
void write_mitigations_txt(FILE *f, const struct results *r);
void write_mitigations_md(FILE *f, const struct results *r);

#endif
