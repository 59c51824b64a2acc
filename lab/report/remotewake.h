/*
 * "A wakeup from another CPU": costbench --remote-wake's documents
 * (logs/remotewake-*.json, one per kernel and model, COSTBENCH=on), the
 * constructed test of lazy's IPI-less remote wakeup (issue 36 item 5).
 * Per kernel, model and arm (idle spinner, fair spinner, idle target):
 * the wake latencies' median and upper quartile, the late ones (over
 * 100 us) with a 95% Wilson interval, and each model's late share against
 * none's on the same kernel (Newcombe's interval for the difference).
 */
#ifndef PREEMPTLAB_REPORT_REMOTEWAKE_H
#define PREEMPTLAB_REPORT_REMOTEWAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

void write_remotewake_txt(FILE *f, const struct results *r);
void write_remotewake_md(FILE *f, const struct results *r);
/*
 * One sentence for the thread (the mitigations paragraph quotes it): per
 * kernel, each model's late share in the idle-spinner arm against none's;
 * false when the run has no such comparison.
 */
bool remotewake_sentence(const struct results *r, char *buf, size_t len);

#endif
