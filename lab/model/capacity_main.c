/*
 * build/capacity: the lock-capacity law's predictions (capacity.h) for a
 * grid of fault-around x icount shift, calibrated on one measured cell.
 *
 *   build/capacity --calibration DOC --h-us H FA_PAGES:SHIFT...
 *   build/capacity --calibration DOC --h-us H --write RUNBASE --lab-revision REV < TABLE
 *
 * DOC: a bufbench document of the calibration cell (SCENARIO=hot-lock,
 * EVIDENCE=on): from its fill phase m = acquisitions / transactions and
 * p_f = the evidence's holds_with_fault / holds (else --hold-events'
 * count); from its provenance d_f = fault_cost_ns (one first-touch fault
 * timed alone), fault_around_pages and icount_shift.  H: the hold without
 * a fault (not in the document: its mean mixes both kinds).  The header
 * line sets the measured E[hold] (rho.mean_hold_us) beside h + p_f d_f:
 * their ratio is how far the holds stretched beyond their own work
 * (holders off CPU, waiters' spinning on the same CPUs).  Prints one TSV
 * row per cell: fa_pages, shift, p_f, h_us, d_f_us, predicted tps.
 *
 * --write (scripts/model-validate.sh capacity): the cells are TABLE's,
 * build/plan --capacity-grid's (by column name: run, cell, bench), and
 * the rows go to RUNBASE/capacity-predictions.tsv after a header with the
 * time, the lab's revision REV and DOC's checksum (prerun.h), before any
 * run in RUNBASE (refused once it holds one); RUNBASE/bench-command.txt
 * gets the commands that measure them afterwards, one hot-lock run a cell
 * into RUNBASE/RUN.  Nothing is written when the calibration is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "capacity.h"
#include "json_read.h"
#include "prerun.h"
#include "tsv_table.h"

#define USAGE "usage: capacity --calibration DOC --h-us H FA_PAGES:SHIFT... | " \
	      "--calibration DOC --h-us H --write RUNBASE --lab-revision REV < TABLE"

/* --write: a refused calibration says that nothing was written. */
static int writing;

static _Noreturn void die(const char *msg, const char *arg)
{
	fprintf(stderr, "capacity: %s%s\n", msg, arg ? arg : "");
	if (writing)
		fprintf(stderr, "capacity: refused the calibration; nothing written\n");
	exit(2);
}

static const struct json_read_val *phase(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (!strcmp(json_read_str(arr->items[i], "name", ""), name))
			return arr->items[i];
	return NULL;
}

/* The calibration from DOC's fill phase and provenance, or die; *HOLD its measured E[hold]. */
static void calibrate(const char *doc_path, double h_us, struct capacity_calib *c, double *hold)
{
	char err[256];
	struct json_read_val *doc = json_read_parse_file(doc_path, err, sizeof(err));
	if (!doc)
		die(err, NULL);
	const struct json_read_val *fill = phase(json_read_path(doc, "results.phases"), "fill");
	const struct json_read_val *ev = phase(json_read_path(doc, "evidence.phases"), "fill");
	double acq, txn, holds, faulted, fa, shift, fault_ns;
	if (!fill || !json_read_num(fill, "strategy.acquisitions", &acq) ||
	    !json_read_num(fill, "transactions", &txn) || txn <= 0 ||
	    !json_read_num(fill, "rho.mean_hold_us", hold))
		die("no fill phase with rho in ", doc_path);
	if (ev && json_read_num(ev, "holds", &holds) && json_read_num(ev, "holds_with_fault", &faulted) &&
	    holds > 0) {
		/* the join's count */
	} else if (json_read_num(fill, "strategy.holds_with_fault", &faulted) && acq > 0 &&
		   json_read_path(doc, "config.hold_events") && json_read_path(doc, "config.hold_events")->b) {
		holds = acq;
	} else {
		die("no count of faulting holds (EVIDENCE=on or HOLD_EVENTS=on) in ", doc_path);
	}
	if (!json_read_num(doc, "provenance.fault_around_pages", &fa) || fa < 1)
		die("no provenance.fault_around_pages in ", doc_path);
	if (!json_read_num(doc, "provenance.icount_shift", &shift) || shift < 0)
		die("no provenance.icount_shift (not an icount guest) in ", doc_path);
	if (!json_read_num(doc, "provenance.fault_cost_ns", &fault_ns) || fault_ns <= 0)
		die("no provenance.fault_cost_ns in ", doc_path);
	if (capacity_calibrate(acq / txn, h_us, fault_ns / 1e3, faulted / holds, (int)fa, (int)shift, c) !=
	    0)
		die("no calibration from the figures (no faulting hold?) in ", doc_path);
	json_read_free(doc);
}

