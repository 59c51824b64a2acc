/* The extrapolation rules (see extrap.h). */
#include "extrap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "closed.h"
#include "eevdf.h"

#define DESC_BYTES 64.0

double extrap_window(const char *page, int fault_around_pages)
{
	if (strcmp(page, "4k") == 0)
		return (fault_around_pages > 0 ? fault_around_pages : 1) * 4096 / DESC_BYTES;
	/* hugetlb has no fault-around: one fault maps one huge page. */
	if (strcmp(page, "2m") == 0 || strcmp(page, "try-2m") == 0)
		return 2097152 / DESC_BYTES;
	if (strcmp(page, "1g") == 0 || strcmp(page, "try-1g") == 0)
		return 1073741824 / DESC_BYTES;
	return 0;
}

void extrap_report_target(struct extrap_target *t, const char *page)
{
	memset(t, 0, sizeof(*t));
	t->cpus = XR_REPORT_CPUS;
	t->clients = XR_REPORT_CLIENTS;
	t->hz = XR_REPORT_HZ;
	t->pool_pages = XR_REPORT_POOL_PAGES;
	t->fault_around_pages = XR_REPORT_FAULT_AROUND;
	snprintf(t->page, sizeof(t->page), "%s", page);
}

double extrap_pf_raw(double n, double w, double d)
{
	if (n <= 0 || w <= 0 || d <= 0)
		return 0;
	double wp = w < d ? w : d;
	double windows = ceil(d / wp);
	return n / wp * -expm1(-wp / n) * (windows - 1) / windows;
}

double extrap_pf_runs(double n, double w, double d, double runs)
{
	if (n <= 0 || w <= 0 || d <= 0 || runs <= 0)
		return 0;
	double wp = w < d ? w : d;
	double windows = ceil(d / wp);
	return n / wp * -expm1(-wp / (runs * n)) * (windows - 1) / windows;
}

double extrap_runs_solve(double n, double w, double d, double p_f)
{
	if (p_f <= 0 || extrap_pf_raw(n, w, d) <= 0)
		return 0;
	if (p_f >= extrap_pf_raw(n, w, d))
		return 1;
	/* p_f falls as L grows: bisect ln L in [0, ln 1e6]. */
	double lo = 0, hi = log(1e6);
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (extrap_pf_runs(n, w, d, exp(mid)) > p_f)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

void extrap_runs_fit(const double *r, const double *l, int n, double *a, double *b)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0;
	for (int i = 0; i < n; i++) {
		mx += log(r[i]) / n;
		my += log(l[i]) / n;
	}
	for (int i = 0; i < n; i++) {
		sxy += (log(r[i]) - mx) * (log(l[i]) - my);
		sxx += (log(r[i]) - mx) * (log(r[i]) - mx);
	}
	*b = sxx > 0 ? -sxy / sxx : 0;
	*a = exp(my + *b * mx);
}

/* A task runs its slice out to the tick that notices it is over. */
static double in_ticks(double ms, int hz)
{
	double tick = 1000.0 / hz;
	return ceil(ms / tick - 1e-9) * tick;
}

double extrap_slice_ms(int cpus, int hz)
{
	return in_ticks(eevdf_slice_ns(cpus) / 1e6, hz);
}

/*
 * sched/base_slice_ns writes sysctl_sched_base_slice itself, the value
 * after the CPU scaling: what is set is what every new placement gets.
 */
double extrap_slice_set_ms(double base_slice_us, int hz)
{
	return in_ticks(base_slice_us / 1000, hz);
}

static void scale_value(struct inputs_value *v, double f, double max)
{
	v->v *= f;
	v->lo *= f;
	v->hi *= f;
	if (v->hi > max)
		v->hi = max;
	if (v->v > max)
		v->v = max;
	if (v->lo > v->v)
		v->lo = v->v;
}

int extrap_apply(const struct model_inputs *in, const struct extrap_target *t, struct model_inputs *out,
	     struct extrap_trace *tr, char *err, size_t errlen)
{
	memset(tr, 0, sizeof(*tr));
	if (in->pool_pages <= 0 || in->fault_around_pages == 0) {
		snprintf(err, errlen, "the inputs lack pool_pages or fault_around_pages (written by "
			 "make model): the p_f rule needs them");
		return -1;
	}
	tr->w_measured = extrap_window(in->page_size, in->fault_around_pages);
	tr->w_target = extrap_window(t->page, t->fault_around_pages);
	if (tr->w_measured <= 0 || tr->w_target <= 0) {
		snprintf(err, errlen, "page size %s or %s: no fault window known", in->page_size, t->page);
		return -1;
	}
	*out = *in;
	snprintf(out->page_size, sizeof(out->page_size), "%s", t->page);
	out->hz = t->hz;
	out->fault_around_pages = t->fault_around_pages;
	out->pool_pages = t->pool_pages;

