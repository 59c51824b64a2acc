/*
 * The fill phase in the report: from the start until every buffer has been
 * handed out once, where the regression report's mechanism lives (a
 * backend faulting on a descriptor page with the strategy lock held).
 * bufbench stamps the boundary itself (results.phases); pgbench's comes
 * from pg_buffercache (results.buffer_fill).  The section puts each cell's
 * fill and steady figures side by side and compares, within the fill
 * phase, 4 KB against 2 MB pages and PostgreSQL 15-18's freelist (pg)
 * against PostgreSQL 19's clock sweep (pg19).
 */
#ifndef PREEMPTLAB_FILLPHASE_H
#define PREEMPTLAB_FILLPHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* A ratio of two cells' medians with the band their ranges allow. */
struct fill_ratio {
	const struct cell *a, *b;	/* a / b */
	/* tested: geometric means, 95% interval (Welch on logs); else medians, min_a / max_b,
	 * max_a / min_b */
	double ratio, lo, hi;
	double p, mde_pct;		/* when tested */
	bool tested;
	bool single;			/* one run on each side: nothing to resolve */
	bool resolved;			/* the interval excludes 1 */
};

struct metric;
/*
 * a / b: the ratio of geometric means with its 95% interval (Welch on
 * logs) where both sides have two runs or more, else the band of the runs.
 */
bool fill_ratio_of(const struct cell *a, const struct cell *b, const struct metric *m,
		   struct fill_ratio *out);

/* Whether any run of the results has a fill phase to report. */
bool fill_present(const struct results *r);
/* One paragraph for the top of the report, or "" when there is no fill. */
void fill_headline(const struct results *r, char *buf, size_t len);
void write_fill_txt(FILE *f, const struct results *r);
void write_fill_md(FILE *f, const struct results *r);

#endif