/* CELL as FA_PAGES:SHIFT, or die. */
static void cell(const char *s, int *f, int *sh)
{
	char tail;
	if (sscanf(s, "%d:%d%c", f, sh, &tail) != 2 || *f < 1 || *f > 512 || *sh < 0 || *sh > 10)
		die("not FA_PAGES:SHIFT (1..512:0..10): ", s);
}

/* The header line, the columns and a row a cell (each checked before). */
static void predictions(FILE *out, const char *doc_path, const struct capacity_calib *c, double hold,
			const char *const *cells, int n)
{
	fprintf(out, "# calibration %s: m %.4f, h %.2f us, p_f %.4f, d_f %.2f us, fault-around %d pages, "
		"icount shift %d; measured E[hold] %.2f us = %.2f x (h + p_f d_f)\n", doc_path, c->m,
		c->h_us, c->p_f, c->d_f_us, c->fa_pages, c->shift, hold,
		hold / (c->h_us + c->p_f * c->d_f_us));
	fprintf(out, "fa_pages\tshift\tp_f\th_us\td_f_us\tpredicted_tps\n");
	for (int i = 0; i < n; i++) {
		int f, s;
		cell(cells[i], &f, &s);
		struct capacity_pred p;
		capacity_predict(c, f, s, &p);
		fprintf(out, "%d\t%d\t%.4f\t%.3f\t%.3f\t%.1f\n", f, s, p.p_f, p.h_us, p.d_f_us, p.tps);
	}
}

static FILE *create(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write ", path);
	return f;
}

/* --write: the grid's cells predicted into BASE, then the commands that measure them. */
static int write_grid(const char *doc_path, double h_us, const char *base, const char *rev)
{
	struct stat st;
	struct tsv_table t;
	char err[4200], out[4096], cmd[4096];
	int col[3];
	if (stat(doc_path, &st) != 0 || !S_ISREG(st.st_mode))
		die(doc_path, ": no such document");
	if (tsv_table_read(stdin, &t, err, sizeof(err)) != 0 ||
	    (col[0] = tsv_table_col(&t, "run", err, sizeof(err))) < 0 ||
	    (col[1] = tsv_table_col(&t, "cell", err, sizeof(err))) < 0 ||
	    (col[2] = tsv_table_col(&t, "bench", err, sizeof(err))) < 0)
		die("build/plan --capacity-grid: ", err);
	if (prerun_fresh(base, err, sizeof(err)) != 0)
		die(err, NULL);
	struct capacity_calib c;
	double hold;
	writing = 1;
	calibrate(doc_path, h_us, &c, &hold);
	writing = 0;
	const char **cells = calloc((size_t)t.nrows + 1, sizeof(*cells));
	if (!cells)
		die("out of memory", NULL);
	for (int r = 0; r < t.nrows; r++) {
		int f, s;
		cell(cells[r] = tsv_table_get(&t, r, col[1]), &f, &s);
	}
	if (prerun_mkdir(base, err, sizeof(err)) != 0)
		die(err, NULL);
	snprintf(out, sizeof(out), "%s/capacity-predictions.tsv", base);
	FILE *f = create(out);
	if (prerun_header(f, time(NULL), rev, base, "calibration", doc_path, err, sizeof(err)) != 0)
		die(err, NULL);
	predictions(f, doc_path, &c, hold, cells, t.nrows);
	if (fclose(f) != 0)
		die("write failed: ", out);
	snprintf(cmd, sizeof(cmd), "%s/bench-command.txt", base);
	f = create(cmd);
	fprintf(f, "# Measure after the predictions in %s; from the checkout, one run a cell:\nmake build-all\n",
		out);
	for (int r = 0; r < t.nrows; r++)
		fprintf(f, "%s scripts/bench.sh %s/%s\n", tsv_table_get(&t, r, col[2]), base,
			tsv_table_get(&t, r, col[0]));
	if (fclose(f) != 0)
		die("write failed: ", cmd);
	printf("preemptlab: predictions in %s; measure with %s\n", out, cmd);
	free(cells);
	tsv_table_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	const char *doc_path = NULL, *base = NULL, *rev = NULL;
	double h_us = -1;
	int i = 1;
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--calibration") && i + 1 < argc)
			doc_path = argv[++i];
		else if (!strcmp(argv[i], "--h-us") && i + 1 < argc)
			h_us = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--write") && i + 1 < argc)
			base = argv[++i];
		else if (!strcmp(argv[i], "--lab-revision") && i + 1 < argc)
			rev = argv[++i];
		else
			die(USAGE, NULL);
	}
	if (!doc_path || !(h_us >= 0) || (base ? !rev || i != argc : rev || i == argc))
		die(USAGE, NULL);
	if (base)
		return write_grid(doc_path, h_us, base, rev);
	struct capacity_calib c;
	double hold;
	calibrate(doc_path, h_us, &c, &hold);
	predictions(stdout, doc_path, &c, hold, (const char *const *)argv + i, argc - i);
	return 0;
}
