#include "overhead.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "instruments.h"

static struct overhead_row *row_for(struct overhead *o, unsigned inst, const char *variant,
				    bool fill)
{
	for (int i = 0; i < o->n; i++)
		if (o->row[i].inst == inst && o->row[i].fill == fill &&
		    !strcmp(o->row[i].variant, variant))
			return &o->row[i];
	if (o->n == OVERHEAD_ROWS)
		return NULL;
	struct overhead_row *w = &o->row[o->n++];
	memset(w, 0, sizeof(*w));
	w->inst = inst;
	w->fill = fill;
	instruments_label(inst, w->label, sizeof(w->label));
	snprintf(w->variant, sizeof(w->variant), "%s", variant);
	return w;
}

static void add(struct overhead_row *w, double without, double with)
{
	if (w && w->n < OVERHEAD_PAIRS) {
		w->a[w->n] = without;
		w->b[w->n] = with;
		w->n++;
	}
}

static int by_label(const void *x, const void *y)
{
	const struct overhead_row *a = x, *b = y;
	if (a->inst != b->inst)
		return a->inst < b->inst ? -1 : 1;
	int all_a = !strcmp(a->variant, "all"), all_b = !strcmp(b->variant, "all");
	if (all_a != all_b)
		return all_a - all_b;
	return strcmp(a->variant, b->variant);
}

void overhead_compute(const struct results *r, struct overhead *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		for (size_t i = 0; i < c->nruns; i++) {
			const struct run *x = c->runs[i];
			if (!x->inst)
				continue;
			char twin[512];
			control_name(x->name, twin, sizeof(twin));
			const struct run *y = NULL;
			for (size_t j = 0; j < c->nruns && !y; j++)
				if (!c->runs[j]->inst && !strcmp(c->runs[j]->name, twin))
					y = c->runs[j];
			if (!y)
				continue;
			/* The fill phase where both have one: the mechanism's phase. */
			bool fill = isfinite(x->fill_tps_raw) && isfinite(y->fill_tps_raw);
			double a = fill ? y->fill_tps_raw : y->tps_raw;
			double b = fill ? x->fill_tps_raw : x->tps_raw;
			if (!(a > 0) || !(b > 0))
				continue;
			add(row_for(o, x->inst, c->variant, fill), a, b);
			add(row_for(o, x->inst, "all", fill), a, b);
		}
	}
	/* One variant only: its row and "all" say the same. */
	for (int i = 0; i < o->n; i++) {
		if (strcmp(o->row[i].variant, "all"))
			continue;
		int others = 0;
		for (int j = 0; j < o->n; j++)
			others += j != i && o->row[j].inst == o->row[i].inst &&
				  o->row[j].fill == o->row[i].fill && strcmp(o->row[j].variant, "all");
		if (others == 1) {
			o->row[i] = o->row[--o->n];
			i--;
		}
	}
	for (int i = 0; i < o->n; i++)
		o->row[i].q = st_ratio_paired(o->row[i].a, o->row[i].b, o->row[i].n);
	qsort(o->row, (size_t)o->n, sizeof(o->row[0]), by_label);
}

static const char *interval(const struct ratio *q, char *buf, size_t len)
{
	if (q->ok)
		snprintf(buf, len, "%.3f [%.3f, %.3f]", q->est, q->lo, q->hi);
	else
		snprintf(buf, len, "%.3f (one pair: no interval)", q->est);
	return buf;
}

