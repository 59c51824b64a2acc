/*
 * X0 per page size (lab/model/x0page.c) and the p_f rule's runs of pops
 * (extrap.c): the arithmetic against numbers worked by hand, both
 * directions between 4 KB and 2 MB, the refusals, and the run-length fit
 * refitted from the published 2-CPU cells (docs/model/).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/costs.h"
#include "model/extract.h"
#include "model/extrap.h"
#include "model/inputs.h"
#include "model/x0page.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))
#define TOP PREEMPTLAB_TOP "/"

/*
 * The calibration family's own numbers (tests/data/run-model, as make
 * model writes them) with the 7.0 guest's costbench (run-costbench,
 * full): 4 KB alloc 108.745 us, map 83.2931; 2 MB alloc 17,172.5, map 14.172.
 */
static void calibration_inputs(struct model_inputs *in)
{
	char err[512];
	static struct extract_set s;
	int rc = extract_scan(TOP "tests/data/run-model", &s, err, sizeof(err));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (rc == MX_OK)
		rc = extract_write(f, &s.g[0], "run-model", err, sizeof(err));
	fclose(f);
	bool ok = rc == MX_OK && inputs_parse(buf, "run-model", in, err, sizeof(err));
	free(buf);
	CHECK(ok, "run-model's inputs (%s)", ok ? "ok" : err);
	struct fault_costs fc;
	ok = fc_read(TOP "tests/data/run-costbench/logs/costbench-7.0-full.json", &fc, err, sizeof(err));
	CHECK(ok && NEAR(fc.alloc_us[MI_4K], 108.745, 1e-9) && NEAR(fc.map_us[MI_4K], 83.2931, 1e-9) &&
		      NEAR(fc.alloc_us[MI_2M], 17172.5, 1e-9) && NEAR(fc.map_us[MI_2M], 14.172, 1e-9),
	      "costbench's four fault costs read as the medians in us");
	for (int p = 0; p < MI_PAGES; p++) {
		in->fault_alloc_us[p] = fc.alloc_us[p];
		in->fault_map_us[p] = fc.map_us[p];
	}
}

static void test_forward(void)
{
	struct model_inputs in, out;
	struct x0page_trace tr;
	char err[512] = "";
	calibration_inputs(&in);
	/* faults per transaction: the six fill phases' minor_faults / transactions, mean 1.1172997. */
	CHECK(NEAR(in.faults_per_txn.v, 1.1172997, 1e-6) && in.segment_bytes == 68390912,
	      "faults_per_txn %.7f (by hand 1.1172997), segment 68390912 bytes", in.faults_per_txn.v);
	int rc = x0page_move(&in, "2m", 0, 1, &out, &tr, err, sizeof(err));
	/*
	 * By hand (python, the formulas of x0page.h): c = 2e6 / 7001.69 =
	 * 285.645 us; allocs 2 m = 0.671086, maps 0.446214, faults 110.144 us,
	 * base 175.502; per backend 8192 / m / 21 = 1162.6 transactions,
	 * 1299.0 faults of 16697 pages -> k 1352.26 touches; 32.61 huge pages
	 * all touched -> 0.0280508 faults per transaction, 0.0013107 of them
	 * allocating: 22.887 us; X0 = 2e6 / (175.502 + 22.887) = 10081.2.
	 */
	CHECK(rc == 0 && NEAR(tr.cpu_us, 285.6453, 1e-3) && NEAR(tr.base_us, 175.5015, 1e-3) &&
		      NEAR(tr.k_touches, 1352.259, 1e-2) && NEAR(out.faults_per_txn.v, 0.0280508, 1e-6) &&
		      NEAR(tr.fault_us_to, 22.8872, 1e-3) && NEAR(out.x0_tps.v, 10081.22, 0.05),
	      "4k -> 2m: base %.3f us, k %.2f, %.6f faults per transaction at 2m, X0 %.2f (by hand 10081.22) [%s]",
	      tr.base_us, tr.k_touches, out.faults_per_txn.v, out.x0_tps.v, err);
	CHECK(strcmp(tr.faults_to_source, "occupancy rule") == 0 &&
		      NEAR(out.x0_tps.lo / in.x0_tps.lo, tr.factor, 1e-12) &&
		      NEAR(out.x0_tps.hi / in.x0_tps.hi, tr.factor, 1e-12),
	      "the interval moves with X0 (factor %.4f)", tr.factor);
	/* The same page size, no scale: X0 unchanged. */
	rc = x0page_move(&in, "4k", 0, 1, &out, &tr, err, sizeof(err));
	CHECK(rc == 0 && NEAR(out.x0_tps.v, in.x0_tps.v, 1e-6), "4k -> 4k: X0 unchanged (%.2f)", out.x0_tps.v);
	/* Mapping faults twice as costly (the many-process microbenchmark's growth). */
	rc = x0page_move(&in, "4k", 0, 2, &out, &tr, err, sizeof(err));
	double want = 2e6 / (175.50153 + 0.671086 * 108.745 + 0.446214 * 83.2931 * 2);
	CHECK(rc == 0 && NEAR(out.x0_tps.v, want, 0.5), "map faults x2: X0 %.1f (by hand %.1f)", out.x0_tps.v, want);
}

