/* Predictions against a run's measurements (validate.c). */
#ifndef PREEMPTLAB_MODEL_VALIDATE_H
#define PREEMPTLAB_MODEL_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "extract.h"

/* The table into out; MX_OK, or MX_ERR / MX_IN_HOLD with err. */
int mv_validate(const char *tsv, const char *run, FILE *out, char *err, size_t errlen);

/*
 * Skill against the null predictor "1.000x everywhere" (issue 37):
 * skill = 1 - SSE_model / SSE_null over the cells, with a percentile
 * bootstrap interval over cells (MV_BOOT resamples, seeded).  0 for the
 * null itself, 1 for a perfect predictor, negative when the null does
 * better.  A validation counts only where the interval's low end is above
 * 0 (the model beats the null); a cell tests the model only where its
 * predicted effect |pred - 1| exceeds the cell's tolerance.
 */
/*
 * The equivalence test's fixed margin: a cell agrees with its prediction
 * when the measured ratio's 95% interval lies inside pred +- 0.02 (two
 * points, the size the old rule's floor named), whatever its mde.
 */
#define MV_EQ_MARGIN 0.02
#define MV_BOOT 4000
#define MV_MAX_CELLS 512

struct mv_skill {
	int n, tests;			/* cells; cells whose predicted effect exceeds tol */
	double sse_model, sse_null;
	double skill, lo, hi;		/* NaN when SSE_null is 0 (nothing to beat) */
	int beats;			/* lo > 0 */
};

void mv_skill(const double *pred, const double *meas, const double *tol, int n, uint64_t seed,
	      struct mv_skill *out);
/* One line: "skill against the null 1.000x: ..." */
void mv_skill_print(FILE *out, const char *label, const struct mv_skill *k);

/*
 * Read the cells of a validation table (RUN/validation.txt, as `compare`
 * wrote it, either column layout) into pred/meas/tol; returns the count,
 * or -1 with err.
 */
int mv_read_table(const char *path, double *pred, double *meas, double *tol, int max, char *err,
		  size_t errlen);
/* The number of cells whose measured 95% interval lies inside pred +- MV_EQ_MARGIN. */
int mv_table_equivalent(const char *path, int *cells);

#endif
