/*
 * "At the report's scale": the strategy-lock model (lab/model/) run on this
 * run's own inputs, for its configuration and for the regression report's
 * 96 vCPUs / 1024 clients (docs/scale.md).  Written where the run has
 * evidence (EVIDENCE=on); a run with an in-hold instrument gets the reason
 * the model refuses it instead.
 */
#ifndef PREEMPTLAB_REPORT_ATSCALE_H
#define PREEMPTLAB_REPORT_ATSCALE_H

#include <stdio.h>

#include "results.h"

void write_atscale_txt(FILE *f, const struct results *r);
void write_atscale_md(FILE *f, const struct results *r);
void write_atscale_html(FILE *f, const struct results *r);

#endif
