/*
 * Statistics for comparing repetitions of two cells: the same summaries the
 * kernel's lkp and mmtests tables use, so a reader can check a number the
 * way they are used to.  One copy for the report, the model and bufbench's
 * evidence (Wilson's interval of q_M): libm only, so the static guest
 * binary links it too.
 */
#ifndef PREEMPTLAB_STATISTICS_H
#define PREEMPTLAB_STATISTICS_H

#include <stddef.h>

double st_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1); 0 for n < 2. */
double st_stddev(const double *x, size_t n);
/* Percentile q in [0,100], linear interpolation between order statistics
 * (Hyndman & Fan type 7, R's and numpy's default). x need not be sorted. */
double st_percentile(const double *x, size_t n, double q);
double st_median(const double *x, size_t n);
/* Harmonic mean: the right mean for rates (mmtests uses it for tps). 0 if
 * any value is <= 0. */
double st_hmean(const double *x, size_t n);
/* Geometric mean: 0 if any value is <= 0. */
double st_gmean(const double *x, size_t n);

/* Regularized incomplete beta function I_x(a, b). */
double st_betai(double a, double b, double x);
/* Two-sided p-value of Student's t with df degrees of freedom. */
double st_t_pvalue(double t, double df);
/* The t that st_t_pvalue maps to p (0 < p < 1): 12.71 for p 0.05 at df 1,
 * 1.96 as df grows.  NAN when df <= 0. */
double st_t_critical(double p, double df);
/* The q quantile of Student's t (0 < q < 1): P(T <= t) = q.  NAN when df <= 0. */
double st_t_quantile(double q, double df);

/*
 * The planning convention of the whole lab: a two-sided test at alpha 0.05
 * and 80% power.  An effect of (t_{1-a/2} + t_{1-b}) x SE is detected with
 * that power; t_{1-a/2} x SE alone, the 95% interval's half-width, is
 * detected only half the time.
 */
#define ST_ALPHA 0.05
#define ST_POWER 0.80
/* t_{1-a/2} + t_{power} at df degrees of freedom: 2.7764 + 0.9410 at df 4. */
double st_power_multiplier(double df);

struct welch {
	double t;    /* (mean_b - mean_a) / se */
	double df;   /* Welch-Satterthwaite degrees of freedom */
	double p;    /* two-sided */
	int ok;      /* 0 when not computable (n < 2, or no variance at all) */
	/*
	 * The half-width of the 95% interval of mean_b - mean_a: a true
	 * difference of this size reaches p < 0.05 only half the time (50%
	 * power).  NAN unless ok.
	 */
	double hw95;
	/*
	 * The minimum detectable effect at 80% power, two-sided alpha 0.05:
	 * st_power_multiplier(df) x se.  NAN unless ok.
	 */
	double mde;
};

/*
 * Planning: two cells of n runs each whose runs vary by cv_pct % (stddev
 * over mean) detect, at p < 0.05 with 80% power, differences of at least
 * st_mde_pct(cv_pct, n) % of the mean: (t_{.975} + t_{.80}) at 2n - 2 df,
 * times cv sqrt(2/n).  st_runs_for gives the fewest runs a cell (at least
 * 2) whose mde is within target_pct, from the same formula, or 0 when
 * more than max.
 */
double st_mde_pct(double cv_pct, long n);
long st_runs_for(double cv_pct, double target_pct, long max);

/* Welch's unequal-variance t-test between samples a and b. */
struct welch st_welch(const double *a, size_t na, const double *b, size_t nb);

/*
 * The ratio of b to a as the ratio of their geometric means, with the 95%
 * interval and the test from Welch's t-test on the logarithms: the
 * estimator printed is the one tested.  ok is 0 when a value is <= 0 or
 * Welch's test is not computable on the logs.
 */
struct ratio {
	double est, lo, hi;	/* exp(mean log b - mean log a), 95% interval */
	double mde;		/* 80%-power mde as a ratio's distance from 1: exp(m se) - 1 */
	struct welch w;		/* the test on the logs */
	int ok;
};
struct ratio st_ratio(const double *a, size_t na, const double *b, size_t nb);

/*
 * The ratio of paired samples, b[i] / a[i] (an instrumented run and its
 * bare twin on the same seed): the geometric mean of the n log ratios,
 * exp(mean d), with the 95% interval exp(mean d -+ t_{.975, n-1} sd/sqrt n)
 * and the one-sample t-test of mean d = 0 in w (t, df = n - 1, p, hw95 on
 * the log scale).  Pairing removes what the two runs share (the seed, the
 * boot, the machine's load at that moment).  n == 1 gives the ratio with no
 * interval (lo = hi = NAN, ok 0); ok is 0 too when a value is <= 0.  With
 * no spread at all (every pair the same ratio) the interval is that ratio.
 */
struct ratio st_ratio_paired(const double *a, const double *b, size_t n);

/*
 * Holm's step-down adjustment of n p-values (familywise error): sorted
 * ascending, p_(i) becomes max over j <= i of min(1, (n - j + 1) p_(j)).
 * A comparison is significant at familywise alpha when its adjusted p is
 * below alpha.  NAN p-values stay NAN and do not count in n.
 */
void st_holm(const double *p, size_t n, double *adjusted);

/* Wilson score interval of k successes in n at 95%; 0, 1 bounds when n == 0. */
void st_wilson(double k, double n, double *lo, double *hi);

/*
 * The difference k1/n1 - k0/n0 with Newcombe's hybrid score interval at
 * 95% (his method 10: each share's Wilson interval, combined), which
 * stays inside [-1, 1] and behaves at 0 and n where the Wald interval
 * collapses.  NAN when n1 or n0 is 0.
 */
struct share_diff {
	double est, lo, hi;
};
struct share_diff st_share_diff(double k1, double n1, double k0, double n0);

/*
 * The risk ratio (k1/n1) / (k0/n0) with Katz's 95% log interval,
 * exp(log RR -+ 1.96 sqrt(1/k1 - 1/n1 + 1/k0 - 1/n0)).  A zero count
 * (k1 or k0 == 0, or k == n) takes 0.5 added to every cell (Haldane), and
 * says so in *corrected.  NAN when n0 or n1 is 0, or both k are 0 (no
 * event in either group: nothing to compare).
 */
struct risk_ratio {
	double est, lo, hi;
	int corrected;
};
struct risk_ratio st_risk_ratio(double k1, double n1, double k0, double n0);

#endif
