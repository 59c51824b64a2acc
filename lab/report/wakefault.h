/*
 * "A wakeup inside a fault": costbench --wake-in-fault's documents
 * (logs/wakefault-*.json, one per kernel and model, COSTBENCH=on), the
 * constructed test of issue 36 item 6.  Per kernel, model and arm (plain,
 * slice requested): of the wakeups timed inside the holder's fault, how
 * many found it off CPU before its release, with a 95% Wilson interval;
 * the wakes after the fault are the control (the holder had released).
 */
#ifndef PREEMPTLAB_REPORT_WAKEFAULT_H
#define PREEMPTLAB_REPORT_WAKEFAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

void write_wakefault_txt(FILE *f, const struct results *r);
/*
 * One sentence for the thread (the mitigations paragraph quotes it): per
 * kernel, each arm's verdict by model, with counts; false when the run
 * has no wake test.
 */
bool wakefault_sentence(const struct results *r, char *buf, size_t len);
void write_wakefault_md(FILE *f, const struct results *r);

#endif
