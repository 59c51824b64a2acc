/*
 * The report's statistics against published values: Welch's t-test on the
 * three worked examples of the Wikipedia article "Welch's t-test" (t, df,
 * p as printed there; p checked to 1e-6 against a numerical integration of
 * the t density), closed forms of the t distribution for 1 and 2 degrees
 * of freedom, percentiles against R's type 7, harmonic and geometric means;
 * the 80%-power mde, runs needed, ratio intervals, Holm and Wilson against
 * values computed by hand (the computation is in the comment above each).
 */
#include <math.h>

#include "check.h"
#include "statistics.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
static const double b1[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
static const double a2[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2,
			     14.7, 21.8 };
static const double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7,
			     23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5,
			     22.5, 23.5, 21.5, 21.8 };
static const double a3[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9,
			     19.5, 22.0 };
static const double b3[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6,
			     20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6,
			     24.3, 20.4, 23.9, 13.3 };

static void welch_case(const char *name, const double *a, size_t na,
		       const double *b, size_t nb, double t, double df,
		       double p)
{
	struct welch w = st_welch(a, na, b, nb);
	/* st_welch reports b - a; the article reports a - b. */
	CHECK(w.ok && NEAR(-w.t, t, 1e-9), "welch %s t = %.6f (want %.6f)", name, -w.t, t);
	CHECK(NEAR(w.df, df, 1e-9), "welch %s df = %.6f (want %.6f)", name, w.df, df);
	CHECK(NEAR(w.p, p, 1e-6), "welch %s p = %.8f (want %.8f)", name, w.p, p);
}