static void test_reverse(void)
{
	struct model_inputs in, two, back;
	struct x0page_trace tr;
	char err[512] = "";
	calibration_inputs(&in);
	int rc = x0page_move(&in, "2m", 0, 1, &two, &tr, err, sizeof(err));
	CHECK(rc == 0, "4k -> 2m for the reverse (%s)", err);
	snprintf(two.page_size, sizeof(two.page_size), "2m");
	/* 2 MB inputs: every backend mapped all 33 huge pages, so k is not solvable. */
	two.faults_by_page[MI_4K] = 0;
	rc = x0page_move(&two, "4k", 0, 1, &back, &tr, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "saturated") && strstr(err, "HUGEPAGES=compare"),
	      "2m -> 4k without 4 KB faults: refused, naming the fix: %s", err);
	/* With the 4 KB faults the same run measured: back where it started. */
	two.faults_by_page[MI_4K] = in.faults_per_txn.v;
	rc = x0page_move(&two, "4k", 0, 1, &back, &tr, err, sizeof(err));
	CHECK(rc == 0 && strcmp(tr.faults_to_source, "measured") == 0 && NEAR(back.x0_tps.v, in.x0_tps.v, 1e-6),
	      "2m -> 4k with the run's 4 KB faults per transaction: X0 %.2f, the 4 KB measurement's %.2f",
	      back.x0_tps.v, in.x0_tps.v);
	two.faults_by_page[MI_4K] = 0;
	rc = x0page_move(&two, "4k", 2.0, 1, &back, &tr, err, sizeof(err));
	double want = 2e6 / (175.50153 + 0.671086 * 108.745 + (2.0 - 0.671086) * 83.2931);
	CHECK(rc == 0 && strcmp(tr.faults_to_source, "given") == 0 && NEAR(back.x0_tps.v, want, 0.5),
	      "2m -> 4k with --faults-per-txn 2: X0 %.1f (by hand %.1f)", back.x0_tps.v, want);
	/* No 2 MB cost: refused, saying where costs come from. */
	in.fault_alloc_us[MI_2M] = 0;
	rc = x0page_move(&in, "2m", 0, 1, &back, &tr, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "allocating fault's cost for 2m") && strstr(err, "costbench"),
	      "no 2 MB fault cost: refused: %s", err);
	in.fault_alloc_us[MI_2M] = 17172.5;
	in.x0_tps.v = 1e9;
	rc = x0page_move(&in, "2m", 0, 1, &back, &tr, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "exceeds"), "faults costlier than the whole transaction: refused: %s", err);
}

/* The published 2-CPU cells: the file, and the fault-around it measured. */
static const char *const cells[] = {
	"docs/model/validation-612/model-inputs-4k-c8.json",
	"docs/model/calibrated-4k.json",
	"docs/model/validation-612/model-inputs-4k-c64.json",
	"docs/model/validation-612-r5b/model-inputs-4k-c64.json",
	"docs/model/validation-612-c256/model-inputs-4k-c256.json",
};

