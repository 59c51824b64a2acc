/* Order statistics over batches: the median and the spread around it. */
#include <stdlib.h>

#include "costbench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Linear interpolation between order statistics (type 7, R's default). */
static double quantile(const double *v, int n, double q)
{
	double h = (n - 1) * q;
	int lo = (int)h;
	if (lo >= n - 1)
		return v[n - 1];
	return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

void costbench_summarize(double *v, int n, struct costbench_summary *s)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = quantile(v, n, 0.5);
	s->p25 = quantile(v, n, 0.25);
	s->p75 = quantile(v, n, 0.75);
}
