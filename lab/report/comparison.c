/*
 * compare-<tool>.svg: the chart of the report's headline, drawn first.
 * One row per cell, grouped by page size and then by what the comparison
 * holds constant (workload, clients, lock), the kernel/models in version
 * order within; one column per metric (tps and the evidence beside it).
 * Each row: a marker at the median, whiskers min..max over the
 * repetitions, and the ratio the star tests (geometric means: compare.h)
 * printed at the right; a dashed line marks the baseline's median through its group.
 * A significant difference (Welch, p < 0.05) gets a filled marker and a
 * star; the rest stay hollow.  Rows are read from the same pairs as the
 * report's tables (pairs.c), so chart and tables cannot disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "outfile.h"
#include "pairs.h"
#include "report.h"
#include "svg.h"
#include "textfmt.h"

#define ROW_H 20
#define PAGE_H 26
#define GROUP_H 18
#define PLOT_W 220
#define RATIO_W 78
#define COL_GAP 24
#define TOP 86
#define AXIS_H 34
#define MAX_METRICS 3

/* The evidence shown beside tps, in order of preference, by the document
 * paths of metrics.c's rows (numerator, denominator), not by their labels,
 * so that renaming a label cannot drop a chart. */
/* Group headings read "select-only, 4 clients, tas/pg" (lock/strategy). */
static const struct {
	const char *path, *per;
} evidence[] = {
	{ "results.wait_share", "" },
	{ "results.minor_faults_per_txn", "" },
	{ "sampler.spindelay_samples", "sampler.active_backend_samples" },
	{ "results.latency_ms_avg", "" },
	{ "locks.strategy.holds_with_fault", "locks.strategy.acquisitions" },
};

static bool is_metric(const struct metric *m, const char *path, const char *per)
{
	return !strcmp(m->path, path) && !strcmp(m->per, per);
}

struct row {
	const struct cell *c, *base;  /* base NULL: c is a baseline */
	int page_head, group_head;    /* rows that open a page size or group */
};

static size_t pick_metrics(const struct results *r, const char *tool, struct metric *out)
{
	struct metric *all;
	size_t n = metrics_for(r, tool, &all), k = 0;
	for (size_t i = 0; i < n && k < 1; i++)
		if (is_metric(&all[i], "results.tps", ""))
			out[k++] = all[i];
	for (size_t e = 0; e < sizeof(evidence) / sizeof(evidence[0]) && k < MAX_METRICS; e++)
		for (size_t i = 0; i < n; i++) {
			if (!is_metric(&all[i], evidence[e].path, evidence[e].per))
				continue;
			/* A metric that is zero everywhere says nothing here. */
			int nonzero = 0;
			for (size_t c = 0; c < r->ncells && !nonzero; c++) {
				struct side s;
				nonzero = !strcmp(r->cells[c].tool, tool) &&
					  side_of(&r->cells[c], &all[i], &s) && s.max > 0;
			}
			if (nonzero)
				out[k++] = all[i];
		}
	free(all);
	return k;
}

static int by_page(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->c->page_kb != y->c->page_kb)
		return x->c->page_kb < y->c->page_kb ? -1 : 1;
	return x->c->id - y->c->id;
}

/* The group heading of a row: what its comparison holds, page size aside. */
static void group_text(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %ld clients, %s/%s", c->workload, c->clients, c->lock, c->strategy);
}

static size_t rows_for(const struct results *r, const char *tool, const char *want, struct row **out)
{
	struct pair *p;
	size_t np = pairs_for(r, tool, want, &p), n = 0;
	struct row *rows = calloc(r->ncells + 1, sizeof(*rows));
	if (!rows)
		exit(1);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, tool))
			continue;
		rows[n].c = c;
		for (size_t i = 0; i < np && !rows[n].base; i++)
			if (p[i].cell == c)
				rows[n].base = p[i].base;
		n++;
	}
	free(p);
	qsort(rows, n, sizeof(*rows), by_page);
	char g[256], prev[256] = "";
	for (size_t i = 0; i < n; i++) {
		group_text(rows[i].c, g, sizeof(g));
		rows[i].page_head = !i || rows[i].c->page_kb != rows[i - 1].c->page_kb;
		rows[i].group_head = rows[i].page_head || strcmp(g, prev);
		snprintf(prev, sizeof(prev), "%s", g);
	}
	*out = rows;
	return n;
}

