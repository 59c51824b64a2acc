/* The closed form, the lock's capacity and the Monte Carlo interval (see closed.h). */
#include "closed.h"

#include <math.h>
#include <stdlib.h>

#include "channels.h"
#include "stall.h"
#include "rng.h"

double closed_throughput(double x_free, double k)
{
	if (k <= 0)
		return x_free;
	return x_free / (1 + x_free * k);
}

double closed_stalled_share(double x_free, double k)
{
	if (k <= 0)
		return 0;
	/* X k = X_free k / (1 + X_free k), written so that it cannot round to 1 early. */
	return 1 / (1 + 1 / (x_free * k));
}

double closed_lock_rate(int n, double think_s, double service_s)
{
	if (service_s <= 0)
		return think_s > 0 ? n / think_s : INFINITY;
	/* Exact MVA, one queueing station (the lock) and one delay (the think time). */
	double q = 0, rate = 0;
	for (int i = 1; i <= n; i++) {
		double r = service_s * (1 + q);
		rate = i / (r + think_s);
		q = rate * r;
	}
	return rate;
}

double closed_service_s(double hold_us, double p_f, double fault_us)
{
	return (hold_us + p_f * fault_us) * 1e-6;
}

double closed_free(double x0_cpu, int n, double m, double service_s)
{
	if (service_s <= 0 || m <= 0 || n < 1)
		return x0_cpu;
	/* What the CPU-bound fill leaves between one backend's lock needs. */
	double think = n / (m * x0_cpu) - service_s;
	if (think < 0)
		think = 0;
	return closed_lock_rate(n, think, service_s) / m;
}

static double model_x(double x0, double k, int n, double m, double s)
{
	return closed_throughput(closed_free(x0, n, m, s), k);
}

int closed_x0_for(double x, double k, int n, double m, double service_s, double *x0)
{
	if (!(x > 0) || x * k >= 1 || x * (m * service_s + k) >= 1)
		return -1;
	double lo = x, hi = 2 * x;
	while (model_x(hi, k, n, m, service_s) < x) {
		lo = hi;
		hi *= 2;
		if (hi > 1e18)
			return -1;
	}
	/* X grows with x0: bisect to a relative 1e-12. */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (model_x(mid, k, n, m, service_s) < x)
			lo = mid;
		else
			hi = mid;
	}
	*x0 = (lo + hi) / 2;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double closed_pct(const double *sorted, int n, double p)
{
	double pos = p * (n - 1);
	int i = (int)pos;
	if (i >= n - 1)
		return sorted[n - 1];
	return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

int closed_predict(const struct model_inputs *in, enum pmodel model, int cpus, int clients,
	       int draws, uint64_t seed, struct closed_pred *out)
{
	if (!in->have_q[model] || !in->have_q[PM_NONE] || draws < 1)
		return -1;
	double x0 = inputs_x0_at(in, in->x0_tps.v, cpus, clients);
	double fault = inputs_dist_mean(&in->fault_us);
	double s = closed_service_s(in->hold_us.v, in->p_f.v, fault);
	/* Holder descheduling (q_M T), plus every other channel measured and applicable here. */
	double kn = closed_k(in->m.v, in->p_f.v, in->q[PM_NONE].v, in->t_stall_us.v) +
		    ch_k(in, PM_NONE, cpus, in->m.v, in->p_f.v, NULL);
	double km = closed_k(in->m.v, in->p_f.v, in->q[model].v, in->t_stall_us.v) +
		    ch_k(in, model, cpus, in->m.v, in->p_f.v, NULL);
	out->x_free = closed_free(x0, clients, in->m.v, s);
	out->x_lock = s > 0 ? 1 / (in->m.v * s) : INFINITY;
	out->service_us = s * 1e6;
	out->x_none = closed_throughput(out->x_free, kn);
	out->x_model = closed_throughput(out->x_free, km);
	out->kx_none = closed_stalled_share(out->x_free, kn);
	out->kx_model = closed_stalled_share(out->x_free, km);
	out->ratio = out->x_model / out->x_none;
	out->draws = draws;

	double *r = malloc(sizeof(double) * (size_t)draws);
	if (!r)
		return -1;
	uint64_t rng = seed;
	for (int i = 0; i < draws; i++) {
		double dx0 = inputs_x0_at(in, inputs_draw(&in->x0_tps, &rng, 1e-9, INFINITY), cpus, clients);
		double m = inputs_draw(&in->m, &rng, 1e-9, INFINITY);
		double pf = inputs_draw(&in->p_f, &rng, 0, 1);
		double t = inputs_draw(&in->t_stall_us, &rng, 0, INFINITY);
		double qn = inputs_draw(&in->q[PM_NONE], &rng, 0, 1);
		double qm = model == PM_NONE ? qn : inputs_draw(&in->q[model], &rng, 0, 1);
		double h = inputs_draw(&in->hold_us, &rng, 0, INFINITY);
		double xf = closed_free(dx0, clients, m, closed_service_s(h, pf, fault));
		double cn = ch_k(in, PM_NONE, cpus, m, pf, &rng);
		double cm = model == PM_NONE ? cn : ch_k(in, model, cpus, m, pf, &rng);
		r[i] = closed_throughput(xf, closed_k(m, pf, qm, t) + cm) / closed_throughput(xf, closed_k(m, pf, qn, t) + cn);
	}
	qsort(r, (size_t)draws, sizeof(double), cmp_double);
	out->lo = closed_pct(r, draws, 0.025);
	out->hi = closed_pct(r, draws, 0.975);
	free(r);
	return 0;
}
