/*
 * The closed form of the strategy-lock model (lab/model/closed.c) against
 * values computed by hand: the identity 1/X = 1/X0 + k, the stalled share
 * below 1, its two regimes, the lock's capacity, its interval, and the inputs
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
	/* X0 = 1000, k = 1 ms: 1/X = 1/1000 + 0.001, X = 500. */
	double x = closed_throughput(1000, 0.001);
	CHECK(NEAR(x, 500, 1e-9), "X0 1000, k 1 ms: X = %.7f, by hand 500", x);
	CHECK(closed_throughput(1000, 0) == 1000, "k = 0 gives X0");
	CHECK(NEAR(closed_k(1, 0.01, 0.05, 2000), 1e-6, 1e-18), "k = m p_f q T = 1 x 0.01 x 0.05 x 2 ms = 1e-6 s");
	x = closed_throughput(20000, 1e-6);
	CHECK(NEAR(x, 19607.8431373, 1e-6), "X0 20000, k 1e-6: X = %.7f, by hand 20000/1.02 = 19607.8431373", x);
	/* The identity, over inputs spanning 24 orders of magnitude of X0 k. */
	int ident = 1;
	double worst = 0;
	for (double x0 = 1e-3; x0 <= 1e9; x0 *= 7.3)
		for (double k = 1e-12; k <= 1e3; k *= 11.7) {
			double y = closed_throughput(x0, k);
			double err = fabs((1 / y) / (1 / x0 + k) - 1);
			worst = fmax(worst, err);
			ident &= err < 1e-12;
		}
	CHECK(ident, "1/X = 1/X0 + k for X0 1e-3..1e9, k 1e-12..1e3 s (worst relative error %.2g)", worst);
}

/* X k below 1 whatever the inputs: the stall is counted once per transaction. */
static void test_stalled_share(void)
{
	int below = 1, agrees = 1;
	double top = 0;
	/* Up to X0 k = 1e15: beyond, 1 - X k is below a double's resolution at 1. */
	for (double x0 = 1e-3; x0 <= 1e12; x0 *= 3.1)
		for (double k = 1e-15; x0 * k <= 1e15; k *= 4.3) {
			double sh = closed_stalled_share(x0, k);
			below &= sh >= 0 && sh < 1;
			top = fmax(top, sh);
			if (x0 * k < 1e12)
				agrees &= NEAR(sh, closed_throughput(x0, k) * k, 1e-12);
		}
	CHECK(below, "X k in [0, 1) for X0 1e-3..1e12, X0 k up to 1e15 (largest %.17g)", top);
	CHECK(agrees, "closed_stalled_share is X k");
	/* The inverse refuses what would need X k >= 1 (or the lock past its capacity). */
	double x0 = 0;
	CHECK(closed_x0_for(1000, 0.001, 21, 1, 0, &x0) == -1, "X 1000 with k 1 ms (X k = 1): no X0 gives it");
	CHECK(closed_x0_for(1000, 0.0005, 21, 1, 0.0005, &x0) == -1,
	      "X 1000 with k 0.5 ms and m s 0.5 ms (X (m s + k) = 1): refused");
	CHECK(closed_x0_for(500, 0.001, 21, 1, 0, &x0) == 0 && NEAR(x0, 1000, 1e-6),
	      "X 500, k 1 ms: X0 %.6f, by hand 1/(1/500 - 0.001) = 1000", x0);
	CHECK(closed_x0_for(90000, 2e-6, 1024, 0.5, 4e-6, &x0) == 0 &&
		      NEAR(closed_throughput(closed_free(x0, 1024, 0.5, 4e-6), 2e-6), 90000, 1e-3),
	      "the inverse through the lock's capacity gives back X 90000 (X0 %.0f)", x0);
}

/* Saturated: X -> 1/k, so the ratio tends to k_none / k_M = q_none / q_M at equal T. */
static void test_regimes(void)
{
	double kn = 1e-6, x0 = 1e12;
	double r17 = closed_throughput(x0, 1.7 * kn) / closed_throughput(x0, kn);
	double r38 = closed_throughput(x0, 3.8 * kn) / closed_throughput(x0, kn);
	CHECK(NEAR(r17, 1 / 1.7, 1e-5), "saturated (X0 k = 1e6): q ratio 1.7 -> %.5fx = k_none/k_full 0.58824", r17);
	CHECK(NEAR(r38, 1 / 3.8, 1e-5), "saturated: q ratio 3.8 -> %.5fx = 0.26316 (not 1/sqrt 3.8 = 0.513)", r38);
	/* Linear: X0 k = 0.02, ratio (1 + X0 k_n) / (1 + X0 k_M) = 1.02 / 1.034. */
	x0 = 20000;
	double r = closed_throughput(x0, 1.7e-6) / closed_throughput(x0, 1e-6);
	CHECK(NEAR(r, 1.02 / 1.034, 1e-12) && NEAR(1 - r, x0 * 0.7e-6, 0.002),
	      "linear (X0 k 0.02): q ratio 1.7 -> %.5fx = 1.02/1.034, about 1 - X0 dk = 0.986", r);
	double prev = 1;
	int mono = 1;
	for (double k = 1e-8; k < 1; k *= 10) {
		double x = closed_throughput(1000, k);
		mono &= x < prev * 1000 && x > 0;
		prev = x / 1000;
	}
	CHECK(mono, "X falls as k grows and stays positive");
}

