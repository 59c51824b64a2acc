/*
 * What each instrument cost, from the runs themselves (issue 24): every
 * instrumented run paired with its bare twin on the same seed in the same
 * boot (CONTROLS=on, SCENARIO=overhead), the fill phase's tps of the two as
 * a ratio, and per instrument the geometric mean of the paired ratios with
 * its t interval (st_ratio_paired).  Under icount a twin replays the same
 * instructions but for the instrument's, so the ratio is the instrument's
 * cost alone.
 */
#ifndef PREEMPTLAB_REPORT_OVERHEAD_H
#define PREEMPTLAB_REPORT_OVERHEAD_H

#include <stdio.h>

#include "results.h"
#include "statistics.h"

#define OVERHEAD_ROWS 48
/* The most an instrument may cost (issue 36: EVIDENCE=on under 3% of fill tps). */
#define OVERHEAD_BUDGET 0.03
#define OVERHEAD_PAIRS 256

struct overhead_row {
	unsigned inst;
	char label[96];		/* instruments_label */
	char variant[160];	/* kernel/model, or "all" pooled over them */
	size_t n;		/* pairs */
	bool fill;		/* fill-phase tps (else the whole run's) */
	struct ratio q;		/* with / without */
	double a[OVERHEAD_PAIRS], b[OVERHEAD_PAIRS];	/* without, with */
};

struct overhead {
	struct overhead_row row[OVERHEAD_ROWS];
	int n;
};

void overhead_compute(const struct results *r, struct overhead *o);
/* The provenance line's text ("Instrument overhead: ..."), always something. */
void overhead_line(const struct results *r, const struct overhead *o, char *buf, size_t len);
/* The table: nothing when no pair was made. */
void overhead_txt(FILE *f, const struct overhead *o);
void overhead_md(FILE *f, const struct overhead *o);
void overhead_html(FILE *f, const struct overhead *o);

#endif