static void test_runs_fit(void)
{
	enum { N = sizeof(cells) / sizeof(cells[0]) };
	double r[N], l[N];
	struct model_inputs in[N];
	char err[512];
	int ok = 1;
	for (int i = 0; i < N; i++) {
		char path[512];
		snprintf(path, sizeof(path), TOP "%s", cells[i]);
		if (!inputs_read(path, &in[i], err, sizeof(err))) {
			CHECK(0, "%s: %s", cells[i], err);
			return;
		}
		double w = extrap_window("4k", in[i].fault_around_pages);
		r[i] = (double)in[i].clients / in[i].cpus;
		l[i] = extrap_runs_solve(in[i].clients, w, in[i].pool_pages, in[i].p_f.v);
		ok &= NEAR(extrap_pf_runs(in[i].clients, w, in[i].pool_pages, l[i]), in[i].p_f.v, 1e-9);
	}
	CHECK(ok && NEAR(l[0], 48.77, 0.01) && NEAR(l[1], 19.69, 0.01) && NEAR(l[4], 5.04, 0.01),
	      "L solved from each p_f: %.2f %.2f %.2f %.2f %.2f at 8 21 64 64 256 clients", l[0], l[1],
	      l[2], l[3], l[4]);
	double a, b;
	extrap_runs_fit(r, l, N, &a, &b);
	CHECK(NEAR(a, XR_RUNS_A, 0.01) && NEAR(b, XR_RUNS_B, 1e-4),
	      "refit L = a (N/C)^-b: a %.3f b %.4f (extrap.h: %.2f, %.4f)", a, b, XR_RUNS_A, XR_RUNS_B);
	/* Leave-out check of the shape without the 256 cell: the exponent it would have had. */
	double a4, b4;
	extrap_runs_fit(r, l, N - 1, &a4, &b4);
	CHECK(b4 > b, "without the 256-client cell the exponent is steeper (%.3f): 256 enters the fit", b4);

	/* From the calibration (21 clients) to each other cell at 2 CPUs: p_f within 20%. */
	for (int i = 0; i < N; i++) {
		struct extrap_target t = { .cpus = 2, .clients = in[i].clients, .hz = 250,
				       .pool_pages = in[i].pool_pages,
				       .fault_around_pages = in[i].fault_around_pages };
		snprintf(t.page, sizeof(t.page), "4k");
		struct model_inputs out;
		struct extrap_trace tr;
		int rc = extrap_apply(&in[1], &t, &out, &tr, err, sizeof(err));
		double rel = out.p_f.v / in[i].p_f.v - 1;
		CHECK(rc == 0 && fabs(rel) <= 0.20, "p_f at %d clients from the 21-client calibration: "
		      "%.4f predicted, %.4f measured (%+.0f%%; L %.2f)", in[i].clients, out.p_f.v,
		      in[i].p_f.v, 100 * rel, tr.l_target);
	}

	/* The report's size: L moved to 10.7 runnable per CPU, then toward 1 by 2/96. */
	struct extrap_target t;
	struct model_inputs out;
	struct extrap_trace tr;
	extrap_report_target(&t, "4k");
	int rc = extrap_apply(&in[1], &t, &out, &tr, err, sizeof(err));
	double l_at = l[1] * pow((1024.0 / 96) / 10.5, -XR_RUNS_B);
	double l_t = 1 + (l_at - 1) * 2 / 96;
	CHECK(rc == 0 && NEAR(tr.l_target, l_t, 1e-9) &&
		      NEAR(out.p_f.v, extrap_pf_runs(1024, 1024, XR_REPORT_POOL_PAGES, l_t), 1e-12),
	      "96 CPUs, 1024 clients: L %.3f (%.2f at 2 CPUs), p_f %.4f (interleaved %.4f)", tr.l_target,
	      l_at, out.p_f.v, tr.pf_raw_target);
	/* Nothing faulted where measured: the fit's own curve. */
	struct model_inputs zero = in[1];
	zero.p_f.v = zero.p_f.lo = zero.p_f.hi = 0;
	rc = extrap_apply(&zero, &t, &out, &tr, err, sizeof(err));
	CHECK(rc == 0 && tr.l_from_fit &&
		      NEAR(tr.l_target, 1 + (XR_RUNS_A * pow(1024.0 / 96, -XR_RUNS_B) - 1) * 2 / 96, 1e-9),
	      "p_f 0 where measured: L %.3f from the fit's curve", tr.l_target);
}

int main(void)
{
	test_forward();
	test_reverse();
	test_runs_fit();
	return CHECK_DONE();
}
