/*
 * Statistics with libm only.  The t distribution's p-value goes through the
 * regularized incomplete beta function, evaluated by its continued fraction
 * (modified Lentz), which converges quickly for the small degrees of
 * freedom a handful of repetitions gives.
 */
#include "statistics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double st_mean(const double *x, size_t n)
{
	double s = 0;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double st_stddev(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	double m = st_mean(x, n), s = 0;
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double st_percentile(const double *x, size_t n, double q)
{
	if (!n)
		return 0;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	if (q < 0)
		q = 0;
	if (q > 100)
		q = 100;
	double h = (double)(n - 1) * q / 100.0;
	size_t lo = (size_t)floor(h);
	size_t hi = lo + 1 < n ? lo + 1 : lo;
	double r = s[lo] + (h - (double)lo) * (s[hi] - s[lo]);
	free(s);
	return r;
}

double st_median(const double *x, size_t n)
{
	return st_percentile(x, n, 50);
}

double st_hmean(const double *x, size_t n)
{
	double s = 0;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return 0;
		s += 1.0 / x[i];
	}
	return (double)n / s;
}

double st_gmean(const double *x, size_t n)
{
	double s = 0;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return 0;
		s += log(x[i]);
	}
	return exp(s / (double)n);
}

/* Continued fraction for I_x(a,b), valid for x < (a+1)/(a+b+2). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double st_betai(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		     b * log1p(-x);
	double bt = exp(lbt);
	/* Use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where it converges. */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double st_t_pvalue(double t, double df)
{
	if (!isfinite(t))
		return 0;
	if (df <= 0)
		return NAN;
	return st_betai(df / 2, 0.5, df / (df + t * t));
}

