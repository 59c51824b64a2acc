/* Reading model-inputs.json (schema: docs/scale.md). */
#include "inputs.h"

#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "rng.h"

static const char *const names[PM_COUNT] = { "none", "voluntary", "full", "lazy" };

const char *pmodel_name(enum pmodel m)
{
	return m < PM_COUNT ? names[m] : "?";
}

int pmodel_parse(const char *s, enum pmodel *out)
{
	for (int i = 0; i < PM_COUNT; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum pmodel)i;
			return 0;
		}
	return -1;
}

/* A number, or {"value": v, "lo": a, "hi": b}; required says absence is an error. */
static bool get_value(const struct json_read_val *root, const char *key, struct inputs_value *out,
		      bool required, char *err, size_t errlen)
{
	const struct json_read_val *v = json_read_get(root, key);
	if (!v) {
		if (required)
			snprintf(err, errlen, "missing \"%s\"", key);
		return !required;
	}
	if (v->type == JR_NUM) {
		out->v = out->lo = out->hi = v->num;
		return true;
	}
	double x;
	if (v->type != JR_OBJ || !json_read_num(v, "value", &x)) {
		snprintf(err, errlen, "\"%s\" is neither a number nor {\"value\", \"lo\", \"hi\"}", key);
		return false;
	}
	out->v = out->lo = out->hi = x;
	json_read_num(v, "lo", &out->lo);
	json_read_num(v, "hi", &out->hi);
	if (!(out->lo <= out->v && out->v <= out->hi)) {
		snprintf(err, errlen, "\"%s\": lo %g <= value %g <= hi %g does not hold", key,
			 out->lo, out->v, out->hi);
		return false;
	}
	return true;
}

static bool get_pair(const struct json_read_val *a, double *x, double *y)
{
	return a && a->type == JR_ARR && a->n >= 2 && a->items[0]->type == JR_NUM &&
	       a->items[1]->type == JR_NUM && (*x = a->items[0]->num, *y = a->items[1]->num, true);
}

static bool get_dist(const struct json_read_val *root, struct inputs_dist *d, char *err, size_t errlen)
{
	const struct json_read_val *f = json_read_get(root, "fault_us");
	const struct json_read_val *q = f ? json_read_get(f, "quantiles") : NULL;
	const struct json_read_val *h = f ? json_read_get(f, "histogram") : NULL;
	d->n = 0;
	if (q && q->type == JR_ARR) {
		for (size_t i = 0; i < q->n && d->n < MI_DIST_MAX; i++) {
			if (!get_pair(q->items[i], &d->p[d->n], &d->x[d->n])) {
				snprintf(err, errlen, "fault_us.quantiles[%zu] is not [p, us]", i);
				return false;
			}
			d->n++;
		}
	} else if (h && h->type == JR_ARR) {
		/* Bins [lo, hi, count] become the CDF at their edges. */
		double total = 0;
		for (size_t i = 0; i < h->n; i++) {
			const struct json_read_val *b = h->items[i];
			if (!b || b->type != JR_ARR || b->n < 3 || b->items[2]->type != JR_NUM) {
				snprintf(err, errlen, "fault_us.histogram[%zu] is not [lo, hi, count]", i);
				return false;
			}
			total += b->items[2]->num;
		}
		double cum = 0;
		for (size_t i = 0; i < h->n && d->n + 2 <= MI_DIST_MAX && total > 0; i++) {
			const struct json_read_val *b = h->items[i];
			if (d->n == 0) {
				d->p[0] = 0;
				d->x[0] = b->items[0]->num;
				d->n = 1;
			}
			cum += b->items[2]->num;
			d->p[d->n] = cum / total;
			d->x[d->n] = b->items[1]->num;
			d->n++;
		}
	} else {
		snprintf(err, errlen, "missing \"fault_us\" {\"quantiles\": [[p, us], ...]} "
			 "or {\"histogram\": [[lo, hi, count], ...]}");
		return false;
	}
	for (int i = 0; i < d->n; i++)
		if (d->p[i] < 0 || d->p[i] > 1 || d->x[i] < 0 ||
		    (i > 0 && (d->p[i] < d->p[i - 1] || d->x[i] < d->x[i - 1]))) {
			snprintf(err, errlen, "fault_us: point %d is out of order or range", i);
			return false;
		}
	if (d->n < 1) {
		snprintf(err, errlen, "fault_us has no points");
		return false;
	}
	return true;
}

static bool from_tree(struct json_read_val *root, const char *path, struct model_inputs *in, char *err,
		      size_t errlen);

static const char *const page_names[MI_PAGES] = { "4k", "2m" };

const char *inputs_page_name(int p)
{
	return p >= 0 && p < MI_PAGES ? page_names[p] : "?";
}

int inputs_page_index(const char *page)
{
	if (strncmp(page, "try-", 4) == 0)
		page += 4;
	for (int i = 0; i < MI_PAGES; i++)
		if (strcmp(page, page_names[i]) == 0)
			return i;
	return -1;
}

