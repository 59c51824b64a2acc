/*
 * "A page read inside a fault: the folio channel": costbench --wake-in-fault
 * --contend-page's documents (COSTBENCH=on; logs/wakefolio-*.json with an
 * RT reader and logs/wakefoliofair-*.json with a fair one of a page the
 * fault allocates, logs/wakefoliomap-*.json with an RT reader of a page it
 * only maps, and the traced twin logs/wakefoliotrace-*.json), the
 * constructed test of issue 36 item 5's folio channel.  Per kernel, model and reader: of the wakes timed
 * inside the holder's fault, how many found the page's folio locked and
 * slept, with a 95% Wilson interval; the wakes before the touch and after
 * the fault are the controls.  The traced twin's census joins each folio
 * wait to the unlock that ended it and says whether the holder was off CPU.
 */
#ifndef PREEMPTLAB_REPORT_WAKEFOLIO_H
#define PREEMPTLAB_REPORT_WAKEFOLIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

void write_wakefolio_txt(FILE *f, const struct results *r);
void write_wakefolio_md(FILE *f, const struct results *r);
/* One sentence for the thread: each reader's verdict by kernel and model,
 * with counts; false when the run has no such test. */
bool wakefolio_sentence(const struct results *r, char *buf, size_t len);

#endif
