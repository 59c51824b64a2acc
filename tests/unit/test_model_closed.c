/*
 * The closed form of the strategy-lock model (lab/model/closed.c) against
 * values computed by hand, its two regimes, its interval, and the inputs
 * reader on the hand-made files in tests/data/model/.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model/closed.h"
#include "model/inputs.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))
#define DATA PREEMPTLAB_TOP "/tests/data/model/"

static void test_formula(void)
{
	/* X0 = 1000, k = 1 ms: X = (sqrt 5 - 1) / 0.002 = 618.0339887 (the golden ratio). */
	double x = cf_throughput(1000, 0.001);
	CHECK(NEAR(x, 618.0339887, 1e-6), "X0 1000, k 1 ms: X = %.7f, by hand 618.0339887", x);
	CHECK(NEAR(x, 1000 / (1 + x * 0.001), 1e-9), "X solves X = X0 / (1 + X k)");
	CHECK(cf_throughput(1000, 0) == 1000, "k = 0 gives X0");
	CHECK(NEAR(cf_k(1, 0.01, 0.05, 2000), 1e-6, 1e-18), "k = m p_f q T = 1 x 0.01 x 0.05 x 2 ms = 1e-6 s");
	x = cf_throughput(20000, 1e-6);
	CHECK(NEAR(x, 19615.2422707, 1e-6), "X0 20000, k 1e-6: X = %.7f, by hand 19615.2422707", x);
	/* Tiny X0 k: no cancellation, X ~ X0 (1 - X0 k). */
	x = cf_throughput(1e3, 1e-15);
	CHECK(NEAR(x, 1e3 * (1 - 1e-12), 1e-12), "X0 k = 1e-12: X = X0 (1 - X0 k) to 1e-12 (%.15g)", x);
}

/* Saturated: X ~ sqrt(X0 / k), so the ratio tends to sqrt(q_none / q_M). */
static void test_regimes(void)
{
	double kn = 1e-6, x0 = 1e12;
	double r17 = cf_throughput(x0, 1.7 * kn) / cf_throughput(x0, kn);
	double r38 = cf_throughput(x0, 3.8 * kn) / cf_throughput(x0, kn);
	CHECK(NEAR(r17, 1 / sqrt(1.7), 1e-3), "saturated (X0 k = 1e6): q ratio 1.7 -> %.4fx (1/sqrt 1.7 = 0.7670)", r17);
	CHECK(NEAR(r38, 1 / sqrt(3.8), 1e-3), "saturated: q ratio 3.8 -> %.4fx (1/sqrt 3.8 = 0.5130)", r38);
	/* Linear: X0 k = 0.02, the loss is about X0 (k_M - k_none). */
	x0 = 20000;
	double r = cf_throughput(x0, 1.7e-6) / cf_throughput(x0, 1e-6);
	CHECK(NEAR(r, 0.98712262, 1e-7) && NEAR(1 - r, x0 * 0.7e-6, 0.002),
	      "linear (X0 k 0.02): q ratio 1.7 -> %.5fx, about 1 - X0 dk = 0.986", r);
	double prev = 1;
	int mono = 1;
	for (double k = 1e-8; k < 1; k *= 10) {
		double x = cf_throughput(1000, k);
		mono &= x < prev * 1000 && x > 0;
		prev = x / 1000;
	}
	CHECK(mono, "X falls as k grows and stays positive");
}

