#include "fillphase.h"
#include "evidence.h"
#include "rho.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "textfmt.h"

static const struct metric m_fill_tps = { "fill tps", "results.phase.fill.tps", "", 1, true, true };
static const struct metric m_fill_spin = { "fill wait", "results.phase.fill.wait_share", "", 100,
					   false, true };
static const struct metric m_fill_cpu_spin = { "fill CPU spin", "results.phase.fill.cpu_spin_share",
					       "", 100, false, true };
static const struct metric m_steady_tps = { "steady tps", "results.phase.steady.tps", "", 1, true,
					    true };
static const struct metric m_ttf = { "time to fill", "results.time_to_fill_s", "", 1, false, true };
static const struct metric m_pg_ttf = { "shared_buffers fill", "results.buffer_fill.time_to_fill_s",
					"", 1, false, true };

static bool is_bufbench(const struct cell *c)
{
	return !strcmp(c->tool, "bufbench");
}

/*
 * Faulting holds are counted, not timed: pooled over the cell's runs (the
 * sum of holds that faulted over the sum of acquisitions), so that one
 * short run does not weigh as much as a long one.  -1: not counted.
 */
static double pooled_share(const struct cell *c, const char *num, const char *den)
{
	double n = 0, d = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		double a, b;
		if (json_read_num(c->runs[i]->doc, num, &a) && json_read_num(c->runs[i]->doc, den, &b)) {
			n += a;
			d += b;
		}
	}
	return d > 0 ? 100 * n / d : -1;
}

static bool hold_events(const struct cell *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (json_read_true(c->runs[i]->doc, "config.hold_events"))
			return true;
	return false;
}

/* "2 of 2 in the run", "1 never filled", ... */
static void fill_states(const struct cell *c, char *buf, size_t len)
{
	size_t in = 0, never = 0, before = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const char *s = json_read_str(c->runs[i]->doc, "results.fill_state", "");
		in += !strcmp(s, "in-interval");
		never += !strcmp(s, "not-reached");
		before += !strcmp(s, "before-interval");
	}
	buf[0] = '\0';
	if (never || before)
		snprintf(buf, len, "of %zu runs: %zu filled within the measured interval, %zu never "
			 "filled (fill phase only), %zu filled during warm-up (steady phase only)",
			 c->nruns, in, never, before);
}

/* pgbench: the largest share of shared_buffers in use in any run, in %. */
static double pg_max_used_pct(const struct cell *c)
{
	double best = -1;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *u = json_read_path(c->runs[i]->doc, "results.buffer_fill.used");
		double total;
		if (!u || u->type != JR_ARR || !u->n ||
		    !json_read_num(c->runs[i]->doc, "results.buffer_fill.total_buffers", &total) || total <= 0)
			continue;
		for (size_t k = 0; k < u->n; k++)
			if (u->items[k]->type == JR_NUM && 100 * u->items[k]->num / total > best)
				best = 100 * u->items[k]->num / total;
	}
	return best;
}

bool fill_present(const struct results *r)
{
	for (size_t k = 0; k < r->ncells; k++) {
		struct side s;
		if (is_bufbench(&r->cells[k]) && side_of(&r->cells[k], &m_fill_tps, &s))
			return true;
		if (!is_bufbench(&r->cells[k]) && (side_of(&r->cells[k], &m_pg_ttf, &s) ||
						    pg_max_used_pct(&r->cells[k]) >= 0))
			return true;
	}
	return false;
}

/* The cell like c in everything but pages (or strategy) = want. */
static const struct cell *twin(const struct results *r, const struct cell *c, long page_kb,
			       const char *strategy)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *o = &r->cells[k];
		if (o != c && !strcmp(o->tool, c->tool) && !strcmp(o->variant, c->variant) &&
		    !strcmp(o->lock, c->lock) && !strcmp(o->workload, c->workload) &&
		    o->clients == c->clients && o->page_kb == page_kb &&
		    !strcmp(o->strategy, strategy) && !strcmp(o->mitigation, c->mitigation))
			return o;
	}
	return NULL;
}

/*
 * a / b as the ratio of geometric means with its 95% interval from Welch
 * on the logs (statistics.h), the estimator tested; with a single run on a
 * side there is no interval, and the band [min/max .. max/min] of the
 * runs is all there is.
 */
