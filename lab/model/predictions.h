/*
 * The leave-out validation's predictions file (issue 27, docs/scale.md),
 * RUN/predictions.tsv, written by build/predict before RUN is measured
 * (scripts/model-validate.sh predict and grid) and read by build/model
 * --validate (validate.c):
 *
 *   # written DATE, lab REV, before any run in RUN
 *   # inputs INPUTS sha256 HEX
 *   # build/predict --inputs INPUTS --cpus C --clients N --extrapolate ...
 *   pages  clients  model  predicted  lo  hi  p_f  t_us  cpus
 *
 * then one row a cell and model: build/predict --tsv --extrapolate's
 * ratio against none, its interval and the p_f and T the rules gave, the
 * same numbers printed the same way (PRED_NUMS).
 *
 *   build/predict --predictions --lab-revision REV [--fault-around-pages F]
 *                 [--base-slice-us U] INPUTS RUN MODELS PAGES:CLIENTS[:CPUS]...
 *   build/predict --predictions-grid --lab-revision REV INPUTS RUNBASE < TABLE
 *
 * --predictions: each CELL (CPUS default: the inputs') for each model of
 * MODELS (comma list); --fault-around-pages: RUN will be measured with
 * FAULT_AROUND_BYTES = F x 4 KB, --base-slice-us: with BASE_SLICE_US = U,
 * and the predictions are for that.  --predictions-grid: TABLE is build/plan
 * --validation-grid's (read by column name: run, cell, models, bench); each
 * of its runs gets RUNBASE-RUN/predictions.tsv and bench-command.txt, the
 * command that measures it afterwards.  Every run is checked before any is
 * written: no half-rewritten grid.
 */
#ifndef PREEMPTLAB_MODEL_PREDICTIONS_H
#define PREEMPTLAB_MODEL_PREDICTIONS_H

#include <stddef.h>
#include <stdio.h>

/* ratio, lo, hi, p_f, t_us as --tsv prints them and predictions.tsv keeps them. */
#define PRED_NUMS "%.3f\t%.3f\t%.3f\t%.4g\t%.0f"

struct pred_cell {
	char pages[16];
	int clients, cpus;
};

/* What the predicted runs will have beyond the inputs' machine (0: the kernel's). */
struct pred_knobs {
	int fa_pages;
	long slice_us;
};

struct pred_row {
	double ratio, lo, hi, p_f, t_us;
};

/* One cell's prediction for MODEL (enum pmodel) from the inputs at PATH:
 * 0, or build/predict's exit code with its reason said on stderr. */
typedef int (*pred_fn)(const char *path, const struct pred_cell *c, int model,
		       const struct pred_knobs *k, struct pred_row *out);

/* S as PAGES:CLIENTS[:CPUS], CPUS DEFAULT_CPUS when absent; 0, or -1 with ERR. */
int pred_cell_parse(const char *s, int default_cpus, struct pred_cell *c, char *err, size_t errlen);
/* OPT's VALUE, a whole number MIN to MAX (WHAT it counts); 0, or -1 with ERR. */
int pred_whole(const char *opt, const char *value, long min, long max, const char *what, long *out,
	       char *err, size_t errlen);

/* --predictions' writing: RUN/predictions.tsv for CELLS x MODELS; 0, or the exit code. */
int pred_write(const char *rev, const char *inputs, const char *run, const char *models,
	       const char *const *cells, int ncells, const struct pred_knobs *k, pred_fn fn);
/* --predictions-grid's, from the planner's TABLE; 0, or the exit code. */
int pred_grid(FILE *table, const char *rev, const char *inputs, const char *base, pred_fn fn);
/* build/predict --predictions or --predictions-grid (ARGV[1]); the exit code. */
int pred_main(int argc, char **argv, pred_fn fn);

#endif