/* The optional page-size fields (x0page.h); absent ones stay 0. */
static bool get_page_fields(const struct json_read_val *root, struct model_inputs *in, char *err, size_t errlen)
{
	double x;
	in->segment_bytes = json_read_num(root, "segment_bytes", &x) ? x : 0;
	/* No default: a guessed block size would move X0 by a made-up number of faults. */
	in->block_size = json_read_num(root, "block_size", &x) ? x : 0;
	if (json_read_get(root, "block_size") && !(in->block_size >= 512 && in->block_size <= 1048576)) {
		snprintf(err, errlen, "block_size %g: expected PostgreSQL's 512 B..1 MB", in->block_size);
		return false;
	}
	if (!get_value(root, "faults_per_txn", &in->faults_per_txn, false, err, errlen))
		return false;
	const struct json_read_val *fb = json_read_get(root, "faults_per_txn_by_page");
	const struct json_read_val *fc = json_read_get(root, "fault_costs_us");
	for (int i = 0; i < MI_PAGES; i++) {
		if (fb && json_read_num(fb, page_names[i], &x))
			in->faults_by_page[i] = x;
		const struct json_read_val *c = fc ? json_read_get(fc, page_names[i]) : NULL;
		if (c && json_read_num(c, "alloc", &x))
			in->fault_alloc_us[i] = x;
		if (c && json_read_num(c, "map", &x))
			in->fault_map_us[i] = x;
	}
	snprintf(in->fault_cost_source, sizeof(in->fault_cost_source), "%s",
		 fc ? json_read_str(fc, "source", "?") : "");
	if (!fc && json_read_num(root, "fault_cost_us", &x) && x > 0) {
		/* Older inputs: provenance's one 4 KB fault (a private write) for both kinds. */
		in->fault_alloc_us[MI_4K] = in->fault_map_us[MI_4K] = x;
		snprintf(in->fault_cost_source, sizeof(in->fault_cost_source),
			 "provenance fault_cost_ns (one private 4 KB write fault), for alloc and map alike");
	}
	if (in->faults_per_txn.lo < 0 || in->segment_bytes < 0) {
		snprintf(err, errlen, "faults_per_txn and segment_bytes must be >= 0");
		return false;
	}
	return true;
}

/* "channels": {"blocked_in_fault": {"p": {model: value}, "t_us": value}, ...}; absent: unmeasured. */
static const char *const ch_keys[MI_CHANNELS] = { "blocked_in_fault", "wakeup_latency", "tick_span",
						  "emulator_freeze" };

static bool get_channels(const struct json_read_val *root, struct model_inputs *in, char *err, size_t errlen)
{
	const struct json_read_val *chs = json_read_get(root, "channels");
	for (int c = 0; chs && c < MI_CHANNELS; c++) {
		const struct json_read_val *ch = json_read_get(chs, ch_keys[c]);
		if (!ch)
			continue;
		struct inputs_channel *o = &in->ch[c];
		const struct json_read_val *p = json_read_get(ch, "p");
		for (int i = 0; p && i < PM_COUNT; i++)
			if (json_read_get(p, names[i])) {
				if (!get_value(p, names[i], &o->p[i], true, err, errlen))
					return false;
				if (o->p[i].lo < 0 || o->p[i].hi > 1) {
					snprintf(err, errlen, "channels.%s.p.%s must lie in [0, 1]", ch_keys[c], names[i]);
					return false;
				}
				o->have_p[i] = true;
			}
		snprintf(o->inside_q, sizeof(o->inside_q), "%s", json_read_str(ch, "inside_q", ""));
		if (json_read_get(ch, "t_us")) {
			if (!get_value(ch, "t_us", &o->t_us, true, err, errlen))
				return false;
			if (!(o->t_us.lo >= 0 && o->t_us.hi <= 1e8)) {
				snprintf(err, errlen, "channels.%s.t_us must lie in 0..1e8", ch_keys[c]);
				return false;
			}
			o->have_t = true;
		}
	}
	return true;
}

bool inputs_read(const char *path, struct model_inputs *in, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	struct json_read_val *root = json_read_parse_file(path, err, errlen);
	return root && from_tree(root, path, in, err, errlen);
}

bool inputs_parse(const char *text, const char *name, struct model_inputs *in, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	struct json_read_val *root = json_read_parse(text, err, errlen);
	return root && from_tree(root, name, in, err, errlen);
}