bool fill_ratio_of(const struct cell *a, const struct cell *b, const struct metric *m,
		   struct fill_ratio *out)
{
	struct side sa, sb;
	if (!a || !b || !side_of(a, m, &sa) || !side_of(b, m, &sb) || sb.median <= 0 ||
	    sb.min <= 0)
		return false;
	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	struct comparison c;
	if (compare_cells(b, a, m, &c) && c.log_scale) {
		out->ratio = c.ratio.est;
		out->lo = c.ratio.lo;
		out->hi = c.ratio.hi;
		out->p = c.w.p;
		out->mde_pct = 100 * c.ratio.mde;
		out->tested = true;
	} else {
		out->ratio = sa.median / sb.median;
		out->lo = sa.min / sb.max;
		out->hi = sa.max / sb.min;
	}
	/* One run a side: the band is a point, and a point resolves nothing. */
	out->single = !out->tested && sa.n < 2 && sb.n < 2;
	out->resolved = !out->single && (out->lo > 1 || out->hi < 1);
	return true;
}

static void ratio_text(const struct fill_ratio *q, char *buf, size_t len)
{
	if (q->tested) {
		snprintf(buf, len, "%.3fx [%.3f, %.3f], p %.2g, mde %.1f%% (80%% power)%s",
			 q->ratio, q->lo, q->hi, q->p, q->mde_pct,
			 q->resolved ? "" : ", not resolved");
		return;
	}
	if (q->single) {
		snprintf(buf, len, "%.2fx [one run a side: not resolved, no difference can be]",
			 q->ratio);
		return;
	}
	/* The band's half-width: the smallest difference these runs can tell. */
	double res = 100 * (q->hi - q->lo) / 2 / q->ratio;
	if (q->resolved)
		snprintf(buf, len, "%.2fx [%.2f..%.2f, resolved]", q->ratio, q->lo, q->hi);
	else
		snprintf(buf, len, "%.2fx [%.2f..%.2f, not resolved: these runs cannot tell "
			 "differences under %.0f%%]", q->ratio, q->lo, q->hi, res);
}

static long smallest_page(const struct results *r)
{
	long p = 0;
	for (size_t k = 0; k < r->ncells; k++)
		if (is_bufbench(&r->cells[k]) && (!p || r->cells[k].page_kb < p))
			p = r->cells[k].page_kb;
	return p;
}

void fill_headline(const struct results *r, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	if (!fill_present(r))
		return;
	/* The first bufbench cell on the smallest pages with the PG 15-18 freelist. */
	const struct cell *c = NULL;
	long p4 = smallest_page(r);
	for (size_t k = 0; k < r->ncells && !c; k++) {
		const struct cell *x = &r->cells[k];
		struct side s;
		if (is_bufbench(x) && x->page_kb == p4 && !strcmp(x->strategy, "pg") &&
		    side_of(x, &m_fill_tps, &s))
			c = x;
	}
	if (!c) {
		snprintf(buf, len, "Fill phase: see the section below.");
		return;
	}
	char pg[16], pg2[16], t[256];
	struct side ttf;
	off += (size_t)snprintf(buf + off, len - off, "Fill phase (C%d %s, %ld clients",
				c->id, c->variant, c->clients);
	if (side_of(c, &m_ttf, &ttf))
		off += (size_t)snprintf(buf + off, len - off, ", %.1f s to fill", ttf.median);
	off += (size_t)snprintf(buf + off, len - off, "):");
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *o = &r->cells[k];
		struct fill_ratio q;
		if (o->page_kb > c->page_kb && twin(r, c, o->page_kb, "pg") == o &&
		    fill_ratio_of(c, o, &m_fill_tps, &q)) {
			ratio_text(&q, t, sizeof(t));
			off += (size_t)snprintf(buf + off, len - off, " fill-phase tps of %s pages "
						"against %s: %s;", page_name(c->page_kb, pg, sizeof(pg)),
						page_name(o->page_kb, pg2, sizeof(pg2)), t);
		}
	}
	struct fill_ratio q;
	if (fill_ratio_of(c, twin(r, c, c->page_kb, "pg19"), &m_fill_tps, &q)) {
		ratio_text(&q, t, sizeof(t));
		off += (size_t)snprintf(buf + off, len - off,
					" fill-phase tps of PostgreSQL 15-18's freelist (pg) against "
					"PostgreSQL 19's clock sweep (pg19): %s;", t);
	}
	double fh = pooled_share(c, "results.phase.fill.strategy.holds_with_fault",
				 "results.phase.fill.strategy.acquisitions");
	double eh = evidence_fill_share(c, "holds_with_fault");
	if (hold_events(c) && fh >= 0)
		off += (size_t)snprintf(buf + off, len - off,
					" %.2f%% of its fill-phase strategy-lock holds took a page "
					"fault.", fh);
	else if (eh >= 0)
		off += (size_t)snprintf(buf + off, len - off,
					" %.2f%% of its fill-phase strategy-lock holds took a page "
					"fault (counted in the kernel's trace).", eh);
	else
		off += (size_t)snprintf(buf + off, len - off,
					" faulting holds not counted (HOLD_EVENTS=on counts them).");
	(void)off;
}

