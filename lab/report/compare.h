/*
 * One row of an lkp-style table: a metric of a cell against the same metric
 * of its baseline cell (same tool, workload, lock, strategy, page size and
 * clients; another kernel or preemption model).
 */
#ifndef PREEMPTLAB_COMPARE_H
#define PREEMPTLAB_COMPARE_H

#include <stdbool.h>

#include "metrics.h"
#include "results.h"
#include "statistics.h"

struct side {
	size_t n;
	double median, mean, hmean, stddev;
	double gmean;       /* geometric mean; 0 unless every value is positive (st_gmean) */
	double pct_stddev;  /* stddev / mean, in % (lkp's %stddev) */
	double min, max;
};

/*
 * The estimator printed is the one tested.  Where every run of both cells
 * is positive (tps, rates, times): the ratio of geometric means, its 95%
 * interval and the star from Welch's t-test on the logarithms (log_scale).
 * Otherwise (counts that can be 0): the difference of the arithmetic
 * means and Welch's test on the values.  The tables' median columns are
 * descriptive only.
 */
struct comparison {
	const struct cell *base, *cell;
	const struct metric *m;
	struct side a, b;    /* a = baseline, b = cell */
	bool log_scale;      /* ratio.ok: the test and change are on the logs */
	double change_pct;   /* 100 (ratio - 1) on the log scale, else of the means; NAN when
			      * not defined */
	struct ratio ratio;  /* geometric-mean ratio b/a with its 95% interval */
	struct welch w;      /* the test used (on logs when log_scale); w.ok == 0: not computable */
	bool significant;    /* w.ok && p < 0.05, before any correction for multiplicity */
	bool worse;          /* significant and in the bad direction */
};

/* Summaries of one cell's values of m; false if no run carries m. */
bool side_of(const struct cell *c, const struct metric *m, struct side *s);

bool compare_cells(const struct cell *base, const struct cell *c,
		   const struct metric *m, struct comparison *out);

/*
 * The baseline cell of c's group: the cell of variant `want` ("KERNEL/MODEL")
 * when given and present, else (make compare) the least preemptible cell of
 * the run labelled `want`, else the first cell whose model is none, else
 * the first in sort order.  May return c itself.
 */
const struct cell *baseline_of(const struct results *r, const struct cell *c,
			       const char *want);

#endif