double st_t_critical(double p, double df)
{
	if (df <= 0 || !(p > 0 && p < 1))
		return NAN;
	/* The p-value falls as t grows: bisect, 200 halvings are exact enough. */
	double lo = 0, hi = 1;
	while (st_t_pvalue(hi, df) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (st_t_pvalue(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double st_t_quantile(double q, double df)
{
	if (df <= 0 || !(q > 0 && q < 1))
		return NAN;
	if (q == 0.5)
		return 0;
	double t = st_t_critical(2 * (q > 0.5 ? 1 - q : q), df);
	return q > 0.5 ? t : -t;
}

double st_power_multiplier(double df)
{
	return st_t_quantile(1 - ST_ALPHA / 2, df) + st_t_quantile(ST_POWER, df);
}

double st_mde_pct(double cv_pct, long n)
{
	if (n < 2)
		return NAN;
	/* Equal n and spread: Welch's df is 2n - 2 and its se cv * sqrt(2/n). */
	return st_power_multiplier(2.0 * (double)n - 2) * cv_pct * sqrt(2.0 / (double)n);
}

long st_runs_for(double cv_pct, double target_pct, long max)
{
	for (long n = 2; n <= max; n++)
		if (st_mde_pct(cv_pct, n) <= target_pct)
			return n;
	return 0;
}

struct welch st_welch(const double *a, size_t na, const double *b, size_t nb)
{
	struct welch w = { NAN, NAN, NAN, 0, NAN, NAN };
	if (na < 2 || nb < 2)
		return w;
	double ma = st_mean(a, na), mb = st_mean(b, nb);
	double sa = st_stddev(a, na), sb = st_stddev(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb;
	if (va + vb == 0) {
		/* Identical constant samples: no spread to judge a difference by. */
		return w;
	}
	w.t = (mb - ma) / sqrt(va + vb);
	w.df = (va + vb) * (va + vb) /
	       (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	w.p = st_t_pvalue(w.t, w.df);
	w.hw95 = st_t_critical(ST_ALPHA, w.df) * sqrt(va + vb);
	w.mde = st_power_multiplier(w.df) * sqrt(va + vb);
	w.ok = 1;
	return w;
}

struct ratio st_ratio(const double *a, size_t na, const double *b, size_t nb)
{
	struct ratio r = { NAN, NAN, NAN, NAN, { NAN, NAN, NAN, 0, NAN, NAN }, 0 };
	double *la = malloc((na + 1) * sizeof(*la)), *lb = malloc((nb + 1) * sizeof(*lb));
	if (!la || !lb) {
		free(la);
		free(lb);
		return r;
	}
	int pos = 1;
	for (size_t i = 0; i < na; i++) {
		pos &= a[i] > 0;
		la[i] = a[i] > 0 ? log(a[i]) : 0;
	}
	for (size_t i = 0; i < nb; i++) {
		pos &= b[i] > 0;
		lb[i] = b[i] > 0 ? log(b[i]) : 0;
	}
	if (pos && na && nb) {
		double d = st_mean(lb, nb) - st_mean(la, na);
		r.est = exp(d);
		r.w = st_welch(la, na, lb, nb);
		if (r.w.ok) {
			r.lo = exp(d - r.w.hw95);
			r.hi = exp(d + r.w.hw95);
			r.mde = exp(r.w.mde) - 1;
			r.ok = 1;
		}
	}
	free(la);
	free(lb);
	return r;
}

void st_holm(const double *p, size_t n, double *adjusted)
{
	size_t *ord = malloc((n + 1) * sizeof(*ord)), m = 0;
	if (!ord)
		return;
	for (size_t i = 0; i < n; i++) {
		adjusted[i] = NAN;
		if (!isnan(p[i]))
			ord[m++] = i;
	}
	/* Insertion sort by p: a report has tens of comparisons, not thousands. */
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && p[ord[j]] < p[ord[j - 1]]; j--) {
			size_t x = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = x;
		}
	double run = 0;
	for (size_t i = 0; i < m; i++) {
		double v = (double)(m - i) * p[ord[i]];
		run = fmax(run, fmin(1, v));
		adjusted[ord[i]] = run;
	}
	free(ord);
}

void st_wilson(double k, double n, double *lo, double *hi)
{
	if (n <= 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	const double z = 1.959963984540054;
	double ph = k / n, z2 = z * z;
	double c = (ph + z2 / (2 * n)) / (1 + z2 / n);
	double h = z / (1 + z2 / n) * sqrt(ph * (1 - ph) / n + z2 / (4 * n * n));
	/* At k = 0 and k = n the bound is p itself, which c -+ h misses by an ulp. */
	*lo = k <= 0 ? 0 : fmax(0, c - h);
	*hi = k >= n ? 1 : fmin(1, c + h);
}

struct share_diff st_share_diff(double k1, double n1, double k0, double n0)
{
	struct share_diff d = { NAN, NAN, NAN };
	if (n1 <= 0 || n0 <= 0)
		return d;
	double p1 = k1 / n1, p0 = k0 / n0, l1, u1, l0, u0;
	st_wilson(k1, n1, &l1, &u1);
	st_wilson(k0, n0, &l0, &u0);
	d.est = p1 - p0;
	d.lo = d.est - sqrt((p1 - l1) * (p1 - l1) + (u0 - p0) * (u0 - p0));
	d.hi = d.est + sqrt((u1 - p1) * (u1 - p1) + (p0 - l0) * (p0 - l0));
	return d;
}

struct risk_ratio st_risk_ratio(double k1, double n1, double k0, double n0)
{
	struct risk_ratio r = { NAN, NAN, NAN, 0 };
	if (n1 <= 0 || n0 <= 0 || (k1 <= 0 && k0 <= 0))
		return r;
	if (k1 <= 0 || k0 <= 0 || k1 >= n1 || k0 >= n0) {
		k1 += 0.5, k0 += 0.5, n1 += 1, n0 += 1;
		r.corrected = 1;
	}
	const double z = 1.959963984540054;
	double l = log((k1 / n1) / (k0 / n0)), se = sqrt(1 / k1 - 1 / n1 + 1 / k0 - 1 / n0);
	r.est = exp(l);
	r.lo = exp(l - z * se);
	r.hi = exp(l + z * se);
	return r;
}

struct ratio st_ratio_paired(const double *a, const double *b, size_t n)
{
	struct ratio r = { .est = NAN, .lo = NAN, .hi = NAN, .mde = NAN };
	r.w.t = r.w.df = r.w.p = r.w.hw95 = r.w.mde = NAN;
	if (n == 0)
		return r;
	double *d = malloc(n * sizeof(*d));
	if (!d)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0)) {
			free(d);
			return r;
		}
		d[i] = log(b[i] / a[i]);
	}
	double m = st_mean(d, n), sd = st_stddev(d, n);
	free(d);
	r.est = exp(m);
	if (n < 2)
		return r;
	double se = sd / sqrt((double)n), df = (double)n - 1;
	r.w.df = df;
	r.w.hw95 = st_t_critical(ST_ALPHA, df) * se;
	r.w.mde = st_power_multiplier(df) * se;
	r.lo = exp(m - r.w.hw95);
	r.hi = exp(m + r.w.hw95);
	r.mde = exp(r.w.mde) - 1;
	if (se > 0) {
		r.w.t = m / se;
		r.w.p = st_t_pvalue(r.w.t, df);
	} else {
		r.w.t = m == 0 ? 0 : (m > 0 ? INFINITY : -INFINITY);
		r.w.p = m == 0 ? 1 : 0;
	}
	r.w.ok = 1;
	r.ok = 1;
	return r;
}
