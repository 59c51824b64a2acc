/*
 * Hold records as text, one per line: "pid cpu wait_ns acquire_ns
 * release_ns".  bufbench --trace-dump and costbench --trace on write them
 * beside the raw trace, so that a real run's join can be replayed
 * (tests/data/evidence/).
 */
#ifndef PREEMPTLAB_HOLD_FILE_H
#define PREEMPTLAB_HOLD_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "hold_trace.h"

void hold_file_write(FILE *f, const struct hold_rec *h, uint64_t n);
/* Malloc'ed records, *n of them; NULL on a malformed line. */
struct hold_rec *hold_file_read(FILE *f, uint64_t *n);
/*
 * PREFIX.trace (TRACE copied whole, then rewound for its reader) and
 * PREFIX.holds (the N records of H): a run's trace and holds kept to
 * replay the join.  0, or -1 with the file it could not write said on
 * stderr.
 */
int hold_file_dump(const char *prefix, FILE *trace, const struct hold_rec *h, uint64_t n);

#endif
