/* The blind prediction over the whole run with the rules' spans (see blind.h). */
#include "blind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channels.h"
#include "closed.h"
#include "rng.h"

static const char *const names[BL_INPUTS] = { "p_f", "T", "m", "d_f", "q" };
static const char *const measurements[BL_INPUTS] = {
	"p_f at 1024 clients on the 96-vCPU machine (holds_with_fault / holds, EVIDENCE=on)",
	"T at 96 vCPUs (a descheduled faulting holder's time off CPU plus the free tail)",
	"m in the report's fill (strategy-lock acquisitions per transaction, pgbench at scale 8470)",
	"the fault's own length on Graviton4 (costbench --procs at 1024 processes)",
	"q_M / q_none at 96 vCPUs (faulting holders descheduled before release, per model)",
};

const char *bl_input_name(enum bl_input i)
{
	return i < BL_INPUTS ? names[i] : "?";
}

const char *bl_measurement(enum bl_input i)
{
	return i < BL_INPUTS ? measurements[i] : "?";
}

static struct bl_span span(double a, double b)
{
	struct bl_span s = { fmin(a, b), fmax(a, b) };
	return s;
}

int bl_bounds_for(const struct model_inputs *in, const struct extrap_target *t, struct bl_bounds *b,
		  char *err, size_t errlen)
{
	struct model_inputs moved;
	struct extrap_trace tr;
	memset(b, 0, sizeof(*b));
	if (extrap_apply(in, t, &moved, &tr, err, errlen) != 0)
		return -1;
	b->window = tr.w_target;
	b->pool = t->pool_pages;
	b->clients = t->clients;
	b->cpus = t->cpus;
	/* L with runs of pops as on the measured CPUs (moved by runnable per CPU only), down to 1. */
	double r_t = (double)t->clients / t->cpus, r_m = (double)in->clients / in->cpus;
	double l_hi = tr.l_measured > 0 ? tr.l_measured * pow(r_t / r_m, -XR_RUNS_B)
					: XR_RUNS_A * pow(r_t, -XR_RUNS_B);
	b->l = span(1, fmax(1, l_hi));
	b->pf = span(extrap_pf_runs(t->clients, b->window, b->pool, b->l.hi),
		     extrap_pf_runs(t->clients, b->window, b->pool, 1));
	double tail = in->t_tail_us > 0 ? in->t_tail_us : in->t_stall_us.lo;
	b->t_us = span(tail, tr.t_target_us > 0 ? tr.t_target_us : moved.t_stall_us.v);
	b->m = span(in->m.v, fmax(in->m.v, BL_M_HI));
	b->fault_measured_us = inputs_dist_mean(&in->fault_us);
	b->fault_us = span(BL_FAULT_LO_US, fmax(BL_FAULT_LO_US, b->fault_measured_us));
	return 0;
}

/* One draw of everything a prediction needs. */
struct draw {
	double pf, t, m, df, qn, qm, h;
};

static double logu(struct bl_span s, double u)
{
	return s.lo * pow(s.hi / s.lo, u);
}

static void make_draw(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model,
		      int fixed, uint64_t *rng, struct draw *d)
{
	/* Every stream is consumed whether fixed or not, so fixing one input leaves the others' draws. */
	double u[4];
	for (int i = 0; i < 4; i++)
		u[i] = mrng_unit(rng);
	double qn = inputs_draw(&in->q[PM_NONE], rng, 0, 1);
	double qm = model == PM_NONE ? qn : inputs_draw(&in->q[model], rng, 0, 1);
	d->h = inputs_draw(&in->hold_us, rng, 0, INFINITY);
	double l = logu(b->l, fixed == BL_PF ? 0.5 : u[0]);
	d->pf = extrap_pf_runs(b->clients, b->window, b->pool, l);
	d->t = logu(b->t_us, fixed == BL_T ? 0.5 : u[1]);
	d->m = logu(b->m, fixed == BL_M ? 0.5 : u[2]);
	d->df = logu(b->fault_us, fixed == BL_FAULT ? 0.5 : u[3]);
	if (fixed == BL_Q) {
		qn = in->q[PM_NONE].v;
		qm = in->q[model].v;
	}
	/* A request lands inside a fault in proportion to its length: q moves with d_f. */
	double f = b->fault_measured_us > 0 ? d->df / b->fault_measured_us : 1;
	d->qn = fmin(1, qn * f);
	d->qm = fmin(1, qm * f);
}

