/*
 * Files written into a run directory before the run is measured
 * (scripts/model-validate.sh: build/predict --predictions, build/capacity
 * --write): the refusal of a run that already holds measurements, the
 * header line that dates them, and the command that measures them after.
 * The header has the time, the lab's revision and the inputs' checksum,
 * so that the file proves it came first.
 */
#ifndef PREEMPTLAB_MODEL_PRERUN_H
#define PREEMPTLAB_MODEL_PRERUN_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* 0 when RUN holds no measurement (RUN/runs absent or empty); else -1, ERR saying why. */
int prerun_fresh(const char *run, char *err, size_t errlen);
/* DIR and its parents made as needed (mkdir -p); 0, or -1 with ERR. */
int prerun_mkdir(const char *dir, char *err, size_t errlen);
/* WHEN as 2026-01-01T00:00:00Z in OUT. */
void prerun_utc(time_t when, char out[32]);
/* "# written WHEN, lab REV, before any run in RUN", then "# WHAT PATH
 * sha256 HEX" (PATH's); 0, or -1 with ERR when PATH cannot be read. */
int prerun_header(FILE *f, time_t when, const char *rev, const char *run, const char *what,
		  const char *path, char *err, size_t errlen);
/* A validation grid run's bench-command.txt: measure RUN with BENCH (its
 * make bench variables), then compare it with the predictions above. */
void prerun_grid_command(FILE *f, time_t when, const char *bench, const char *run);

#endif
