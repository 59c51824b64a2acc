/*
 * The ratio of two samples' typical values, robust to the odd batch that
 * an interrupt storm or a kernel thread inflated: the Hodges-Lehmann shift
 * of the logarithms (the median of all pairwise differences log b_j -
 * log a_i), exponentiated, with the distribution-free 95% interval that
 * inverts the Mann-Whitney test (normal approximation of U's
 * distribution), and that test's two-sided p.  The estimator printed is
 * the one the interval and the test are about.  costbench's batches need
 * it: under icount most are identical to a few instructions while one in
 * seven carries some other task's work, which moves a ratio of means.
 */
#ifndef PREEMPTLAB_HL_RATIO_H
#define PREEMPTLAB_HL_RATIO_H

#include <stddef.h>

struct hl_ratio {
	double est, lo, hi, p;
	int ok;		/* 0: a value <= 0, or fewer than 2 on a side */
};

struct hl_ratio hl_ratio(const double *a, size_t na, const double *b, size_t nb);

#endif
