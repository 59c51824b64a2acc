/*
 * tps over time, one small panel per cell, with the fill boundary marked:
 *   timeline-bufbench.svg  bufbench's per-step transaction counts
 *                          (results.timeline), a dashed line where each
 *                          run's pool finished filling;
 *   timeline-pgbench.svg   pgbench's -P 1 progress, and the share of
 *                          shared_buffers in use from pg_buffercache
 *                          (results.buffer_fill), grey, on 0..100%.
 * One line per repetition in the run's colour, so a warm-up effect or a
 * slow repetition shows as itself rather than as spread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "report.h"
#include "svg.h"
#include "textfmt.h"

#define COLS 3
#define CW 330		/* panel cell width and height, margins included */
#define CH 190
#define PL 55		/* left margin inside a panel: the tps labels */
#define PR 12
#define PT 28
#define PB 26
#define MAX_PANELS 36


/* The run's series: y[i] tps at x[i] s; returns the count (at most max). */
static size_t series(const struct json_read_val *doc, bool pgbench, double *x, double *y, size_t max)
{
	size_t n = 0;
	if (pgbench) {
		const struct json_read_val *p = json_read_path(doc, "results.progress_tps");
		for (size_t i = 0; p && p->type == JR_ARR && i < p->n && n < max; i++)
			if (p->items[i]->type == JR_NUM) {
				x[n] = (double)(i + 1);
				y[n++] = p->items[i]->num;
			}
		return n;
	}
	double step = 0;
	const struct json_read_val *t = json_read_path(doc, "results.timeline.transactions");
	if (!json_read_num(doc, "results.timeline.step_s", &step) || step <= 0)
		return 0;
	for (size_t i = 0; t && t->type == JR_ARR && i < t->n && n < max; i++)
		if (t->items[i]->type == JR_NUM) {
			x[n] = (double)(i + 1) * step;
			y[n++] = t->items[i]->num / step;
		}
	return n;
}

/* Where the run's pool had filled, in seconds of its plot; < 0: not within it. */
static double fill_at(const struct json_read_val *doc, bool pgbench)
{
	double t;
	if (pgbench)
		return json_read_num(doc, "results.buffer_fill.time_to_fill_s", &t) ? t : -1;
	if (strcmp(json_read_str(doc, "results.fill_state", ""), "in-interval") != 0)
		return -1;
	return json_read_num(doc, "results.phase.steady.start_s", &t) ? t : -1;
}

static void polyline(FILE *f, const double *x, const double *y, size_t n, double x0, double y0,
		     double w, double h, double xmax, double ymax, const char *colour,
		     const char *extra)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\"%s points=\"", colour,
		extra);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.1f,%.1f ", x0 + w * x[i] / xmax, y0 + h - h * fmin(y[i], ymax) / ymax);
	fprintf(f, "\"/>\n");
}

/* pg_buffercache's curve: used / total, on the panel's full height. */
static void buffer_fill_curve(FILE *f, const struct json_read_val *doc, double x0, double y0, double w,
			      double h, double xmax)
{
	const struct json_read_val *ts = json_read_path(doc, "results.buffer_fill.t_s");
	const struct json_read_val *us = json_read_path(doc, "results.buffer_fill.used");
	double total;
	if (!ts || !us || ts->type != JR_ARR || us->type != JR_ARR ||
	    !json_read_num(doc, "results.buffer_fill.total_buffers", &total) || total <= 0)
		return;
	size_t n = ts->n < us->n ? ts->n : us->n;
	double *x = calloc(n + 1, sizeof(double)), *y = calloc(n + 1, sizeof(double));
	if (!x || !y)
		exit(1);
	for (size_t i = 0; i < n; i++) {
		x[i] = ts->items[i]->num;
		y[i] = 100 * us->items[i]->num / total;
	}
	polyline(f, x, y, n, x0, y0, w, h, xmax, 100, "#999", " stroke-dasharray=\"2,2\"");
	free(x);
	free(y);
}

