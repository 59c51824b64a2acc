/*
 * Charts in the lab's own SVG (no gnuplot needed on the machine that
 * renders a report, and the files stay small enough to mail):
 *   tps-<tool>.svg   tps against clients, one line per kernel/model (and
 *                    lock, when several), one panel per page size; points
 *                    are medians, whiskers min..max over repetitions.
 *   hold-<tool>.svg  strategy-lock hold-time histogram per kernel/model,
 *                    one panel per page size, at the largest client count;
 *                    share of acquisitions per power-of-two bucket, log y.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "outfile.h"
#include "report.h"
#include "svg.h"
#include "textfmt.h"

#define PW 420   /* panel width */
#define PH 300
#define ML 70    /* left margin inside a panel (axis labels) */
#define MB 40
#define MT 30
#define LEG_ROW 18
#define DODGE 7  /* px between series at one x, so no point hides another */

struct series {
	char name[200];
	const struct cell *any;
};

/* Series = variant (+ lock/strategy/workload when those vary). */
static void series_name(const struct cell *c, int many_locks, char *buf, size_t len)
{
	if (many_locks)
		snprintf(buf, len, "%s %s %s %s", c->variant, c->lock, c->strategy, c->workload);
	else
		snprintf(buf, len, "%s", c->variant);
}

static size_t collect(const struct results *r, const char *tool, int many, struct series *s,
		      size_t max, long *pages, size_t *npages, long *clients, size_t *nclients)
{
	size_t n = 0;
	*npages = *nclients = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool))
			continue;
		char name[200];
		series_name(c, many, name, sizeof(name));
		size_t i;
		for (i = 0; i < n && strcmp(s[i].name, name); i++)
			;
		if (i == n && n < max) {
			snprintf(s[n].name, sizeof(s[n].name), "%s", name);
			s[n++].any = c;
		}
		for (i = 0; i < *npages && pages[i] != c->page_kb; i++)
			;
		if (i == *npages && *npages < 8)
			pages[(*npages)++] = c->page_kb;
		for (i = 0; i < *nclients && clients[i] != c->clients; i++)
			;
		if (i == *nclients && *nclients < 64)
			clients[(*nclients)++] = c->clients;
	}
	/* ascending pages and clients */
	for (size_t a = 0; a < *npages; a++)
		for (size_t b = a + 1; b < *npages; b++)
			if (pages[b] < pages[a]) {
				long t = pages[a]; pages[a] = pages[b]; pages[b] = t;
			}
	for (size_t a = 0; a < *nclients; a++)
		for (size_t b = a + 1; b < *nclients; b++)
			if (clients[b] < clients[a]) {
				long t = clients[a]; clients[a] = clients[b]; clients[b] = t;
			}
	return n;
}

static int several_locks(const struct results *r, const char *tool)
{
	const struct cell *first = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool))
			continue;
		if (!first)
			first = c;
		else if (strcmp(first->lock, c->lock) || strcmp(first->strategy, c->strategy) ||
			 strcmp(first->workload, c->workload))
			return 1;
	}
	return 0;
}

/* The legend below the panels, wrapped to the canvas width W; returns
 * its height (also when f is NULL: to size the canvas first). */
static double legend(FILE *f, double W, double y, const struct series *s, size_t n)
{
	double x = 10, rows = n ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		double w = 40 + svg_text_width(s[i].name, 11) + 18;
		if (x > 10 && x + w > W - 10) {
			x = 10;
			rows++;
		}
		double yy = y + (rows - 1) * LEG_ROW;
		if (f) {
			const char *d = svg_dash(i);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"2\"%s%s%s/>\n",
				x, yy - 4, x + 30, yy - 4, svg_colour(i), *d ? " stroke-dasharray=\"" : "", d,
				*d ? "\"" : "");
			svg_marker(f, i, x + 15, yy - 4, 3.5, svg_colour(i), 1);
			svg_text(f, x + 36, yy, "start", 11, s[i].name);
		}
		x += w;
	}
	return rows * LEG_ROW + 8;
}

static double chart_width(size_t np, const char *title)
{
	return fmax((double)np * PW, svg_text_width(title, 14) + 20);
}

static int same_line(const struct cell *c, const struct series *s, int many)
{
	char name[200];
	series_name(c, many, name, sizeof(name));
	return !strcmp(name, s->name);
}

/* The cell drawn as line s's point at this page size and client count,
 * with its side of metric m; NULL when there is none. */
static const struct cell *point_of(const struct results *r, const char *tool, const struct series *s,
				   int many, long page, long clients, const struct metric *m,
				   struct side *sd)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool) || c->page_kb != page || c->clients != clients ||
		    !same_line(c, s, many) || !side_of(c, m, sd))
			continue;
		return c;
	}
	return NULL;
}