/* The lock's own capacity: a finite-source queue, solved by exact MVA. */
static void test_lock_capacity(void)
{
	/* n = 2, s = 1, Z = 1: R1 = 1, X1 = 1/2, Q1 = 1/2; R2 = 1.5, X2 = 2/2.5 = 0.8. */
	CHECK(NEAR(closed_lock_rate(2, 1, 1), 0.8, 1e-12), "MVA n 2, s 1, Z 1: %.6f, by hand 0.8",
	      closed_lock_rate(2, 1, 1));
	CHECK(NEAR(closed_lock_rate(1, 3, 1), 0.25, 1e-12), "one source: 1 / (Z + s) = 0.25");
	int bound = 1, sat = 1;
	for (int n = 1; n <= 4096; n *= 2)
		for (double z = 0; z < 1e-1; z = z * 10 + 1e-6)
			for (double sv = 1e-7; sv < 1e-2; sv *= 10) {
				double x = closed_lock_rate(n, z, sv);
				bound &= x <= fmin(n / (z + sv), 1 / sv) * (1 + 1e-12) && x > 0;
				if (n * sv > 100 * (z + sv))
					sat &= x > 0.98 / sv;
			}
	CHECK(bound, "acquisitions/s <= min(N / (Z + s), 1 / s) for N 1..4096, Z 0..0.1 s, s 0.1 us..1 ms");
	CHECK(sat, "far past saturation (N s > 100 (Z + s)) the lock serves within 2%% of 1 / s");
	/* The fill: at most the CPUs' X0 and the lock's 1 / (m s); with stalls, 1 / (m s + k). */
	int fill = 1;
	for (double x0 = 100; x0 < 1e8; x0 *= 10)
		for (double sv = 1e-7; sv < 1e-3; sv *= 10)
			for (double k = 0; k < 1e-3; k = k * 10 + 1e-8) {
				double m = 0.337, xf = closed_free(x0, 1024, m, sv), x = closed_throughput(xf, k);
				fill &= xf <= x0 * (1 + 1e-12) && xf <= 1 / (m * sv) * (1 + 1e-12) &&
					x <= 1 / (m * sv + k) * (1 + 1e-12);
			}
	CHECK(fill, "X_free <= min(X0, 1/(m s)) and X <= 1/(m s + k) over X0 1e2..1e8, s, k");
	/* A cold lock leaves X0 alone; a saturated one is its capacity. */
	CHECK(NEAR(closed_free(7000, 21, 0.337, 2.6e-6), 7000, 7), "2 vCPUs, 21 clients, s 2.6 us: X_free %.1f ~ X0 7000",
	      closed_free(7000, 21, 0.337, 2.6e-6));
	CHECK(NEAR(closed_free(1e7, 1024, 0.337, 30e-6), 1 / (0.337 * 30e-6), 1),
	      "X0 1e7, s 30 us, m 0.337: X_free %.1f = 1/(m s) = %.1f", closed_free(1e7, 1024, 0.337, 30e-6),
	      1 / (0.337 * 30e-6));
	/* At lock saturation the stall adds to the service: full/none -> (m s + k_none)/(m s + k_full). */
	double sv = 10e-6, m = 1, kn = 1e-6, kf = 3e-6;
	double r = closed_throughput(closed_free(1e12, 1024, m, sv), kf) / closed_throughput(closed_free(1e12, 1024, m, sv), kn);
	CHECK(NEAR(r, (m * sv + kn) / (m * sv + kf), 1e-6), "lock-bound: ratio %.6f = (m s + k_n)/(m s + k_f) = %.6f", r,
	      (m * sv + kn) / (m * sv + kf));
}