/* The index of c's kernel/model among the tool's, for its colour and marker. */
static size_t variant_index(const struct row *rows, size_t n, const struct cell *c)
{
	const char *seen[64];
	size_t ns = 0;
	const struct cell *order[64];
	for (size_t i = 0; i < n; i++) {
		size_t k;
		for (k = 0; k < ns && strcmp(seen[k], rows[i].c->variant); k++)
			;
		if (k == ns && ns < 64) {
			order[ns] = rows[i].c;
			seen[ns++] = rows[i].c->variant;
		}
	}
	size_t idx = 0;
	for (size_t k = 0; k < ns; k++)
		if (variant_cmp(order[k], c) < 0)
			idx++;
	return idx;
}

static double row_y(const struct row *rows, size_t i)
{
	double y = TOP;
	for (size_t k = 0; k <= i; k++) {
		y += rows[k].page_head ? PAGE_H : 0;
		y += rows[k].group_head ? GROUP_H : 0;
		y += k < i ? ROW_H : 0;
	}
	return y + ROW_H / 2.0;
}

static void label_of(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "C%d %s", c->id, c->variant);
}

static void metric_column(FILE *f, const struct row *rows, size_t n, const struct metric *m,
			  double x0, double bottom)
{
	double vmax = 0;
	for (size_t i = 0; i < n; i++) {
		struct side s;
		if (side_of(rows[i].c, m, &s) && s.max > vmax)
			vmax = s.max;
	}
	vmax = svg_nice_max(vmax * 1.02);
	svg_text(f, x0 + PLOT_W / 2.0, TOP - 10, "middle", 12, m->name);
	svg_text(f, x0 + PLOT_W + 8, TOP - 10, "start", 10, "vs base");
	const char *unit = "";
	for (int t = 0; t <= 2; t++) {
		double x = x0 + PLOT_W * t / 2.0;
		char v[32];
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x,
			TOP, x, bottom);
		fmt_human(vmax * t / 2, unit, v, sizeof(v));
		svg_text(f, x, bottom + 14, t == 0 ? "start" : t == 2 ? "end" : "middle", 10, v);
	}
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", x0,
		bottom, x0 + PLOT_W, bottom);
#define XV(v) (x0 + PLOT_W * (v) / vmax)
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		struct side s;
		if (!side_of(w->c, m, &s))
			continue;
		double y = row_y(rows, i);
		size_t vi = variant_index(rows, n, w->c);
		const char *col = svg_colour(vi);
		struct comparison cmp;
		int have = w->base && compare_cells(w->base, w->c, m, &cmp);
		if (!w->base) {
			/* The baseline's median through the rows compared with it. */
			double y1 = y, y2 = y;
			for (size_t k = 0; k < n; k++)
				if (rows[k].base == w->c)
					y2 = fmax(y2, row_y(rows, k));
			if (y2 > y1)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					   "stroke=\"#888\" stroke-dasharray=\"3,3\"/>\n",
					XV(s.median), y1 - 6, XV(s.median), y2 + 6);
		}
		char med[32], lo[32], hi[32], ratio[48] = "base";
		fprintf(f, "<g><title>C%d ", w->c->id);
		svg_escape(f, w->c->variant);
		fprintf(f, " %s: median %s, min %s, max %s, %zu runs", m->name,
			fmt_human(s.median, unit, med, sizeof(med)), fmt_human(s.min, unit, lo, sizeof(lo)),
			fmt_human(s.max, unit, hi, sizeof(hi)), s.n);
		if (have && cmp.w.ok)
			fprintf(f, "; Welch p = %.3g", cmp.w.p);
		fprintf(f, "</title>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"1.5\"/>\n",
			XV(s.min), y, XV(s.max), y, col);
		svg_marker(f, vi, XV(s.median), y, 4.5, col, !w->base || (have && cmp.significant));
		fprintf(f, "</g>\n");
		/* The ratio tested (compare.h), not the medians'. */
		double q = have ? 1 + cmp.change_pct / 100 : NAN;
		if (have && !isnan(q))
			snprintf(ratio, sizeof(ratio), q < 0.1 ? "%.2gx%s" : "%.2fx%s", q,
				 cmp.significant ? " *" : cmp.w.ok ? "" : " ?");
		else if (w->base)
			snprintf(ratio, sizeof(ratio), "-");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\"%s>%s</text>\n",
			x0 + PLOT_W + 8, y + 4, have && cmp.significant ? " font-weight=\"bold\"" : "",
			ratio);
	}