/* Reads root into in and frees root. */
static bool from_tree(struct json_read_val *root, const char *path, struct model_inputs *in, char *err,
		      size_t errlen)
{
	bool ok = false;
	const char *schema = json_read_str(root, "schema", "");
	if (strcmp(schema, "preemptlab-model-inputs/1") != 0) {
		snprintf(err, errlen, "%s: schema \"%s\", expected preemptlab-model-inputs/1",
			 path, schema);
		goto out;
	}
	snprintf(in->source, sizeof(in->source), "%s", json_read_str(root, "source", "?"));
	snprintf(in->page_size, sizeof(in->page_size), "%s", json_read_str(root, "page_size", "4k"));
	in->in_hold_instrument = json_read_true(root, "in_hold_instrument");
	double x;
	in->hz = json_read_num(root, "hz", &x) ? (int)x : 250;
	in->cpus = json_read_num(root, "cpus", &x) ? (int)x : 0;
	in->clients = json_read_num(root, "clients", &x) ? (int)x : 0;
	in->spin_iter_ns = json_read_num(root, "spin_iter_ns", &x) ? x : 30;
	in->timer_slack_us = json_read_num(root, "timer_slack_us", &x) ? x : 50;
	in->spins_per_delay0 = json_read_num(root, "spins_per_delay", &x) ? (int)x : 100;
	in->fault_around_pages = json_read_num(root, "fault_around_pages", &x) ? (int)x : 0;
	in->pool_pages = json_read_num(root, "pool_pages", &x) ? x : 0;
	in->t_offcpu_us = json_read_num(root, "t_parts_us.offcpu_mean", &x) ? x : 0;
	in->t_tail_us = json_read_num(root, "t_parts_us.tail_mean", &x) ? x : 0;
	if (in->cpus < 1 || in->clients < 1 || in->hz < 1) {
		snprintf(err, errlen, "%s: cpus, clients and hz must be positive", path);
		goto out;
	}
	if (!get_value(root, "x0_tps", &in->x0_tps, true, err, errlen) ||
	    !get_value(root, "m", &in->m, true, err, errlen) ||
	    !get_value(root, "p_f", &in->p_f, true, err, errlen) ||
	    !get_value(root, "hold_us", &in->hold_us, true, err, errlen) ||
	    !get_value(root, "t_stall_us", &in->t_stall_us, true, err, errlen) ||
	    !get_dist(root, &in->fault_us, err, errlen) || !get_page_fields(root, in, err, errlen))
		goto out;
	const struct json_read_val *q = json_read_get(root, "q");
	for (int i = 0; q && i < PM_COUNT; i++)
		if (json_read_get(q, names[i])) {
			if (!get_value(q, names[i], &in->q[i], true, err, errlen))
				goto out;
			in->have_q[i] = true;
		}
	if (!get_channels(root, in, err, errlen))
		goto out;
	if (!in->have_q[PM_NONE]) {
		snprintf(err, errlen, "%s: q.none is required (ratios are against none)", path);
		goto out;
	}
	/*
	 * Ranges a measurement can have: an X0 below one transaction per
	 * second (1e-300, say) or an hour-long hold is a broken file, and would
	 * otherwise print "0 tps" as a prediction.
	 */
	if (!(in->x0_tps.lo >= 1 && in->x0_tps.hi <= 1e9) || !(in->m.lo > 0 && in->m.hi <= 1e3) ||
	    in->p_f.lo < 0 || in->p_f.hi > 1 || !(in->hold_us.lo >= 0 && in->hold_us.hi <= 1e6) ||
	    !(in->t_stall_us.lo >= 0 && in->t_stall_us.hi <= 1e8)) {
		snprintf(err, errlen, "%s: expected x0_tps in 1..1e9 tps, m in (0, 1000] per transaction, "
			 "p_f in [0, 1], hold_us in 0..1e6, t_stall_us in 0..1e8 (each interval too)", path);
		goto out;
	}
	for (int i = 0; i < PM_COUNT; i++)
		if (in->have_q[i] && (in->q[i].lo < 0 || in->q[i].hi > 1)) {
			snprintf(err, errlen, "%s: q.%s must lie in [0, 1]", path, names[i]);
			goto out;
		}
	for (int i = 0; i < in->fault_us.n; i++)
		if (!(in->fault_us.x[i] >= 0 && in->fault_us.x[i] <= 1e7)) {
			snprintf(err, errlen, "%s: fault_us point %g us: expected 0..1e7", path, in->fault_us.x[i]);
			goto out;
		}
	ok = true;
out:
	json_read_free(root);
	return ok;
}

double inputs_dist_sample(const struct inputs_dist *d, double u)
{
	if (u <= d->p[0] || d->n == 1)
		return d->x[0];
	for (int i = 1; i < d->n; i++)
		if (u <= d->p[i]) {
			double span = d->p[i] - d->p[i - 1];
			double f = span > 0 ? (u - d->p[i - 1]) / span : 1;
			return d->x[i - 1] + f * (d->x[i] - d->x[i - 1]);
		}
	return d->x[d->n - 1];
}

double inputs_dist_mean(const struct inputs_dist *d)
{
	/* Exact for the piecewise-linear inverse CDF: trapezoids in p. */
	double s = d->x[0] * d->p[0];
	for (int i = 1; i < d->n; i++)
		s += (d->p[i] - d->p[i - 1]) * (d->x[i] + d->x[i - 1]) / 2;
	return s + d->x[d->n - 1] * (1 - d->p[d->n - 1]);
}

double inputs_x0_at(const struct model_inputs *in, double x0_measured, int cpus, int clients)
{
	int at = in->clients < in->cpus ? in->clients : in->cpus;
	int to = clients < cpus ? clients : cpus;
	return x0_measured * to / at;
}

double inputs_draw(const struct inputs_value *v, uint64_t *rng, double min, double max)
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