static void panel(FILE *f, const struct cell *c, bool pgbench, double px, double py)
{
	enum { MAXPTS = 4096 };
	static double x[MAXPTS], y[MAXPTS];
	double x0 = px + PL, y0 = py + PT, w = CW - PL - PR, h = CH - PT - PB;
	double xmax = 0, ymax = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		size_t n = series(c->runs[i]->doc, pgbench, x, y, MAXPTS);
		for (size_t k = 0; k < n; k++) {
			xmax = fmax(xmax, x[k]);
			ymax = fmax(ymax, y[k]);
		}
	}
	xmax = svg_nice_max(xmax);
	ymax = svg_nice_max(ymax * 1.05);
	char t[256], pg[16];
	snprintf(t, sizeof(t), "C%d %s %s %s %s c%ld", c->id, c->variant,
		 page_name(c->page_kb, pg, sizeof(pg)), pgbench ? c->workload : c->strategy, c->lock,
		 c->clients);
	svg_text(f, x0 + w / 2, py + 16, "middle", 10, t);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n",
		x0, y0, w, h);
	for (int k = 0; k <= 2; k++) {
		char v[32];
		fmt_human(ymax * k / 2, "", v, sizeof(v));
		svg_text(f, x0 - 4, y0 + h - h * k / 2 + 4, "end", 9, v);
		snprintf(v, sizeof(v), "%g s", xmax * k / 2);
		svg_text(f, x0 + w * k / 2, y0 + h + 13, k == 0 ? "start" : k == 2 ? "end" : "middle",
			 9, v);
	}
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *d = c->runs[i]->doc;
		const char *col = svg_colour(i);
		size_t n = series(d, pgbench, x, y, MAXPTS);
		if (pgbench)
			buffer_fill_curve(f, d, x0, y0, w, h, xmax);
		fprintf(f, "<g><title>");
		svg_escape(f, c->runs[i]->name);
		fprintf(f, "</title>\n");
		polyline(f, x, y, n, x0, y0, w, h, xmax, ymax, col, "");
		double at = fill_at(d, pgbench);
		if (at >= 0 && at <= xmax)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-dasharray=\"5,3\"/>\n",
				x0 + w * at / xmax, y0, x0 + w * at / xmax, y0 + h, col);
		fprintf(f, "</g>\n");
	}
}

static void timeline_chart(struct report *rp, const char *tool)
{
	const struct results *r = rp->r;
	bool pgbench = !strcmp(tool, "pgbench");
	const struct cell *cells[MAX_PANELS];
	size_t n = 0, more = 0;
	double x[2], y[2];
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool) || !c->nruns || !series(c->runs[0]->doc, pgbench, x, y, 2))
			continue;
		if (n < MAX_PANELS)
			cells[n++] = c;
		else
			more++;
	}
	if (!n || rp->ncharts >= REPORT_MAX_CHARTS)
		return;
	char name[64], title[160];
	snprintf(name, sizeof(name), "timeline-%s.svg", tool);
	struct outfile o;
	FILE *f = out_open(&o, r->dir, name);
	if (!f)
		return;
	snprintf(title, sizeof(title),
		 pgbench ? "pgbench: tps per second (-P 1), shared_buffers in use (grey, 0..100%%), "
			   "filled (dashed)"
			 : "bufbench: tps over time, one line per repetition, pool filled (dashed)");
	size_t rows = (n + COLS - 1) / COLS;
	int W = COLS * CW, H = (int)rows * CH + 40 + (more ? 16 : 0);
	svg_begin(f, W, H);
	svg_text(f, W / 2.0, 20, "middle", 13, title);
	for (size_t i = 0; i < n; i++)
		panel(f, cells[i], pgbench, (double)(i % COLS) * CW, 30 + (double)(i / COLS) * CH);
	if (more) {
		char m[96];
		snprintf(m, sizeof(m), "%zu more cells not drawn", more);
		svg_text(f, 10, H - 6, "start", 10, m);
	}
	svg_end(f);
	if (out_commit(&o) != 0)
		return;
	snprintf(rp->charts[rp->ncharts], sizeof(rp->charts[0]), "%s", name);
	snprintf(rp->chart_titles[rp->ncharts++], sizeof(rp->chart_titles[0]), "%s", title);
}

void write_timeline_charts(struct report *rp)
{
	timeline_chart(rp, "bufbench");
	timeline_chart(rp, "pgbench");
}
