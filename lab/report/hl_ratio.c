#include "hl_ratio.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

struct hl_ratio hl_ratio(const double *a, size_t na, const double *b, size_t nb)
{
	struct hl_ratio r = { NAN, NAN, NAN, NAN, 0 };
	if (na < 2 || nb < 2)
		return r;
	for (size_t i = 0; i < na; i++)
		if (!(a[i] > 0))
			return r;
	for (size_t j = 0; j < nb; j++)
		if (!(b[j] > 0))
			return r;
	size_t m = na * nb;
	double *d = malloc(m * sizeof(*d));
	if (!d)
		return r;
	/* U counts pairs with b above a, ties half: the test beside the estimate. */
	double u = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			double x = log(b[j]) - log(a[i]);
			d[i * nb + j] = x;
			u += x > 0 ? 1 : x == 0 ? 0.5 : 0;
		}
	qsort(d, m, sizeof(*d), cmp_double);
	double med = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
	double n1 = (double)na, n2 = (double)nb;
	double mu = n1 * n2 / 2, sd = sqrt(n1 * n2 * (n1 + n2 + 1) / 12);
	/* The interval's ends are the kth smallest and kth largest differences
	 * (1-based), k = floor(n1 n2 / 2 - z sd), at least 1. */
	long k = (long)floor(mu - 1.959963984540054 * sd);
	if (k < 1)
		k = 1;
	r.est = exp(med);
	r.lo = exp(d[k - 1]);
	r.hi = exp(d[m - (size_t)k]);
	double z = (fabs(u - mu) - 0.5) / sd;	/* continuity-corrected */
	r.p = z > 0 ? erfc(z / sqrt(2)) : 1;
	r.ok = 1;
	free(d);
	return r;
}
