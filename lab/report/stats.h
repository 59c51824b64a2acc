/*
 * Statistics for comparing repetitions of two cells: the same summaries the
 * kernel's lkp and mmtests tables use, so a reader can check a number the
 * way they are used to.
 */
#ifndef PREEMPTLAB_STATS_H
#define PREEMPTLAB_STATS_H

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

struct welch {
	double t;    /* (mean_b - mean_a) / se */
	double df;   /* Welch-Satterthwaite degrees of freedom */
	double p;    /* two-sided */
	int ok;      /* 0 when not computable (n < 2, or no variance at all) */
	/*
	 * The smallest |mean_b - mean_a| these samples could call different
	 * at p < 0.05: the half-width of the difference's 95% interval.  NAN
	 * unless ok.
	 */
	double mde;
};

/*
 * Planning: two cells of n runs each whose runs vary by cv_pct % (stddev
 * over mean) resolve, at p < 0.05, differences of at least
 * st_mde_pct(cv_pct, n) % of the mean.  st_runs_for gives the fewest runs
 * a cell (at least 2) that resolve target_pct, or 0 when more than max.
 */
double st_mde_pct(double cv_pct, long n);
long st_runs_for(double cv_pct, double target_pct, long max);

/* Welch's unequal-variance t-test between samples a and b. */
struct welch st_welch(const double *a, size_t na, const double *b, size_t nb);

#endif