	tr->pf_raw_measured = extrap_pf_raw(in->clients, tr->w_measured, in->pool_pages);
	tr->pf_raw_target = extrap_pf_raw(t->clients, tr->w_target, t->pool_pages);
	tr->s_measured = tr->pf_raw_measured > 0 ? in->p_f.v / tr->pf_raw_measured : 1;
	/* Runs of pops: solved at the measurement, moved by runnable per CPU, then by CPUs. */
	double r_t = (double)t->clients / t->cpus;
	tr->l_measured = extrap_runs_solve(in->clients, tr->w_measured, in->pool_pages, in->p_f.v);
	double l_at, c_from;
	if (tr->l_measured > 0) {
		l_at = tr->l_measured * pow(r_t / ((double)in->clients / in->cpus), -XR_RUNS_B);
		c_from = in->cpus;
	} else {
		/* Nothing faulted where measured (2 MB, or one window): the fit's own curve. */
		l_at = XR_RUNS_A * pow(r_t, -XR_RUNS_B);
		c_from = XR_RUNS_C;
		tr->l_from_fit = 1;
	}
	l_at = fmax(1, l_at);
	double cr = c_from / t->cpus;
	tr->l_target = 1 + (l_at - 1) * (cr < 1 ? cr : 1);
	double pf = extrap_pf_runs(t->clients, tr->w_target, t->pool_pages, tr->l_target);
	tr->s_target = tr->pf_raw_target > 0 ? pf / tr->pf_raw_target : 1;
	if (in->p_f.v > 0) {
		scale_value(&out->p_f, pf / in->p_f.v, 1);
	} else {
		out->p_f.v = out->p_f.lo = out->p_f.hi = pf > 1 ? 1 : pf;
	}

	tr->slice_measured_ms = extrap_slice_ms(in->cpus, in->hz);
	tr->slice_target_ms = t->base_slice_us > 0 ? extrap_slice_set_ms(t->base_slice_us, t->hz)
						   : extrap_slice_ms(t->cpus, t->hz);
	tr->run_measured = fmax(1, (double)in->clients / in->cpus);
	tr->run_target = fmax(1, (double)t->clients / t->cpus);
	double f = tr->run_target * tr->slice_target_ms / (tr->run_measured * tr->slice_measured_ms);
	double t_parts = in->t_offcpu_us + in->t_tail_us;
	if (t_parts > 0) {
		tr->t_offcpu_target_us = in->t_offcpu_us * f;
		tr->t_target_us = tr->t_offcpu_target_us + in->t_tail_us;
		/* The parts are pooled means; T's own value and interval move by their factor. */
		scale_value(&out->t_stall_us, tr->t_target_us / t_parts, INFINITY);
	} else {
		/* Without the parts the whole T scales. */
		scale_value(&out->t_stall_us, f, INFINITY);
		tr->t_offcpu_target_us = tr->t_target_us = out->t_stall_us.v;
	}
	out->cpus = in->cpus;	/* X0 is moved by inputs_x0_at from where it was measured */
	out->clients = in->clients;
	/* X0 at another page size, or with the target's fault cost, from the faults' own CPU. */
	if (inputs_page_index(t->page) != inputs_page_index(in->page_size) || t->faults_per_txn > 0 ||
	    (t->fault_map_scale > 0 && t->fault_map_scale != 1)) {
		struct model_inputs moved;
		struct model_inputs keep = *in;
		/* Without what the rule needs X0 stays as measured, and the trace says why. */
		if (x0page_move(&keep, t->page, t->faults_per_txn, t->fault_map_scale, &moved, &tr->x0,
			     tr->x0_why, sizeof(tr->x0_why)) == 0) {
			out->x0_tps = moved.x0_tps;
			out->faults_per_txn = moved.faults_per_txn;
			tr->x0_moved = 1;
		}
	}
	return 0;
}

int extrap_anchor_none(struct model_inputs *in, double xnone, int cpus, int clients)
{
	double kn = closed_k(in->m.v, in->p_f.v, in->q[PM_NONE].v, in->t_stall_us.v);
	double s = closed_service_s(in->hold_us.v, in->p_f.v, inputs_dist_mean(&in->fault_us));
	double x0;
	if (closed_x0_for(xnone, kn, clients, in->m.v, s, &x0) != 0)
		return -1;
	double f = x0 / inputs_x0_at(in, in->x0_tps.v, cpus, clients);
	in->x0_tps.v *= f;
	in->x0_tps.lo *= f;
	in->x0_tps.hi *= f;
	return 0;
}
