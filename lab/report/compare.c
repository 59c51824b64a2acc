/*
 * Tables show medians (robust with few repetitions) and lkp's %stddev; the
 * change and the star come from one estimator: the ratio of geometric
 * means and Welch's t-test on the logarithms (no equal-variance
 * assumption: a preempted lock holder widens the spread of the bad cell),
 * or, where a value is 0, the means and Welch's test on the values.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool side_of(const struct cell *c, const struct metric *m, struct side *s)
{
	double *v = calloc(c->nruns + 1, sizeof(*v));
	if (!v)
		exit(1);
	memset(s, 0, sizeof(*s));
	s->n = metric_values(m, c, v);
	if (s->n) {
		s->median = st_median(v, s->n);
		s->mean = st_mean(v, s->n);
		s->hmean = st_hmean(v, s->n);
		s->gmean = st_gmean(v, s->n);
		s->stddev = st_stddev(v, s->n);
		s->pct_stddev = s->mean != 0 ? 100 * s->stddev / fabs(s->mean) : 0;
		s->min = st_percentile(v, s->n, 0);
		s->max = st_percentile(v, s->n, 100);
	}
	free(v);
	return s->n > 0;
}

bool compare_cells(const struct cell *base, const struct cell *c,
		   const struct metric *m, struct comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->base = base;
	out->cell = c;
	out->m = m;
	if (!side_of(base, m, &out->a) || !side_of(c, m, &out->b))
		return false;
	double *va = calloc(base->nruns + 1, sizeof(double));
	double *vb = calloc(c->nruns + 1, sizeof(double));
	if (!va || !vb)
		exit(1);
	size_t na = metric_values(m, base, va), nb = metric_values(m, c, vb);
	out->ratio = st_ratio(va, na, vb, nb);
	out->log_scale = out->ratio.ok;
	if (out->log_scale) {
		out->w = out->ratio.w;
		out->change_pct = 100 * (out->ratio.est - 1);
	} else {
		out->w = st_welch(va, na, vb, nb);
		/* One run a side, all positive: the ratio still is the estimator. */
		out->change_pct = !isnan(out->ratio.est) ? 100 * (out->ratio.est - 1)
				  : out->a.mean != 0
				  ? 100 * (out->b.mean - out->a.mean) / fabs(out->a.mean) : NAN;
	}
	free(va);
	free(vb);
	out->significant = out->w.ok && out->w.p < ST_ALPHA;
	out->worse = out->significant &&
		     (m->higher_better ? out->change_pct < 0 : out->change_pct > 0);
	return true;
}

const struct cell *baseline_of(const struct results *r, const struct cell *c,
			       const char *want)
{
	const struct cell *first = NULL, *none = NULL, *src = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (strcmp(x->group, c->group) || strcmp(x->tool, c->tool))
			continue;
		if (want && !strcmp(x->variant, want))
			return x;
		/* make compare's BASELINE: a run, its least preemptible cell. */
		if (want && x->source && !strcmp(x->source, want) &&
		    (!src || model_rank(x->model) < model_rank(src->model)))
			src = x;
		if (!first)
			first = x;
		if (!none && !strcmp(x->model, "none"))
			none = x;
	}
	return src ? src : none ? none : first;
}