#undef XV
}

static void comparison_chart(struct report *rp, const char *tool)
{
	const struct results *r = rp->r;
	struct metric ms[MAX_METRICS];
	size_t nm = pick_metrics(r, tool, ms);
	struct row *rows;
	size_t n = rows_for(r, tool, rp->baseline, &rows);
	size_t paired = 0;
	for (size_t i = 0; i < n; i++)
		paired += rows[i].base != NULL;
	if (!nm || !paired || rp->ncharts >= REPORT_MAX_CHARTS) {
		free(rows);
		return;
	}
	double labw = 0;
	for (size_t i = 0; i < n; i++) {
		char l[256], g[256];
		label_of(rows[i].c, l, sizeof(l));
		group_text(rows[i].c, g, sizeof(g));
		labw = fmax(labw, svg_text_width(l, 11) + 24);
		/* Group headings stay clear of the first column's grid. */
		labw = fmax(labw, svg_text_width(g, 10) + 26);
	}
	labw = fmax(labw, 120);
	double colw = PLOT_W + RATIO_W + COL_GAP;
	double bottom = row_y(rows, n - 1) + ROW_H / 2.0 + 4;
	char title[160];
	int variants = 0;
	for (size_t i = 0; i < n; i++)
		variants |= rows[i].base && strcmp(rows[i].base->variant, rows[i].c->variant);
	/* A run of one kernel/model compares page sizes and locks (pairs.c). */
	snprintf(title, sizeof(title), "%s: each %s against its baseline", tool,
		 variants ? "kernel/model" : "page size or lock");
	const char *sub = "marker = median, whiskers = min..max of the runs; ratio = geometric mean / "
			  "baseline's (median dashed); filled, bold, * = p < 0.05 (Welch on logs)";
	double W = fmax(labw + nm * colw, svg_text_width(sub, 10) + 20);
	W = fmax(W, svg_text_width(title, 14) + 20);
	double H = bottom + AXIS_H;
	char name[128];
	snprintf(name, sizeof(name), "compare-%s.svg", tool);
	struct outfile o;
	FILE *f = out_open(&o, r->dir, name);
	if (!f) {
		free(rows);
		return;
	}
	svg_begin(f, (int)ceil(W), (int)ceil(H));
	svg_text(f, 10, 22, "start", 14, title);
	svg_text(f, 10, 42, "start", 10, sub);
	for (size_t i = 0; i < n; i++) {
		double y = row_y(rows, i);
		char l[256], g[256], pg[32];
		if (rows[i].page_head) {
			double yh = y - ROW_H / 2.0 - (rows[i].group_head ? GROUP_H : 0) - 8;
			char ph[64];
			snprintf(ph, sizeof(ph), "%s pages", page_name(rows[i].c->page_kb, pg, sizeof(pg)));
			fprintf(f, "<line x1=\"6\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
				yh - 14, W - 6, yh - 14);
			fprintf(f, "<text x=\"10\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">%s</text>\n",
				yh, ph);
		}
		if (rows[i].group_head) {
			group_text(rows[i].c, g, sizeof(g));
			fprintf(f, "<text x=\"18\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">",
				y - ROW_H / 2.0 - 4);
			svg_escape(f, g);
			fputs("</text>\n", f);
		}
		label_of(rows[i].c, l, sizeof(l));
		svg_text(f, labw - 12, y + 4, "end", 11, l);
	}
	for (size_t k = 0; k < nm; k++)
		metric_column(f, rows, n, &ms[k], labw + k * colw, bottom);
	svg_end(f);
	free(rows);
	if (out_commit(&o) != 0)
		return;
	snprintf(rp->charts[rp->ncharts], sizeof(rp->charts[0]), "%s", name);
	snprintf(rp->chart_titles[rp->ncharts++], sizeof(rp->chart_titles[0]), "%s", title);
}

void write_comparison_charts(struct report *rp)
{
	comparison_chart(rp, "bufbench");
	comparison_chart(rp, "pgbench");
}