static void test_inputs(void)
{
	struct model_inputs in;
	char err[512] = "";
	bool ok = mi_read(DATA "small-2cpu.json", &in, err, sizeof(err));
	CHECK(ok, "small-2cpu.json reads: %s", ok ? "ok" : err);
	if (!ok)
		return;
	CHECK(in.cpus == 2 && in.clients == 21 && in.hz == 250 && strcmp(in.page_size, "4k") == 0,
	      "its size: %d CPUs, %d clients, HZ %d, %s", in.cpus, in.clients, in.hz, in.page_size);
	CHECK(in.x0_tps.v == 20000 && in.x0_tps.lo == 19000 && in.x0_tps.hi == 21000 && in.m.lo == 1,
	      "an interval and a bare number both read");
	CHECK(in.have_q[PM_FULL] && in.q[PM_FULL].v == 0.085 && !in.in_hold_instrument,
	      "q per model; no in-hold instrument");
	/* Quantiles (0,2) (0.5,5) (0.9,15) (0.99,60) (1,200): linear between. */
	CHECK(mi_dist_sample(&in.fault_us, 0.5) == 5, "fault median 5 us");
	CHECK(NEAR(mi_dist_sample(&in.fault_us, 0.95), 15 + 45 * 0.05 / 0.09, 1e-9),
	      "p95 interpolates to %.4f us", mi_dist_sample(&in.fault_us, 0.95));
	double mean = 0.5 * 3.5 + 0.4 * 10 + 0.09 * 37.5 + 0.01 * 130;
	CHECK(NEAR(mi_dist_mean(&in.fault_us), mean, 1e-9), "fault mean %.4f us, by hand %.4f",
	      mi_dist_mean(&in.fault_us), mean);
	CHECK(mi_x0_at(&in, 20000, 96, 1024) == 960000 && mi_x0_at(&in, 20000, 2, 1) == 10000,
	      "X0 scales with min(clients, CPUs): 96 CPUs 960000, 1 client 10000");

	struct cf_pred p, p2, p3;
	CHECK(cf_predict(&in, PM_FULL, 2, 21, 4000, 27, &p) == 0, "predict full at 2 CPUs");
	CHECK(NEAR(p.ratio, 0.98712262, 1e-7), "full/none %.5f at the central values (hand: 0.98712)", p.ratio);
	CHECK(p.lo < p.ratio && p.ratio < p.hi && p.hi < 1 && p.lo > 0.97,
	      "interval %.4f..%.4f holds the central value, below 1", p.lo, p.hi);
	cf_predict(&in, PM_FULL, 2, 21, 4000, 27, &p2);
	cf_predict(&in, PM_FULL, 2, 21, 4000, 28, &p3);
	CHECK(p2.lo == p.lo && p2.hi == p.hi, "same seed, same interval");
	CHECK(p3.lo != p.lo && NEAR(p3.lo, p.lo, 0.002), "another seed: %.4f, within 0.002", p3.lo);
	CHECK(cf_predict(&in, PM_NONE, 2, 21, 100, 1, &p) == 0 && p.ratio == 1 && p.lo == 1 && p.hi == 1,
	      "none against itself is exactly 1");

	ok = mi_read(DATA "histogram.json", &in, err, sizeof(err));
	/* Bins (1-3: 50, 3-10: 40, 10-100: 10) -> CDF 0 at 1, .5 at 3, .9 at 10, 1 at 100. */
	CHECK(ok && in.fault_us.n == 4 && mi_dist_sample(&in.fault_us, 0.5) == 3 &&
		      NEAR(mi_dist_sample(&in.fault_us, 0.7), 6.5, 1e-9) &&
		      NEAR(mi_dist_mean(&in.fault_us), 0.5 * 2 + 0.4 * 6.5 + 0.1 * 55, 1e-9),
	      "a histogram reads as its CDF: median 3 us, p70 %.2f us, mean %.2f us (by hand 9.10)",
	      mi_dist_sample(&in.fault_us, 0.7), mi_dist_mean(&in.fault_us));
	ok = mi_read(DATA "in-hold.json", &in, err, sizeof(err));
	CHECK(ok && in.in_hold_instrument, "in-hold.json reads and says in_hold_instrument");
	ok = mi_read(DATA "no-q-none.json", &in, err, sizeof(err));
	CHECK(!ok && strstr(err, "q.none"), "inputs without q.none are refused: %s", err);
	ok = mi_read(DATA "absent.json", &in, err, sizeof(err));
	CHECK(!ok && strlen(err) > 0, "an absent file is an error: %s", err);
}

/* The worked example of issue 27 (docs/scale.md), deep in saturation. */
static void test_worked_example(void)
{
	const char *files[] = { DATA "worked-1.7.json", DATA "worked-3.8.json" };
	double expect[] = { 1 / sqrt(1.7), 1 / sqrt(3.8) };
	for (int i = 0; i < 2; i++) {
		struct model_inputs in;
		char err[512] = "";
		struct cf_pred p;
		if (!mi_read(files[i], &in, err, sizeof(err))) {
			CHECK(0, "%s", err);
			continue;
		}
		cf_predict(&in, PM_FULL, 96, 1024, 4000, 27, &p);
		CHECK(p.ratio > expect[i] && p.ratio < expect[i] + 0.02 && p.kx_none > 5,
		      "%s at 96 CPUs, 1024 clients: full/none %.3fx (%.3f..%.3f), X_none %.0f, "
		      "within 0.02 above the saturated %.3f", strrchr(files[i], '/') + 1, p.ratio, p.lo,
		      p.hi, p.x_none, expect[i]);
	}
}

int main(void)
{
	test_formula();
	test_regimes();
	test_inputs();
	test_worked_example();
	return CHECK_DONE();
}