/* Transactions per second averaged over the run, and the fill's length. */
static double run_avg(double x0, int n, double m, double s, double k, double pool, double run_s,
		      double *fill_s)
{
	double xfill = closed_throughput(closed_free(x0, n, m, s), k);
	double tf = pool / (m * xfill);
	*fill_s = tf;
	if (tf >= run_s)
		return xfill;
	return (pool / m + x0 * (run_s - tf)) / run_s;
}

/* The X0 that gives none x over the run; -1 when none can. */
static int anchor(double x, int n, double m, double s, double k, double pool, double run_s, double *x0)
{
	double lo = x, hi = 2 * x, tf;
	while (run_avg(hi, n, m, s, k, pool, run_s, &tf) < x) {
		lo = hi;
		hi *= 2;
		if (hi > 1e13)
			return -1;
	}
	for (int i = 0; i < 80 && hi - lo > 1e-9 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (run_avg(mid, n, m, s, k, pool, run_s, &tf) < x)
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

static struct bl_stat stat_of(double *v, int n)
{
	struct bl_stat s = { NAN, NAN, NAN };
	if (n < 1)
		return s;
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	s.med = closed_pct(v, n, 0.5);
	s.lo = closed_pct(v, n, 0.025);
	s.hi = closed_pct(v, n, 0.975);
	return s;
}

/* draws of the run ratio (and, when full, the rest) with input `fixed` at its middle (-1: none). */
static int sweep(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model, double x,
		 double run_s, int draws, uint64_t seed, int fixed, struct bl_result *out, int full)
{
	double *v = malloc(sizeof(double) * (size_t)draws * 4);
	if (!v)
		return -1;
	double *run = v, *fill = v + draws, *fn = v + 2 * draws, *fm = v + 3 * draws;
	uint64_t rng = seed;
	int kept = 0;
	for (int i = 0; i < draws; i++) {
		struct draw d;
		make_draw(in, b, model, fixed, &rng, &d);
		double s = closed_service_s(d.h, d.pf, d.df);
		double kn = closed_k(d.m, d.pf, d.qn, d.t) + ch_k(in, PM_NONE, b->cpus, d.m, d.pf, NULL);
		double km = closed_k(d.m, d.pf, d.qm, d.t) + ch_k(in, model, b->cpus, d.m, d.pf, NULL);
		double x0, tn, tm;
		if (anchor(x, b->clients, d.m, s, kn, b->pool, run_s, &x0) != 0)
			continue;
		double an = run_avg(x0, b->clients, d.m, s, kn, b->pool, run_s, &tn);
		double am = run_avg(x0, b->clients, d.m, s, km, b->pool, run_s, &tm);
		double xf = closed_free(x0, b->clients, d.m, s);
		run[kept] = am / an;
		fill[kept] = closed_throughput(xf, km) / closed_throughput(xf, kn);
		fn[kept] = tn;
		fm[kept] = tm;
		kept++;
	}
	struct bl_stat r = stat_of(run, kept);
	if (full) {
		out->run = r;
		out->fill = stat_of(fill, kept);
		out->fill_s_none = stat_of(fn, kept);
		out->fill_s_model = stat_of(fm, kept);
		out->kept = kept;
		out->draws = draws;
		out->width = r.hi - r.lo;
	} else {
		out->width_fixed[fixed] = r.hi - r.lo;
	}
	free(v);
	return kept;
}

int bl_predict(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model,
	       double x_none_run, double run_s, int draws, uint64_t seed, struct bl_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!in->have_q[model] || !in->have_q[PM_NONE] || draws < 2)
		return -1;
	if (sweep(in, b, model, x_none_run, run_s, draws, seed, -1, out, 1) < 1)
		return -1;
	for (int i = 0; i < BL_INPUTS; i++)
		sweep(in, b, model, x_none_run, run_s, draws, seed, i, out, 0);
	return 0;
}

int bl_predict_run(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model,
		   double x_none_run, double run_s, int draws, uint64_t seed, struct bl_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!in->have_q[model] || !in->have_q[PM_NONE] || draws < 2)
		return -1;
	return sweep(in, b, model, x_none_run, run_s, draws, seed, -1, out, 1) < 1 ? -1 : 0;
}