struct row {
	const struct cell *c;
	struct side tps, spin, cpu_spin, steady, ttf, pgttf;
	bool has_tps, has_spin, has_cpu_spin, has_steady, has_ttf, has_pgttf;
	double fault_pct, switch_pct;
	double rho;		/* -1: none */
	bool rho_records;	/* from hold records, not lockstats */
};

static void row_of(const struct cell *c, struct row *w)
{
	memset(w, 0, sizeof(*w));
	w->c = c;
	w->has_tps = side_of(c, &m_fill_tps, &w->tps);
	w->has_spin = side_of(c, &m_fill_spin, &w->spin);
	w->has_cpu_spin = side_of(c, &m_fill_cpu_spin, &w->cpu_spin);
	w->rho = cell_fill_rho(c, &w->rho_records);
	w->has_steady = side_of(c, &m_steady_tps, &w->steady);
	w->has_ttf = side_of(c, &m_ttf, &w->ttf);
	w->has_pgttf = side_of(c, &m_pg_ttf, &w->pgttf);
	w->fault_pct = hold_events(c) ? pooled_share(c, "results.phase.fill.strategy.holds_with_fault",
						     "results.phase.fill.strategy.acquisitions")
				      : evidence_fill_share(c, "holds_with_fault");
	w->switch_pct = hold_events(c) ? pooled_share(c,
						      "results.phase.fill.strategy.holds_with_switch",
						      "results.phase.fill.strategy.acquisitions")
				       : evidence_fill_share(c, "holds_switched");
}

static const char *num(double v, bool has, char *buf, size_t len)
{
	/* Into buf either way: row_format keeps buf, not what this returns. */
	if (!has || v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	return fmt_val(v, buf, len);
}

static double spread(const struct side *s)
{
	return s->median > 0 ? 100 * (s->max - s->min) / s->median : 0;
}

/* Every comparison within the fill phase: pages, then strategies. */
static void comparisons(FILE *f, const struct results *r, bool md)
{
	char pg[16], pg2[16], t[256], line[512];
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (!is_bufbench(c))
			continue;
		for (size_t j = 0; j < r->ncells; j++) {
			const struct cell *o = &r->cells[j];
			struct fill_ratio q;
			if (o->page_kb <= c->page_kb || twin(r, c, o->page_kb, c->strategy) != o ||
			    !fill_ratio_of(c, o, &m_fill_tps, &q))
				continue;
			ratio_text(&q, t, sizeof(t));
			snprintf(line, sizeof(line), "C%d/C%d fill tps, %s / %s (%s): %s", c->id, o->id,
				 page_name(c->page_kb, pg, sizeof(pg)),
				 page_name(o->page_kb, pg2, sizeof(pg2)), c->strategy, t);
			if (md)
				md_printf(f, "- %s\n", line);
			else
				text_para(f, "  ", line, 4);
		}
		/* Between models (kernel/model): the same cell on another variant. */
		for (size_t j = k + 1; j < r->ncells; j++) {
			const struct cell *o = &r->cells[j];
			struct fill_ratio q;
			char cold[256];
			if (!is_bufbench(o) || !strcmp(o->variant, c->variant) ||
			    strcmp(o->lock, c->lock) || strcmp(o->workload, c->workload) ||
			    o->clients != c->clients || o->page_kb != c->page_kb ||
			    strcmp(o->strategy, c->strategy) || strcmp(o->mitigation, c->mitigation) ||
			    !fill_ratio_of(o, c, &m_fill_tps, &q))
				continue;
			ratio_text(&q, t, sizeof(t));
			int n = snprintf(line, sizeof(line), "C%d/C%d fill tps, %s / %s (%s, %s): %s",
					 o->id, c->id, o->variant, c->variant,
					 page_name(c->page_kb, pg, sizeof(pg)), c->strategy, t);
			if (cold_lock_line(o, c, cold, sizeof(cold)) && n > 0 && (size_t)n < sizeof(line))
				snprintf(line + n, sizeof(line) - (size_t)n, "; %s", cold);
			if (md)
				md_printf(f, "- %s\n", line);
			else
				text_para(f, "  ", line, 4);
		}
		struct fill_ratio q;
		if (!strcmp(c->strategy, "pg") &&
		    fill_ratio_of(c, twin(r, c, c->page_kb, "pg19"), &m_fill_tps, &q)) {
			ratio_text(&q, t, sizeof(t));
			snprintf(line, sizeof(line), "C%d/C%d fill tps, pg / pg19 (%s): %s", c->id,
				 q.b->id, page_name(c->page_kb, pg, sizeof(pg)), t);
			if (md)
				md_printf(f, "- %s\n", line);
			else
				text_para(f, "  ", line, 4);
		}
	}
}

