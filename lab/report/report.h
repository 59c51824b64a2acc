/* The pieces of build/report, shared by its writers. */
#ifndef PREEMPTLAB_REPORT_H
#define PREEMPTLAB_REPORT_H

#include <stdio.h>

#include "findings.h"
#include "profiles.h"
#include "results.h"

struct report {
	const struct results *r;
	const char *baseline;        /* --baseline KERNEL/MODEL or NULL */
	struct findings fd;
	struct profiles prof;
	char charts[8][128];         /* SVG charts written, relative to RUN */
	char chart_titles[8][160];
	int ncharts;
	char diff_svg[320];          /* differential flame graph, or "" */
};

void write_txt(FILE *f, const struct report *rp);
void write_md(FILE *f, const struct report *rp);

/* Common values of a provenance field over all runs, joined with ", ". */
void distinct_values(const struct results *r, const char *path, char *buf, size_t len);
/* The make command that reproduces the matrix (manifest's, or derived). */
void repro_command(const struct results *r, char *buf, size_t len);

/* Charts (charts.c): writes the SVGs into RUN and records them in rp. */
void write_charts(struct report *rp);
/* Flame graphs of profiled cells and the headline differential. */
void write_flamegraphs(struct report *rp);

#endif
