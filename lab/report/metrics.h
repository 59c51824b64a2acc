/*
 * Which numbers a report compares.  A short list of headline metrics goes
 * into report.txt (what a mail reader needs); report.md also carries every
 * other numeric field the documents hold, so nothing a run measured is
 * hidden.
 */
#ifndef PREEMPTLAB_METRICS_H
#define PREEMPTLAB_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

struct metric {
	char name[96];      /* as printed */
	char path[128];     /* numerator path in the document */
	char per[128];      /* denominator path, "" for none */
	double scale;       /* printed value = scale * num / den */
	bool higher_better;
	bool headline;      /* goes into report.txt */
};

/*
 * Metrics present in at least one run of a tool: the headline list first
 * (in its fixed order), then every other numeric leaf of results, sampler
 * and locks.  Returns the count; *out is malloc'ed.
 */
size_t metrics_for(const struct results *r, const char *tool, struct metric **out);

/* Value of a metric in one document; false when absent. */
bool metric_value(const struct metric *m, const struct json_read_val *doc, double *v);

/* Shown even when zero on both sides: no SpinDelay is itself a result. */
bool metric_always(const struct metric *m);

/* The metric values of a cell's runs; returns how many runs carry it. */
size_t metric_values(const struct metric *m, const struct cell *c, double *out);

#endif