int main(void)
{
	welch_case("example 1", a1, N(a1), b1, N(b1), -2.455356398286006,
		   24.98852929023142, 0.0213780015);
	welch_case("example 2", a2, N(a2), b2, N(b2), -1.5654335235985073,
		   9.904741248650831, 0.1488416966);
	welch_case("example 3", a3, N(a3), b3, N(b3), -2.225512039969852,
		   24.524634944257343, 0.0354845308);

	/* df = 1 is the Cauchy distribution, df = 2 has a closed form too. */
	for (double t = 0.25; t < 40; t *= 2) {
		double p1 = 1 - 2 * atan(t) / M_PI;
		double p2 = 1 - t / sqrt(2 + t * t);
		CHECK(NEAR(st_t_pvalue(t, 1), p1, 1e-12), "t p-value df=1 t=%g", t);
		CHECK(NEAR(st_t_pvalue(-t, 2), p2, 1e-12), "t p-value df=2 t=%g", -t);
	}
	/* The 97.5% quantile of t(10) from any table. */
	CHECK(NEAR(st_t_pvalue(2.228138852, 10), 0.05, 1e-8), "t(10) critical value gives p = 0.05");
	CHECK(NEAR(st_t_critical(0.05, 10), 2.228138852, 1e-8), "t(10) critical value is 2.2281");
	CHECK(NEAR(st_t_critical(0.05, 1), 12.70620474, 1e-7), "t(1) critical value is 12.706");
	CHECK(NEAR(st_t_critical(0.05, 1e7), 1.959964, 1e-5), "t critical value tends to 1.96");
	CHECK(NEAR(st_t_critical(0.01, 4), 4.604094871, 1e-8), "t(4) 99.5%% quantile is 4.6041");
	CHECK(isnan(st_t_critical(0.05, 0)), "no critical value without degrees of freedom");

	/* One-sided quantiles from any t table: t_.80 at df 4, 10 and large. */
	CHECK(NEAR(st_t_quantile(0.80, 4), 0.940964577, 1e-7), "t(4) 80%% quantile is 0.9410");
	CHECK(NEAR(st_t_quantile(0.80, 10), 0.879057828, 1e-7), "t(10) 80%% quantile is 0.8791");
	CHECK(NEAR(st_t_quantile(0.80, 1e7), 0.841621, 1e-5), "t 80%% quantile tends to 0.8416");
	CHECK(NEAR(st_t_quantile(0.20, 4), -0.940964577, 1e-7) && st_t_quantile(0.5, 4) == 0,
	      "t quantiles are symmetric about 0");

	/*
	 * A difference of exactly the 95% half-width lands on p = 0.05 (50%
	 * power); the mde at 80% power is (t_.975 + t_.80) / t_.975 times it.
	 */
	struct welch w1 = st_welch(a1, N(a1), b1, N(b1));
	double shifted[N(b1)], ma = st_mean(a1, N(a1)), mb = st_mean(b1, N(b1));
	for (size_t i = 0; i < N(b1); i++)
		shifted[i] = b1[i] - mb + ma + w1.hw95;
	struct welch w2 = st_welch(a1, N(a1), shifted, N(b1));
	CHECK(w1.ok && NEAR(w2.p, 0.05, 1e-9), "a shift of the half-width %.4f gives p = %.6f",
	      w1.hw95, w2.p);
	for (size_t i = 0; i < N(b1); i++)
		shifted[i] -= w1.hw95 * 0.01;
	CHECK(st_welch(a1, N(a1), shifted, N(b1)).p > 0.05,
	      "a shift under the half-width is not resolved");
	double ratio80 = (st_t_critical(0.05, w1.df) + st_t_quantile(0.8, w1.df)) /
			 st_t_critical(0.05, w1.df);
	CHECK(NEAR(w1.mde / w1.hw95, ratio80, 1e-12) && ratio80 > 1.4 && ratio80 < 1.45,
	      "mde at 80%% power = %.4f x the half-width at df %.1f", w1.mde / w1.hw95, w1.df);

	/*
	 * By hand, equal spread 10% and 3 runs a cell (df 4, se 10 sqrt(2/3) =
	 * 8.16497): (t_.975 2.776445 + t_.80 0.940965) x 8.16497 = 30.3525%.
	 * The 50%-power figure was 2.776445 x 8.16497 = 22.67%.
	 */
	CHECK(NEAR(st_mde_pct(10, 3), 30.3525, 1e-3), "mde of 3 runs at 10%% spread = %.4f",
	      st_mde_pct(10, 3));
	CHECK(isnan(st_mde_pct(10, 1)), "one run resolves nothing");
	/*
	 * Runs needed, same formula, 10% spread: n 4 (df 6) (2.446912 +
	 * 0.905697) x 10 sqrt(1/2) = 23.707; n 5 (df 8) (2.306004 + 0.888889) x
	 * 10 sqrt(2/5) = 20.206; n 6 (df 10) (2.228139 + 0.879058) x 10
	 * sqrt(1/3) = 17.939.  So 22.7% needs 5 runs (3 under the old 50%-power
	 * rule) and 20.2% needs 6.
	 */
	CHECK(st_runs_for(10, 22.7, 100) == 5 && st_runs_for(10, 20.21, 100) == 5 &&
	      st_runs_for(10, 20.2, 100) == 6, "22.7%% and 20.21%% need 5 runs, 20.2%% needs 6");
	CHECK(NEAR(st_mde_pct(10, 5), 20.2063, 1e-3), "mde of 5 runs at 10%% spread = %.4f",
	      st_mde_pct(10, 5));
	/* 1% spread, 2 runs (df 2): (4.302653 + 1.060660) x 1 x 1 = 5.363%. */
	CHECK(st_runs_for(1, 5.4, 100) == 2 && st_runs_for(1, 5, 100) == 3,
	      "1%% spread: 2 runs detect 5.36%%, 5%% needs 3");
	CHECK(st_runs_for(50, 1, 100) == 0, "50%% spread cannot resolve 1%% within 100 runs");

	/*
	 * Ratio of geometric means with Welch on the logs.  a = 100, 110, 121
	 * and b = 90, 99, 108.9: both geometric progressions of step l = ln 1.1
	 * = 0.0953102, geometric means 110 and 99, ratio 0.9 exactly.  Each
	 * log sample has sd l, so se = l sqrt(2/3) = 0.0778201 at df 4; the 95%
	 * interval is 0.9 exp(-+2.776445 x 0.0778201) = [0.72512, 1.11706]; the
	 * mde at 80% power exp((2.776445 + 0.940965) x 0.0778201) - 1 = 0.33548.
	 */
	double ra[] = { 100, 110, 121 }, rb[] = { 90, 99, 108.9 };
	struct ratio q = st_ratio(ra, 3, rb, 3);
	CHECK(q.ok && NEAR(q.est, 0.9, 1e-12), "ratio of geometric means 0.9 (%.6f)", q.est);
	CHECK(NEAR(q.lo, 0.725115, 1e-5) && NEAR(q.hi, 1.117064, 1e-5),
	      "ratio 95%% interval [0.72512, 1.11706] ([%.5f, %.5f])", q.lo, q.hi);
	CHECK(NEAR(q.w.df, 4, 1e-9) && q.w.p > 0.05, "ratio test at df 4 not significant (p %.3f)",
	      q.w.p);
	CHECK(NEAR(q.mde, 0.33548, 1e-4), "ratio mde at 80%% power 0.33548 (%.5f)", q.mde);
	double rz[] = { 100, 0, 121 };
	CHECK(!st_ratio(rz, 3, rb, 3).ok, "no log ratio with a zero value");

	/*
	 * Holm by hand: p 0.01, 0.04, 0.03, 0.005 (n 4).  Sorted: 0.005 x 4 =
	 * 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04, raised to the
	 * running maximum 0.06.  In input order: 0.03, 0.06, 0.06, 0.02.  A NAN
	 * is skipped and does not count in n.
	 */
	double hp[] = { 0.01, 0.04, NAN, 0.03, 0.005 }, ha[5];
	st_holm(hp, 5, ha);
	CHECK(NEAR(ha[0], 0.03, 1e-12) && NEAR(ha[1], 0.06, 1e-12) && isnan(ha[2]) &&
	      NEAR(ha[3], 0.06, 1e-12) && NEAR(ha[4], 0.02, 1e-12),
	      "holm: 0.03 0.06 nan 0.06 0.02 (%.3f %.3f %.3f %.3f %.3f)", ha[0], ha[1], ha[2],
	      ha[3], ha[4]);
	double hb[] = { 0.5, 0.9 }, hba[2];
	st_holm(hb, 2, hba);
	CHECK(NEAR(hba[0], 1, 1e-12) && NEAR(hba[1], 1, 1e-12), "holm caps at 1");

	/*
	 * Wilson 95% by hand (z 1.959964): 0 of 10: [0, z^2 / (10 + z^2)] =
	 * [0, 0.277533]; 5 of 10: centre 0.5, half-width z / (1 + z^2/10) x
	 * sqrt(0.025 + z^2/400) = 0.263407; 1 of 20: [0.008881, 0.236131].
	 */
	double lo, hi;
	st_wilson(0, 10, &lo, &hi);
	CHECK(lo == 0 && NEAR(hi, 0.2775328, 1e-6), "wilson 0/10 = [0, 0.27753] (%.6f)", hi);
	st_wilson(5, 10, &lo, &hi);
	CHECK(NEAR(lo, 0.2365931, 1e-6) && NEAR(hi, 0.7634069, 1e-6), "wilson 5/10");
	st_wilson(1, 20, &lo, &hi);
	CHECK(NEAR(lo, 0.0088814, 1e-6) && NEAR(hi, 0.2361312, 1e-6), "wilson 1/20");
	/* c - h at 0 of 7 and c + h at 10 of 10 round an ulp past p (2.8e-17, 1 - 1.1e-16). */
	st_wilson(0, 7, &lo, &hi);
	CHECK(lo == 0, "wilson 0/7 starts at 0 exactly (%.17g)", lo);
	st_wilson(10, 10, &lo, &hi);
	CHECK(hi == 1, "wilson 10/10 ends at 1 exactly (%.17g)", hi);
	/*
	 * Katz's risk ratio on issue 36's pooled fault-around 4 KB counts: full
	 * 17 + 31 of 6,652 + 9,878, none 18 + 20 of 6,924 + 10,000: RR =
	 * (48/16530)/(38/16924) = 1.29327, se = sqrt(1/48 - 1/16530 + 1/38 -
	 * 1/16924) = 0.216860, exp(-+1.959964 se) = 0.653760, 1.529613: [0.8455,
	 * 1.9782], the "1.29 [0.85, 1.98]".
	 */
	struct risk_ratio rr = st_risk_ratio(48, 16530, 38, 16924);
	CHECK(NEAR(rr.est, 1.29327, 1e-4) && NEAR(rr.lo, 0.84549, 1e-4) && NEAR(rr.hi, 1.97822, 1e-4) &&
	      !rr.corrected, "risk ratio 48/16530 against 38/16924: 1.2933 [%.4f, %.4f]", rr.lo, rr.hi);
	/* 0 of 10 against 2 of 10: Haldane's 0.5 in every cell, 0.5/11 over 2.5/11 = 0.2. */
	rr = st_risk_ratio(0, 10, 2, 10);
	CHECK(rr.corrected && NEAR(rr.est, 0.2, 1e-12) && rr.lo < 0.2 && rr.hi > 1,
	      "risk ratio with a zero count: corrected, 0.2, interval spans 1");
	rr = st_risk_ratio(0, 10, 0, 10);
	CHECK(isnan(rr.est), "risk ratio of no event in either group: not defined");
	/*
	 * Newcombe (1998), Stat Med 17:873, Table II example (a): 56/70 - 48/80
	 * = 0.2000, his method 10 (hybrid score) [0.0524, 0.3339].  0 of 100
	 * against 0 of 100: +- the Wilson upper bound of 0/100, 0.036993.
	 */
	struct share_diff sd = st_share_diff(56, 70, 48, 80);
	CHECK(NEAR(sd.est, 0.2, 1e-12) && NEAR(sd.lo, 0.0524315, 1e-6) && NEAR(sd.hi, 0.3338727, 1e-6),
	      "newcombe 56/70 - 48/80 = 0.2 [%.4f, %.4f]", sd.lo, sd.hi);
	sd = st_share_diff(0, 100, 0, 100);
	CHECK(sd.est == 0 && NEAR(sd.lo, -0.0369935, 1e-6) && NEAR(sd.hi, 0.0369935, 1e-6),
	      "newcombe 0/100 - 0/100 = 0 [-0.037, 0.037]");
	CHECK(isnan(st_share_diff(1, 0, 1, 10).est), "newcombe with an empty group: not defined");
	CHECK(NEAR(st_betai(2, 3, 0.4), 0.5248, 1e-12), "I_0.4(2,3) = 0.5248");
	CHECK(NEAR(st_betai(0.5, 0.5, 0.5), 0.5, 1e-12), "I_0.5(0.5,0.5) = 0.5");

	/*
	 * Paired ratios 0.90, 0.85, 0.92 (b/a of 90/100, 170/200, 46/50), by
	 * hand: logs -0.1053605, -0.1625189, -0.0833816, mean -0.1170870,
	 * sd 0.0408510, se 0.0235853, t_{.975,2} 4.3026527: 0.8895078
	 * [0.8036698, 0.9845139], t -4.96439.  An unpaired ratio of the same
	 * runs would be swamped by the 4x spread between the pairs.
	 */
	double pa[] = { 100, 200, 50 }, pb[] = { 90, 170, 46 };
	struct ratio pr = st_ratio_paired(pa, pb, 3);
	CHECK(pr.ok && NEAR(pr.est, 0.8895078, 1e-6), "paired ratio 0.88951 (%.7f)", pr.est);
	CHECK(NEAR(pr.lo, 0.8036698, 1e-6) && NEAR(pr.hi, 0.9845139, 1e-6),
	      "paired ratio interval [0.80367, 0.98451] ([%.7f, %.7f])", pr.lo, pr.hi);
	CHECK(NEAR(pr.w.t, -4.96439, 1e-4) && pr.w.df == 2 && pr.w.p < 0.05 && pr.w.p > 0.03,
	      "paired t -4.964 at df 2, p between 0.03 and 0.05 (t %.4f, p %.4f)", pr.w.t, pr.w.p);
	CHECK(!st_ratio(pa, 3, pb, 3).ok || st_ratio(pa, 3, pb, 3).hi > 1,
	      "the unpaired interval of the same runs covers 1");
	struct ratio p1 = st_ratio_paired(pa, pb, 1);
	CHECK(!p1.ok && NEAR(p1.est, 0.9, 1e-12) && isnan(p1.lo), "one pair: its ratio, no interval");
	double pz[] = { 100, 0, 50 };
	CHECK(!st_ratio_paired(pa, pz, 3).ok, "no paired ratio with a zero value");
	double pc[] = { 90, 180, 45 };
	struct ratio pk = st_ratio_paired(pa, pc, 3);
	CHECK(pk.ok && NEAR(pk.est, 0.9, 1e-12) && NEAR(pk.lo, 0.9, 1e-12) && NEAR(pk.hi, 0.9, 1e-12),
	      "pairs all 0.9: the interval is 0.9");

	double one[] = { 5 };
	CHECK(!st_welch(one, 1, a1, N(a1)).ok, "welch with one repetition is not computable");
	double c[] = { 3, 3, 3 };
	CHECK(!st_welch(c, 3, c, 3).ok, "welch on identical constant samples is not computable");

	double x[] = { 7, 1, 3, 9, 5, 2 };
	CHECK(NEAR(st_median(x, 6), 4, 1e-12), "median of an even sample");
	CHECK(NEAR(st_median(x, 5), 5, 1e-12), "median of an odd sample");
	CHECK(NEAR(st_percentile(x, 6, 90), 8, 1e-12), "p90 type 7 = 8");
	CHECK(NEAR(st_percentile(x, 6, 99), 8.9, 1e-12), "p99 type 7 = 8.9");
	CHECK(NEAR(st_percentile(x, 6, 0), 1, 1e-12) && NEAR(st_percentile(x, 6, 100), 9, 1e-12),
	      "p0 and p100 are min and max");
	CHECK(NEAR(st_mean(x, 6), 4.5, 1e-12), "mean");
	CHECK(NEAR(st_stddev(x, 6), sqrt(9.5), 1e-12), "sample stddev");
	double r[] = { 40, 60 };
	CHECK(NEAR(st_hmean(r, 2), 48, 1e-12), "harmonic mean of 40 and 60 is 48");
	double g[] = { 2, 8 };
	CHECK(NEAR(st_gmean(g, 2), 4, 1e-12), "geometric mean of 2 and 8 is 4");
	double z[] = { 2, 0 };
	CHECK(st_hmean(z, 2) == 0 && st_gmean(z, 2) == 0, "means of non-positive data are 0");
	return CHECK_DONE();
}