static void test_inputs(void)
{
	struct model_inputs in;
	char err[512] = "";
	bool ok = inputs_read(DATA "small-2cpu.json", &in, err, sizeof(err));
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
	CHECK(inputs_dist_sample(&in.fault_us, 0.5) == 5, "fault median 5 us");
	CHECK(NEAR(inputs_dist_sample(&in.fault_us, 0.95), 15 + 45 * 0.05 / 0.09, 1e-9),
	      "p95 interpolates to %.4f us", inputs_dist_sample(&in.fault_us, 0.95));
	double mean = 0.5 * 3.5 + 0.4 * 10 + 0.09 * 37.5 + 0.01 * 130;
	CHECK(NEAR(inputs_dist_mean(&in.fault_us), mean, 1e-9), "fault mean %.4f us, by hand %.4f",
	      inputs_dist_mean(&in.fault_us), mean);
	CHECK(inputs_x0_at(&in, 20000, 96, 1024) == 960000 && inputs_x0_at(&in, 20000, 2, 1) == 10000,
	      "X0 scales with min(clients, CPUs): 96 CPUs 960000, 1 client 10000");

	double mean_fault = inputs_dist_mean(&in.fault_us);
	struct closed_pred p, p2, p3;
	CHECK(closed_predict(&in, PM_FULL, 2, 21, 4000, 27, &p) == 0, "predict full at 2 CPUs");
	/* Lock: s = 1.2 + 0.01 x 10.45 us; at 2 CPUs, 21 clients it is cold, so X_free ~ X0 20000. */
	double xf = closed_free(20000, 21, 1, (1.2 + 0.01 * mean_fault) * 1e-6);
	CHECK(NEAR(p.x_free, xf, 1e-9) && NEAR(xf, 20000, 20) &&
		      NEAR(p.ratio, (1 + xf * 1e-6) / (1 + xf * 1.7e-6), 1e-12),
	      "full/none %.5f at the central values = (1 + X_free k_n)/(1 + X_free k_f), X_free %.1f", p.ratio, xf);
	CHECK(p.kx_none < 1 && p.kx_model < 1, "stalled shares %.4g, %.4g below 1", p.kx_none, p.kx_model);
	CHECK(p.lo < p.ratio && p.ratio < p.hi && p.hi < 1 && p.lo > 0.97,
	      "interval %.4f..%.4f holds the central value, below 1", p.lo, p.hi);
	closed_predict(&in, PM_FULL, 2, 21, 4000, 27, &p2);
	closed_predict(&in, PM_FULL, 2, 21, 4000, 28, &p3);
	CHECK(p2.lo == p.lo && p2.hi == p.hi, "same seed, same interval");
	CHECK(p3.lo != p.lo && NEAR(p3.lo, p.lo, 0.002), "another seed: %.4f, within 0.002", p3.lo);
	CHECK(closed_predict(&in, PM_NONE, 2, 21, 100, 1, &p) == 0 && p.ratio == 1 && p.lo == 1 && p.hi == 1,
	      "none against itself is exactly 1");

	ok = inputs_read(DATA "histogram.json", &in, err, sizeof(err));
	/* Bins (1-3: 50, 3-10: 40, 10-100: 10) -> CDF 0 at 1, .5 at 3, .9 at 10, 1 at 100. */
	CHECK(ok && in.fault_us.n == 4 && inputs_dist_sample(&in.fault_us, 0.5) == 3 &&
		      NEAR(inputs_dist_sample(&in.fault_us, 0.7), 6.5, 1e-9) &&
		      NEAR(inputs_dist_mean(&in.fault_us), 0.5 * 2 + 0.4 * 6.5 + 0.1 * 55, 1e-9),
	      "a histogram reads as its CDF: median 3 us, p70 %.2f us, mean %.2f us (by hand 9.10)",
	      inputs_dist_sample(&in.fault_us, 0.7), inputs_dist_mean(&in.fault_us));
	ok = inputs_read(DATA "in-hold.json", &in, err, sizeof(err));
	CHECK(ok && in.in_hold_instrument, "in-hold.json reads and says in_hold_instrument");
	ok = inputs_read(DATA "no-q-none.json", &in, err, sizeof(err));
	CHECK(!ok && strstr(err, "q.none"), "inputs without q.none are refused: %s", err);
	ok = inputs_read(DATA "absent.json", &in, err, sizeof(err));
	CHECK(!ok && strlen(err) > 0, "an absent file is an error: %s", err);
}

/*
 * The worked example of issue 27 (docs/scale.md), through the corrected
 * form: its inputs were chosen so that the old form gave none 98,566 tps
 * at 96/1024; the corrected one gives none about 10,500 (stalled ~90% of
 * the time) and full/none within 0.02 above k_none/k_full, not 1/sqrt.
 */
static void test_worked_example(void)
{
	const char *files[] = { DATA "worked-1.7.json", DATA "worked-3.8.json" };
	double r[] = { 1.7, 3.8 };
	for (int i = 0; i < 2; i++) {
		struct model_inputs in;
		char err[512] = "";
		struct closed_pred p;
		if (!inputs_read(files[i], &in, err, sizeof(err))) {
			CHECK(0, "%s", err);
			continue;
		}
		closed_predict(&in, PM_FULL, 96, 1024, 4000, 27, &p);
		CHECK(p.ratio > 1 / r[i] && p.ratio < 1 / r[i] + 0.02 && p.kx_none > 0.85 && p.kx_none < 1,
		      "%s at 96 CPUs, 1024 clients: full/none %.3fx (%.3f..%.3f), X_none %.0f, X k %.3f; "
		      "within 0.02 above k_none/k_full %.3f", strrchr(files[i], '/') + 1, p.ratio, p.lo, p.hi,
		      p.x_none, p.kx_none, 1 / r[i]);
	}
}

int main(void)
{
	test_formula();
	test_stalled_share();
	test_regimes();
	test_lock_capacity();
	test_inputs();
	test_worked_example();
	return CHECK_DONE();
}
