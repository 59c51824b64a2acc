/*
 * build/capacity: the lock-capacity law's predictions (capacity.h) for a
 * grid of fault-around x icount shift, calibrated on one measured cell.
 *
 *   build/capacity --calibration DOC --h-us H FA_PAGES:SHIFT...
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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "json_read.h"

static _Noreturn void die(const char *msg, const char *arg)
{
	fprintf(stderr, "capacity: %s%s\n", msg, arg ? arg : "");
	exit(2);
}

static const struct json_read_val *phase(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (!strcmp(json_read_str(arr->items[i], "name", ""), name))
			return arr->items[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *doc_path = NULL;
	double h_us = -1;
	int i = 1;
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--calibration") && i + 1 < argc)
			doc_path = argv[++i];
		else if (!strcmp(argv[i], "--h-us") && i + 1 < argc)
			h_us = strtod(argv[++i], NULL);
		else
			die("usage: capacity --calibration DOC --h-us H FA_PAGES:SHIFT...", NULL);
	}
	if (!doc_path || !(h_us >= 0) || i == argc)
		die("usage: capacity --calibration DOC --h-us H FA_PAGES:SHIFT...", NULL);
	char err[256];
	struct json_read_val *doc = json_read_parse_file(doc_path, err, sizeof(err));
	if (!doc)
		die(err, NULL);
	const struct json_read_val *fill = phase(json_read_path(doc, "results.phases"), "fill");
	const struct json_read_val *ev = phase(json_read_path(doc, "evidence.phases"), "fill");
	double acq, txn, hold, holds, faulted, fa, shift, fault_ns;
	if (!fill || !json_read_num(fill, "strategy.acquisitions", &acq) ||
	    !json_read_num(fill, "transactions", &txn) || txn <= 0 ||
	    !json_read_num(fill, "rho.mean_hold_us", &hold))
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
	struct capacity_calib c;
	if (capacity_calibrate(acq / txn, h_us, fault_ns / 1e3, faulted / holds, (int)fa, (int)shift,
			       &c) != 0)
		die("no calibration from the figures (no faulting hold?) in ", doc_path);
	printf("# calibration %s: m %.4f, h %.2f us, p_f %.4f, d_f %.2f us, fault-around %d pages, "
	       "icount shift %d; measured E[hold] %.2f us = %.2f x (h + p_f d_f)\n", doc_path, c.m,
	       c.h_us, c.p_f, c.d_f_us, c.fa_pages, c.shift, hold,
	       hold / (c.h_us + c.p_f * c.d_f_us));
	printf("fa_pages\tshift\tp_f\th_us\td_f_us\tpredicted_tps\n");
	for (; i < argc; i++) {
		int f, s;
		char tail;
		if (sscanf(argv[i], "%d:%d%c", &f, &s, &tail) != 2 || f < 1 || f > 512 || s < 0 ||
		    s > 10)
			die("not FA_PAGES:SHIFT (1..512:0..10): ", argv[i]);
		struct capacity_pred p;
		capacity_predict(&c, f, s, &p);
		printf("%d\t%d\t%.4f\t%.3f\t%.3f\t%.1f\n", f, s, p.p_f, p.h_us, p.d_f_us, p.tps);
	}
	json_read_free(doc);
	return 0;
}
