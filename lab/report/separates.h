/*
 * "What separates the models" (issue 36): wherever a run has evidence for
 * two or more preemption models of one group (the same tool, workload,
 * lock, strategy, page size and clients), the fill phase's q_M by route
 * per model with risk ratios against the least preemptible model (Katz's
 * interval) beside Wilson's intervals, the channel census (D-state waits
 * of every client, contended folios and their holders, wakeup latency of
 * holders asleep in their fault, faults spanning a tick), the freeze
 * census and T_tail by the next acquirer, the fill time lost against the
 * least preemptible model split into scheduler, backoff and frozen-vCPU
 * shares with the rest printed as unexplained, and one sentence generated
 * from those numbers.  Pooled over each cell's runs; from the documents'
 * evidence.phases[].census (bufbench --trace-holds, docs/evidence.md).
 */
#ifndef PREEMPTLAB_REPORT_SEPARATES_H
#define PREEMPTLAB_REPORT_SEPARATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* A group with census evidence for at least two models. */
bool separates_present(const struct results *r);
/* The first such group's sentence, as the section prints it; false when
 * there is none.  The thread paragraph (SCENARIO=mitigations) quotes it. */
bool separates_sentence(const struct results *r, char *buf, size_t len);
void write_separates_txt(FILE *f, const struct results *r);
void write_separates_md(FILE *f, const struct results *r);
void write_separates_html(FILE *f, const struct results *r);

#endif