void overhead_line(const struct results *r, const struct overhead *o, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = 0;
	/* The pooled rows: "all" where there are several variants, else the one. */
	for (int i = 0; i < o->n && off < len; i++) {
		const struct overhead_row *w = &o->row[i];
		bool pooled = !strcmp(w->variant, "all");
		bool alone = true;
		for (int j = 0; j < o->n; j++)
			if (j != i && o->row[j].inst == w->inst && !strcmp(o->row[j].variant, "all"))
				alone = false;
		if (!pooled && !alone)
			continue;
		char iv[64], budget[96] = "";
		/* Issue 36: an instrument may cost at most 3% of the tps it explains. */
		if (w->q.est > 0 && w->q.est < 1 - OVERHEAD_BUDGET)
			snprintf(budget, sizeof(budget), ", over the %.0f%% budget by %.1f points",
				 100 * OVERHEAD_BUDGET, 100 * (1 - OVERHEAD_BUDGET - w->q.est));
		else if (w->q.est > 0)
			snprintf(budget, sizeof(budget), ", within the %.0f%% budget",
				 100 * OVERHEAD_BUDGET);
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s (%zu pair%s%s)",
					off ? "; " : "", w->label,
					interval(&w->q, iv, sizeof(iv)), w->n, w->n == 1 ? "" : "s",
					budget);
	}
	if (off) {
		if (off < len)
			snprintf(buf + off, len - off, ": %s tps with / without the instrument, each "
				 "run against its bare twin on the same seed in the same boot "
				 "(geometric mean of the paired ratios, 95%% t interval).%s",
				 o->row[0].fill ? "fill-phase" : "whole-run",
				 r->ntwinned ? " Timings in this report are the bare runs'; "
				 "counts (faults and switches per hold, q_M, T_tail) the instrumented "
				 "runs'." : "");
		return;
	}
	if (r->ntwinned)
		snprintf(buf, len, "not paired in this run; timings are the %zu bare runs', counts "
			 "the %zu instrumented runs' (CONTROLS=on).", r->nbare, r->ntwinned);
	else if (r->nuntwinned)
		snprintf(buf, len, "%zu run(s) carried an instrument and have no bare twin "
			 "(CONTROLS=off): their timings include the instrument's cost, not "
			 "measured in this run (docs/evidence.md, SCENARIO=overhead, measures it).",
			 r->nuntwinned);
	else
		snprintf(buf, len, "no run carried an instrument (trace, hold records or events, "
			 "profile)%s.", r->nwarm ? "" : "");
}

void overhead_txt(FILE *f, const struct overhead *o)
{
	if (!o->n)
		return;
	txt_printf(f, "%-38s %-14s %5s  %s\n", "instrument", "kernel/model", "pairs",
		   "tps with/without [95%]");
	for (int i = 0; i < o->n; i++) {
		const struct overhead_row *w = &o->row[i];
		char iv[64];
		txt_printf(f, "%-38.38s %-14.14s %5zu  %s%s\n", w->label, w->variant, w->n,
			   interval(&w->q, iv, sizeof(iv)), w->fill ? "" : " (run)");
	}
}

void overhead_md(FILE *f, const struct overhead *o)
{
	if (!o->n)
		return;
	md_printf(f, "| instrument | kernel/model | pairs | %s tps with / without | 95%% interval | p |\n"
		  "|---|---|---:|---:|---|---:|\n", o->row[0].fill ? "fill" : "run");
	for (int i = 0; i < o->n; i++) {
		const struct overhead_row *w = &o->row[i];
		if (w->q.ok)
			md_printf(f, "| %s | %s | %zu | %.3f | [%.3f, %.3f] | %.3g |\n", w->label,
				  w->variant, w->n, w->q.est, w->q.lo, w->q.hi, w->q.w.p);
		else
			md_printf(f, "| %s | %s | %zu | %.3f | - | - |\n", w->label, w->variant, w->n,
				  w->q.est);
	}
}

/* s as HTML text: sanitised as for report.txt, then entities (report_html.c's rule). */
static void h(FILE *f, const char *s)
{
	char *clean = esc_dup(s, ESC_TXT);
	for (const char *p = clean; p && *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*p, f);
		}
	}
	free(clean);
}

void overhead_html(FILE *f, const struct overhead *o)
{
	if (!o->n)
		return;
	fputs("<table>\n<tr><th>instrument</th><th>kernel/model</th><th>pairs</th>"
	      "<th>tps with / without</th><th>95% interval</th></tr>\n", f);
	for (int i = 0; i < o->n; i++) {
		const struct overhead_row *w = &o->row[i];
		fputs("<tr><td>", f);
		h(f, w->label);
		fputs("</td><td>", f);
		h(f, w->variant);
		fprintf(f, "</td><td>%zu</td><td>%.3f</td><td>", w->n, w->q.est);
		if (w->q.ok)
			fprintf(f, "[%.3f, %.3f]", w->q.lo, w->q.hi);
		else
			fputs("-", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