static const char *intro =
	"The fill phase runs from the start until every buffer has been handed out "
	"once (the freelist first empty; for pg19 the clock hand's first pass); the "
	"steady phase is the rest. Medians over repetitions; spread = (max - min) / "
	"median; in report.txt fill = time to fill (s), sprd = spread %, flt% = "
	"faulted, swt% = switched, steady = steady-phase tps. Faulted = strategy-lock "
	"holds in which the holder took a page fault, switched = in which it was switched out, both pooled over the runs (counted, "
	"not timed). rho = the strategy lock's utilisation X m E[hold] (acquisitions per "
	"second times the mean hold, faults included) from the hold records (EVIDENCE=on), "
	"or from lockstats' hold time where a cell has none (marked *); spin = the CPU "
	"spin share (spin iterations times their cost over the clients' CPU time, as a "
	"profile's s_lock share); below rho 0.3 the lock is cold, not the report's regime. "
	"A ratio is of the geometric means with its 95% interval, p and "
	"80%-power mde from Welch's t-test on log tps; with one run on a side, its band "
	"is [min/max .. max/min] of the runs. Resolved when the interval excludes 1.";

/* A share in % in at most 5 characters, for report.txt's 80 columns. */
static void pct5(double v, bool has, char *buf, size_t len)
{
	if (!has || v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, v >= 99.95 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

/* A row's figures as both writers print them. */
struct row_text {
	char ttf[32], tps[32], spin[32], cpu_spin[32], rho[32], fault[32], sw[32], steady[32];
	char spin5[8], cpu_spin5[8], fault5[8], sw5[8];	/* report.txt's */
	double spread;
};

static void row_format(const struct row *w, struct row_text *t)
{
	num(w->ttf.median, w->has_ttf, t->ttf, sizeof(t->ttf));
	num(w->tps.median, w->has_tps, t->tps, sizeof(t->tps));
	num(w->spin.median, w->has_spin, t->spin, sizeof(t->spin));
	num(w->cpu_spin.median, w->has_cpu_spin, t->cpu_spin, sizeof(t->cpu_spin));
	if (w->rho < 0)
		snprintf(t->rho, sizeof(t->rho), "-");
	else
		snprintf(t->rho, sizeof(t->rho), "%.2f%s", w->rho, w->rho_records ? "" : "*");
	num(w->fault_pct, true, t->fault, sizeof(t->fault));
	num(w->switch_pct, true, t->sw, sizeof(t->sw));
	num(w->steady.median, w->has_steady, t->steady, sizeof(t->steady));
	t->spread = spread(&w->tps);
	pct5(w->spin.median, w->has_spin, t->spin5, sizeof(t->spin5));
	pct5(w->cpu_spin.median, w->has_cpu_spin, t->cpu_spin5, sizeof(t->cpu_spin5));
	pct5(w->fault_pct, true, t->fault5, sizeof(t->fault5));
	pct5(w->switch_pct, true, t->sw5, sizeof(t->sw5));
}

/* What pg_buffercache saw of a pgbench cell, or false when it was not asked. */
static bool pg_fill_sentence(const struct cell *c, char *buf, size_t len)
{
	struct row w;
	char pg[16], v[32];
	row_of(c, &w);
	double used = pg_max_used_pct(c);
	int n = snprintf(buf, len, "C%d %s %s %s, %ld clients: ", c->id, c->variant,
			 page_name(c->page_kb, pg, sizeof(pg)), c->workload, c->clients);
	if (n < 0 || (size_t)n >= len)
		return false;
	if (w.has_pgttf)
		snprintf(buf + n, len - (size_t)n, "shared_buffers filled after %s s (median of %zu "
			 "runs)", fmt_val(w.pgttf.median, v, sizeof(v)), w.pgttf.n);
	else if (used >= 0)
		snprintf(buf + n, len - (size_t)n, "shared_buffers did not fill within the runs, at "
			 "most %.0f%% in use (a longer PG_DURATION covers it)", used);
	else
		return false;
	return true;
}

void write_fill_txt(FILE *f, const struct results *r)
{
	char st[256], grp[400] = "";
	struct row_text t;
	text_para(f, "", intro, 0);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		struct row w;
		if (!is_bufbench(c))
			continue;
		row_of(c, &w);
		if (!w.has_tps && !w.has_steady)
			continue;
		char this[400], pg[16], cid[8];
		snprintf(this, sizeof(this), "%s, lock %s, %ld clients, %s", c->variant, c->lock,
			 c->clients, c->workload);
		if (strcmp(this, grp)) {
			snprintf(grp, sizeof(grp), "%s", this);
			txt_printf(f, "\n%s\n", grp);
			txt_printf(f, "%-4s %-5s %-6s %2s %5s %8s %4s %5s %5s %5s %5s %5s %8s\n", "cell",
				"pages", "strat", "n", "fill", "fill_tps", "sprd", "rho", "spin%",
				"wait%", "flt%", "swt%", "steady");
		}
		snprintf(cid, sizeof(cid), "C%d", c->id);
		row_format(&w, &t);
		txt_printf(f, "%-4s %-5s %-6.6s %2zu %5s %8s %4.0f %5s %5s %5s %5s %5s %8s\n", cid,
			page_name(c->page_kb, pg, sizeof(pg)), c->strategy, c->nruns, t.ttf, t.tps,
			t.spread, t.rho, t.cpu_spin5, t.spin5, t.fault5, t.sw5, t.steady);
		fill_states(c, st, sizeof(st));
		if (st[0])
			text_para(f, "      ", st, 6);
	}
	fputc('\n', f);
	comparisons(f, r, false);
	bool pg_rows = false;
	for (size_t k = 0; k < r->ncells; k++) {
		char line[600];
		if (is_bufbench(&r->cells[k]) || !pg_fill_sentence(&r->cells[k], line, sizeof(line)))
			continue;
		if (!pg_rows)
			txt_printf(f, "\npgbench: shared_buffers in use (pg_buffercache)\n");
		pg_rows = true;
		text_para(f, "  ", line, 4);
	}
}

void write_fill_md(FILE *f, const struct results *r)
{
	struct row_text t;
	fputs("\n## Fill phase\n\n", f);
	fputs(intro, f);
	fputs("\n\n", f);
	md_printf(f, "| cell | kernel/model | pages | strategy | lock | clients | n | time to fill s | "
		   "fill tps | spread %% | rho | fill CPU spin %% | fill wait %% | faulted %% | "
		   "switched %% | steady tps |\n"
		   "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		struct row w;
		if (!is_bufbench(c))
			continue;
		row_of(c, &w);
		if (!w.has_tps && !w.has_steady)
			continue;
		char pg[16];
		row_format(&w, &t);
		md_printf(f, "| C%d | %s | %s | %s | %s | %ld | %zu | %s | %s | %.1f | %s | %s | %s | %s | "
			"%s | %s |\n",
			c->id, c->variant, page_name(c->page_kb, pg, sizeof(pg)), c->strategy, c->lock,
			c->clients, c->nruns, t.ttf, t.tps, t.spread, t.rho, t.cpu_spin, t.spin, t.fault,
			t.sw, t.steady);
	}
	fputc('\n', f);
	comparisons(f, r, true);
	for (size_t k = 0; k < r->ncells; k++) {
		char line[600];
		if (!is_bufbench(&r->cells[k]) && pg_fill_sentence(&r->cells[k], line, sizeof(line)))
			md_printf(f, "- pgbench %s\n", line);
	}
}
