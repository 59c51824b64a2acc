/* The closed form and its Monte Carlo interval (see closed.h). */
#include "closed.h"

#include <math.h>
#include <stdlib.h>

#include "rng.h"

double cf_k(double m, double p_f, double q, double t_us)
{
	return m * p_f * q * t_us * 1e-6;
}

double cf_throughput(double x0, double k)
{
	if (k <= 0)
		return x0;
	/* Rationalised form: no cancellation when 4 X0 k is tiny. */
	return 2 * x0 / (1 + sqrt(1 + 4 * x0 * k));
}

double mi_draw(const struct mi_value *v, uint64_t *rng, double min, double max)
{
	double z = mrng_normal(rng);
	double side = z < 0 ? v->v - v->lo : v->hi - v->v;
	double x = v->v + z * side / 1.96;
	if (x < min)
		x = min;
	if (x > max)
		x = max;
	return x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *sorted, int n, double p)
{
	double pos = p * (n - 1);
	int i = (int)pos;
	if (i >= n - 1)
		return sorted[n - 1];
	return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

int cf_predict(const struct model_inputs *in, enum pmodel model, int cpus, int clients,
	       int draws, uint64_t seed, struct cf_pred *out)
{
	if (!in->have_q[model] || !in->have_q[PM_NONE] || draws < 1)
		return -1;
	double x0 = mi_x0_at(in, in->x0_tps.v, cpus, clients);
	double kn = cf_k(in->m.v, in->p_f.v, in->q[PM_NONE].v, in->t_stall_us.v);
	double km = cf_k(in->m.v, in->p_f.v, in->q[model].v, in->t_stall_us.v);
	out->x_none = cf_throughput(x0, kn);
	out->x_model = cf_throughput(x0, km);
	out->kx_none = kn * out->x_none;
	out->kx_model = km * out->x_model;
	out->ratio = out->x_model / out->x_none;
	out->draws = draws;

	double *r = malloc(sizeof(double) * (size_t)draws);
	if (!r)
		return -1;
	uint64_t rng = seed;
	for (int i = 0; i < draws; i++) {
		double dx0 = mi_x0_at(in, mi_draw(&in->x0_tps, &rng, 1e-9, INFINITY), cpus, clients);
		double m = mi_draw(&in->m, &rng, 1e-9, INFINITY);
		double pf = mi_draw(&in->p_f, &rng, 0, 1);
		double t = mi_draw(&in->t_stall_us, &rng, 0, INFINITY);
		double qn = mi_draw(&in->q[PM_NONE], &rng, 0, 1);
		double qm = model == PM_NONE ? qn : mi_draw(&in->q[model], &rng, 0, 1);
		r[i] = cf_throughput(dx0, cf_k(m, pf, qm, t)) / cf_throughput(dx0, cf_k(m, pf, qn, t));
	}
	qsort(r, (size_t)draws, sizeof(double), cmp_double);
	out->lo = pct(r, draws, 0.025);
	out->hi = pct(r, draws, 0.975);
	free(r);
	return 0;
}