/* Opens <kind>-<tool>.svg in RUN (outfile.h); name gets the file's name. */
static FILE *chart_open(const struct results *r, struct outfile *o, const char *kind,
			const char *tool, char *name, size_t len)
{
	snprintf(name, len, "%s-%s.svg", kind, tool);
	return out_open(o, r->dir, name);
}

/* A chart of np panels and a legend, under its title. */
static void chart_begin(FILE *f, size_t np, const char *title, const struct series *s, size_t ns)
{
	double w = chart_width(np, title);
	int W = (int)ceil(w), H = (int)ceil(PH + 40 + 14 + legend(NULL, w, 0, s, ns));
	svg_begin(f, W, H);
	svg_text(f, W / 2.0, 20, "middle", 14, title);
}

/* The box of one page size's panel, named above it. */
static void panel_frame(FILE *f, long page, double x0, double y0, double w, double h)
{
	char pg[32], lab[64];
	snprintf(lab, sizeof(lab), "%s pages", page_name(page, pg, sizeof(pg)));
	svg_text(f, x0 + w / 2, y0 - 8, "middle", 12, lab);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n",
		x0, y0, w, h);
}

/* A horizontal grid line at y across the panel, labelled on the left. */
static void grid_line(FILE *f, double x0, double y, double w, const char *label)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		x0, y, x0 + w, y);
	svg_text(f, x0 - 5, y + 4, "end", 10, label);
}

/* Legend, close, and record the chart in the report. */
static void chart_end(struct report *rp, struct outfile *o, size_t np, const struct series *s,
		      size_t ns, const char *name, const char *title)
{
	legend(o->f, chart_width(np, title), PH + 40 + 14, s, ns);
	svg_end(o->f);
	if (out_commit(o) != 0)
		return;
	snprintf(rp->charts[rp->ncharts], sizeof(rp->charts[0]), "%s", name);
	snprintf(rp->chart_titles[rp->ncharts++], sizeof(rp->chart_titles[0]), "%s", title);
}

static int tps_chart(struct report *rp, const char *tool)
{
	const struct results *r = rp->r;
	struct series s[16];
	long pages[8], clients[64];
	size_t np, nc;
	int many = several_locks(r, tool);
	size_t ns = collect(r, tool, many, s, 16, pages, &np, clients, &nc);
	/* With one client count each panel would be a lone column of dots:
	 * compare-<tool>.svg shows that comparison better. */
	if (!ns || nc < 2)
		return 0;
	static const struct metric tps = { "tps", "results.tps", "", 1, true, true };
	double ymax = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		struct side sd;
		if (!strcmp(r->cells[k].tool, tool) && side_of(&r->cells[k], &tps, &sd) && sd.max > ymax)
			ymax = sd.max;
	}
	ymax = svg_nice_max(ymax * 1.05);
	char name[128];
	struct outfile o;
	FILE *f = chart_open(r, &o, "tps", tool, name, sizeof(name));
	if (!f)
		return -1;
	char title[160];
	snprintf(title, sizeof(title), "%s: tps against clients (median, whiskers min..max)", tool);
	chart_begin(f, np, title, s, ns);
	for (size_t p = 0; p < np; p++) {
		double x0 = p * PW + ML, y0 = 40 + MT, w = PW - ML - 20, h = PH - MT - MB;
		panel_frame(f, pages[p], x0, y0, w, h);
		for (int t = 0; t <= 5; t++) {
			double yv = ymax * t / 5, y = y0 + h - h * t / 5;
			char v[32];
			fmt_human(yv, "", v, sizeof(v));
			grid_line(f, x0, y, w, v);
		}
		for (size_t i = 0; i < nc; i++) {
			double x = x0 + (nc == 1 ? w / 2 : w * (0.05 + 0.9 * i / (nc - 1.0)));
			char v[32];
			snprintf(v, sizeof(v), "%ld", clients[i]);
			svg_text(f, x, y0 + h + 15, "middle", 10, v);
		}
		svg_text(f, x0 + w / 2, y0 + h + 32, "middle", 11, "clients");
		for (size_t si = 0; si < ns; si++) {
			const char *col = svg_colour(si), *dash = svg_dash(si);
			double dx = (si - (ns - 1) / 2.0) * DODGE;
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s points=\"", col,
				*dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
			for (size_t i = 0; i < nc; i++) {
				struct side sd;
				if (!point_of(r, tool, &s[si], many, pages[p], clients[i], &tps, &sd))
					continue;
				double x = dx + x0 + (nc == 1 ? w / 2 : w * (0.05 + 0.9 * i / (nc - 1.0)));
				fprintf(f, "%.1f,%.1f ", x, y0 + h - h * sd.median / ymax);
			}
			fprintf(f, "\"/>\n");
			for (size_t i = 0; i < nc; i++) {
				struct side sd;
				const struct cell *c = point_of(r, tool, &s[si], many, pages[p], clients[i], &tps, &sd);
				if (!c)
					continue;
				double x = dx + x0 + (nc == 1 ? w / 2 : w * (0.05 + 0.9 * i / (nc - 1.0)));
				fprintf(f, "<g><title>C%d ", c->id);
				svg_escape(f, s[si].name);
				fprintf(f, ": median %.0f tps (min %.0f, max %.0f, %zu runs)</title>"
					   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
					sd.median, sd.min, sd.max, sd.n,
					x, y0 + h - h * sd.min / ymax, x, y0 + h - h * sd.max / ymax, col);
				svg_marker(f, si, x, y0 + h - h * sd.median / ymax, 3.5, col, 1);
				fprintf(f, "</g>\n");
			}
		}
	}
	chart_end(rp, &o, np, s, ns, name, title);
	return 1;
}

/* Sum of hold_hist over the runs of the cells of one line and page size at
 * the largest client count. Returns the total count. */
static double hold_hist(const struct results *r, const char *tool, const struct series *s,
			int many, long page, long clients, double *h)
{
	double total = 0;
	memset(h, 0, 32 * sizeof(*h));
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool) || c->page_kb != page || c->clients != clients ||
		    !same_line(c, s, many))
			continue;
		for (size_t i = 0; i < c->nruns; i++) {
			const struct json_read_val *a = json_read_path(c->runs[i]->doc, "locks.strategy.hold_hist");
			if (!a || a->type != JR_ARR)
				continue;
			for (size_t b = 0; b < a->n && b < 32; b++)
				if (a->items[b]->type == JR_NUM) {
					h[b] += a->items[b]->num;
					total += a->items[b]->num;
				}
		}
	}
	return total;
}

static int hold_chart(struct report *rp, const char *tool)
{
	const struct results *r = rp->r;
	struct series s[16];
	long pages[8], clients[64];
	size_t np, nc;
	int many = several_locks(r, tool);
	size_t ns = collect(r, tool, many, s, 16, pages, &np, clients, &nc);
	if (!ns || !nc)
		return 0;
	long cl = clients[nc - 1];
	double h[32];
	int any = 0;
	for (size_t p = 0; p < np; p++)
		for (size_t si = 0; si < ns; si++)
			if (hold_hist(r, tool, &s[si], many, pages[p], cl, h) > 0)
				any = 1;
	if (!any)
		return 0;
	char name[128];
	struct outfile o;
	FILE *f = chart_open(r, &o, "hold", tool, name, sizeof(name));
	if (!f)
		return -1;
	const double lo = -7;  /* log10 of the smallest share drawn */
	char title[160];
	snprintf(title, sizeof(title), "%s: strategy lock hold time at %ld clients (share of acquisitions)",
		 tool, cl);
	chart_begin(f, np, title, s, ns);
	for (size_t p = 0; p < np; p++) {
		double x0 = p * PW + ML, y0 = 40 + MT, w = PW - ML - 20, hh = PH - MT - MB;
		panel_frame(f, pages[p], x0, y0, w, hh);
		for (int t = 0; t <= 7; t++) {
			double y = y0 + hh * t / 7.0;
			char v[32];
			snprintf(v, sizeof(v), "1e%d", -t);
			grid_line(f, x0, y, w, v);
		}
		static const char *ticks[] = { "1ns", "1us", "1ms", "1s" };
		for (int t = 0; t < 4; t++) {
			/* bucket i holds [2^i, 2^(i+1)) ns: 1us ~ bucket 10, 1ms ~ 20, 1s ~ 30 */
			double x = x0 + w * (t * 10) / 31.0;
			svg_text(f, x, y0 + hh + 15, "middle", 10, ticks[t]);
		}
		svg_text(f, x0 + w / 2, y0 + hh + 32, "middle", 11, "hold time (log2 buckets)");
		for (size_t si = 0; si < ns; si++) {
			double tot = hold_hist(r, tool, &s[si], many, pages[p], cl, h);
			if (tot <= 0)
				continue;
			fprintf(f, "<g><title>");
			svg_escape(f, s[si].name);
			const char *dash = svg_dash(si);
			fprintf(f, ": %.0f acquisitions</title><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s points=\"",
				tot, svg_colour(si), *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
			for (int b = 0; b < 32; b++) {
				double share = h[b] / tot;
				double lv = share > 0 ? log10(share) : lo;
				if (lv < lo)
					lv = lo;
				fprintf(f, "%.1f,%.1f ", x0 + w * b / 31.0, y0 + hh * (lv / lo));
			}
			fprintf(f, "\"/></g>\n");
		}
	}
	chart_end(rp, &o, np, s, ns, name, title);
	return 1;
}

void write_charts(struct report *rp)
{
	const char *tools[] = { "bufbench", "pgbench" };
	write_comparison_charts(rp);
	for (int t = 0; t < 2; t++) {
		tps_chart(rp, tools[t]);
		hold_chart(rp, tools[t]);
	}
	write_timeline_charts(rp);
}
