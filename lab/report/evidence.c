#include "evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "modelcost.h"
#include "pairs.h"
#include "statistics.h"
#include "textfmt.h"

enum { E_HOLDS, E_FAULT, E_SWITCHED, E_IRQ, E_IRQ_FAULT, E_USER, E_VOL, E_BLOCKED, E_UNKNOWN,
       E_OFF_NS, E_WAIT_NS, E_PREEMPT, E_QK, E_Q_IN, E_Q_EXIT, E_Q_BLK, E_Q_OTHER, E_LOST, E_N };

static const char *const paths[E_N] = {
	"holds", "holds_with_fault", "holds_switched", "switches.irq", "switches.irq_in_fault",
	"switches.user", "switches.voluntary", "switches.blocked", "switches.unknown",
	"offcpu.total_ns", "waiter_ns", "switches.preempt", "q_m.k", "q_m.in_fault",
	"q_m.fault_exit", "q_m.blocked_in_fault", "q_m.other", NULL,
};

struct ev_row {
	double v[E_N];
	double max_off_us;
	int runs;
	bool has_q;		/* the documents carry q_M (issue 24's join) */
	/* T_tail of the phase from the bufbench document, where it has one. */
	int tail_runs;
	double tail_ms, tail_count, tail_gaps;
	double duration_s;	/* the phase's, summed over the runs with evidence */
	double res_ns;		/* coarsest timestamp resolution of the runs */
};

static const struct json_read_val *phase_in(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (!strcmp(json_read_str(arr->items[i], "name", ""), name))
			return arr->items[i];
	return NULL;
}

static const struct json_read_val *evphase_of(const struct json_read_val *doc, const char *name)
{
	return phase_in(json_read_path(doc, "evidence.phases"), name);
}

static const struct json_read_val *fill_of(const struct json_read_val *doc)
{
	return evphase_of(doc, "fill");
}

double evidence_fill_share(const struct cell *c, const char *field)
{
	double n = 0, d = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *p = fill_of(c->runs[i]->doc);
		double a, b;
		if (p && json_read_num(p, field, &a) && json_read_num(p, "holds", &b)) {
			n += a;
			d += b;
		}
	}
	return d > 0 ? 100 * n / d : -1;
}

/*
 * T_tail, the time the lock sits free after a release while a waiter
 * waits, comes from the bufbench side (results.phases[].t_tail, with
 * total_ms, count, gaps), not from the trace.  Read where it may be, as an
 * object under either name; absent is said as such.
 */
static const struct json_read_val *tail_of(const struct json_read_val *doc, const char *phase)
{
	const struct json_read_val *ph = phase_in(json_read_path(doc, "results.phases"), phase);
	const struct json_read_val *t = ph ? json_read_get(ph, "t_tail") : NULL;
	if (!t || t->type != JR_OBJ)
		t = ph ? json_read_get(ph, "T_tail") : NULL;
	return t && t->type == JR_OBJ ? t : NULL;
}

static bool row_phase(const struct cell *c, const char *phase, struct ev_row *w)
{
	memset(w, 0, sizeof(*w));
	if (strcmp(c->tool, "bufbench"))
		return false;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *d = c->runs[i]->doc, *p = evphase_of(d, phase);
		double x;
		if (!p)
			continue;
		w->runs++;
		for (int k = 0; k < E_N; k++)
			if (paths[k] && json_read_num(p, paths[k], &x))
				w->v[k] += x;
		w->has_q |= json_read_path(p, "q_m") != NULL;
		if (json_read_num(d, "evidence.trace_lost", &x))
			w->v[E_LOST] += x;
		if (json_read_num(p, "offcpu.max_us", &x) && x > w->max_off_us)
			w->max_off_us = x;
		if (json_read_num(d, "evidence.timestamp_resolution_ns", &x) && x > w->res_ns)
			w->res_ns = x;
		const struct json_read_val *rp = phase_in(json_read_path(d, "results.phases"), phase);
		if (rp && json_read_num(rp, "duration_s", &x))
			w->duration_s += x;
		const struct json_read_val *t = tail_of(d, phase);
		if (t && json_read_num(t, "total_ms", &x)) {
			w->tail_runs++;
			w->tail_ms += x;
			if (json_read_num(t, "count", &x))
				w->tail_count += x;
			if (json_read_num(t, "gaps", &x))
				w->tail_gaps += x;
		}
	}
	return w->runs > 0;
}

static bool row_of(const struct cell *c, struct ev_row *w)
{
	return row_phase(c, "fill", w);
}

bool evidence_present(const struct results *r)
{
	struct ev_row w;
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w))
			return true;
	return false;
}

static double pct(double a, double b)
{
	return b > 0 ? 100 * a / b : 0;
}

/* Under none and voluntary the kernel build has no in-kernel preemption at all. */
static bool no_kernel_preemption(const struct cell *c)
{
	return !strcmp(c->model, "none") || !strcmp(c->model, "voluntary");
}

static void sentence(const struct cell *c, const struct ev_row *w, char *buf, size_t len)
{
	char pg[32];
	double inside = w->v[E_IRQ] + w->v[E_PREEMPT] - w->v[E_IRQ_FAULT];
	int o = snprintf(buf, len,
		 "Under %s at %s (C%d), of %.0f fill-phase holds %.2f%% were preempted inside a "
		 "fault, %.2f%% inside the kernel elsewhere, %.2f%% switched at the return to user, "
		 "%.2f%% at a voluntary point, %.2f%% blocked; holders were off CPU %.1f ms in all "
		 "(longest %.1f ms) while %.2f waiters, on average, waited.",
		 c->variant, page_name(c->page_kb, pg, sizeof(pg)), c->id, w->v[E_HOLDS],
		 pct(w->v[E_IRQ_FAULT], w->v[E_HOLDS]), pct(inside, w->v[E_HOLDS]),
		 pct(w->v[E_USER], w->v[E_HOLDS]), pct(w->v[E_VOL], w->v[E_HOLDS]),
		 pct(w->v[E_BLOCKED], w->v[E_HOLDS]), w->v[E_OFF_NS] / 1e6, w->max_off_us / 1e3,
		 w->v[E_OFF_NS] > 0 ? w->v[E_WAIT_NS] / w->v[E_OFF_NS] : 0);
	if (no_kernel_preemption(c) && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, w->v[E_IRQ_FAULT] + w->v[E_IRQ] + w->v[E_PREEMPT] == 0
			 ? " The 0 preempted inside the kernel is a negative control, not a finding: "
			   "under %s the kernel build switches preempt_schedule_irq and "
			   "preempt_schedule off, so it cannot be otherwise."
			 : " Preempted inside the kernel under %s, where the kernel build switches "
			   "preemption off: the classifier or the model is not what it says.",
			 c->model);
}

static const char *intro =
	"From each run's hold records joined with the kernel's own trace of the same window "
	"(tracefs, EVIDENCE=on; docs/evidence.md). Counts are switches of a holder while it "
	"held the strategy lock, in the fill phase, summed over the cell's runs: irq = "
	"preempted on an interrupt's return to kernel code (preempt_schedule_irq), pre = at "
	"a preempt_enable (preempt_schedule), both only possible under full and lazy; infault "
	"= either with the fault handler on the stack; user = at the return to user mode; vol "
	"= at a voluntary point (cond_resched, sched_yield); blk = slept. off ms = time off "
	"CPU while holding; waiters = the waiters' time in those intervals over that time. "
	"Provenance per cell: kernel release, model, page size obtained, lock, CPUs, "
	"virtualization.";

static const char *q_intro =
	"What decides between the models is not whether a holder is preempted inside a fault "
	"but q_M = P(the holder is switched out before release | the hold faulted), by any "
	"route: under none, voluntary and lazy a resched request that lands during the fault "
	"takes effect at the fault's return to user, the lock still held. k of n = faulting "
	"holds switched before release, of all faulting holds, pooled over the cell's runs, "
	"with Wilson's 95% interval; split by the hold's first switch: in fault (preempted "
	"inside the handler), exit (at the fault's return to user), blk (asleep inside the "
	"handler: folio lock, reclaim, mmap_lock retry), other. T_tail = the time the lock sat "
	"free after a release while a waiter was waiting (bufbench's hold records, "
	"results.phases[].t_tail), summed over the runs.";

/* "12 of 345 (3.48%, 95% 1.8-6.0%)", or "no faulting hold". */
static void q_text(const struct ev_row *w, char *buf, size_t len)
{
	if (!w->has_q) {
		snprintf(buf, len, "not in these documents (a bufbench before issue 24)");
		return;
	}
	if (w->v[E_FAULT] <= 0) {
		snprintf(buf, len, "no faulting hold");
		return;
	}
	double lo, hi;
	st_wilson(w->v[E_QK], w->v[E_FAULT], &lo, &hi);
	snprintf(buf, len, "%.0f of %.0f (%.2f%%, 95%% %.2f-%.2f%%)", w->v[E_QK], w->v[E_FAULT],
		 pct(w->v[E_QK], w->v[E_FAULT]), 100 * lo, 100 * hi);
}

static void tail_text(const struct ev_row *w, char *buf, size_t len)
{
	if (!w->tail_runs)
		snprintf(buf, len, "absent");
	else
		snprintf(buf, len, "%.1f ms (%.0f of %.0f gaps)", w->tail_ms, w->tail_count,
			 w->tail_gaps);
}

static void q_rows(FILE *f, const struct results *r, bool md)
{
	static const char *const phases[] = { "fill", "steady" };
	if (md)
		md_printf(f, "| cell | kernel/model | page | phase | q_M: k of n (95%%) | in fault | "
			  "exit | blk | other | T_tail |\n|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < r->ncells; k++)
		for (int p = 0; p < 2; p++) {
			const struct cell *c = &r->cells[k];
			struct ev_row w;
			char q[96], t[64], pg[32], line[512];
			if (!row_phase(c, phases[p], &w))
				continue;
			q_text(&w, q, sizeof(q));
			tail_text(&w, t, sizeof(t));
			char *variant = esc_dup(c->variant, md ? ESC_MD : ESC_TXT);
			snprintf(line, sizeof(line), md ? "| C%d | %s | %s | %s | %s | %.0f | %.0f | %.0f | %.0f | %s |\n"
						  : "C%-3d %-12s %-6s %-6s %-40s %4.0f %4.0f %4.0f %5.0f  %s\n",
				 c->id, variant, page_name(c->page_kb, pg, sizeof(pg)), phases[p], q,
				 w.v[E_Q_IN], w.v[E_Q_EXIT], w.v[E_Q_BLK], w.v[E_Q_OTHER], t);
			free(variant);
			/* Its strings escaped already: md_printf would escape the table's pipes. */
			fputs(line, f);
		}
}

/*
 * Which of the two explains a tps difference: each is time the lock
 * could have served and did not, so over a phase in which the lock is the
 * bottleneck its share of the phase is the share of tps it can account
 * for.  Off-CPU holding is q_M's cost; T_tail the waiters' backoff.
 */
static void explain(const struct pair *p, const struct modelcost *mc, char *buf, size_t len)
{
	static const struct metric fill_tps = { "fill tps", "results.phase.fill.tps", "", 1, true,
						true };
	struct ev_row a, b;
	struct comparison c;
	char pg[32], qa[96], qb[96];
	if (!row_of(p->base, &a) || !row_of(p->cell, &b) || !compare_cells(p->base, p->cell,
									  &fill_tps, &c) ||
	    isnan(c.change_pct)) {
		buf[0] = 0;
		return;
	}
	q_text(&a, qa, sizeof(qa));
	q_text(&b, qb, sizeof(qb));
	int o = snprintf(buf, len, "C%d %s against C%d %s at %s, fill: tps %.3fx", p->cell->id,
			 p->cell->variant, p->base->id, p->base->variant,
			 page_name(p->cell->page_kb, pg, sizeof(pg)), 1 + c.change_pct / 100);
	if (c.log_scale && o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " [%.3f, %.3f], p %.2g", c.ratio.lo,
			      c.ratio.hi, c.w.p);
	double loss = -c.change_pct;	/* points of tps the cell lost */
	double da = a.duration_s > 0 ? a.duration_s / a.runs : 0, db = b.duration_s > 0 ? b.duration_s / b.runs : 0;
	/* Per run, as a share of the run's phase: runs may differ in number. */
	double off_pts = da > 0 && db > 0 ? 100 * (b.v[E_OFF_NS] / 1e9 / b.runs / db -
						   a.v[E_OFF_NS] / 1e9 / a.runs / da) : NAN;
	double tail_pts = a.tail_runs && b.tail_runs && da > 0 && db > 0
		? 100 * (b.tail_ms / 1e3 / b.tail_runs / db - a.tail_ms / 1e3 / a.tail_runs / da) : NAN;
	if (o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, "; q_M %s against %s; holders off CPU while "
			      "holding %.1f against %.1f ms", qb, qa, b.v[E_OFF_NS] / 1e6,
			      a.v[E_OFF_NS] / 1e6);
	if (!isnan(off_pts) && o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " (%+.2f points of the phase)", off_pts);
	char ta[64], tb[64];
	tail_text(&a, ta, sizeof(ta));
	tail_text(&b, tb, sizeof(tb));
	if (o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, "; T_tail %s against %s", tb, ta);
	if (!isnan(tail_pts) && o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " (%+.2f points)", tail_pts);
	/* The third candidate: what the model adds to every fault and system
	 * call, preempting or not (costbench, issue 24). */
	double cost_lo, cost_hi;
	char cost_text[768];
	double cost_pts = modelcost_points(mc, p->base, p->cell, &cost_lo, &cost_hi, cost_text,
					   sizeof(cost_text));
	if (o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, "; %s", cost_text);
	if (o <= 0 || (size_t)o >= len)
		return;
	if (isnan(off_pts)) {
		snprintf(buf + o, len - (size_t)o, ". No phase duration in the documents: the "
			 "share each explains cannot be said.");
		return;
	}
	if (!c.w.ok) {
		snprintf(buf + o, len - (size_t)o, ". With %zu and %zu runs the tps difference "
			 "(%+.1f%%) cannot be tested (REPEAT=3 or more): nothing to explain yet.",
			 c.a.n, c.b.n, c.change_pct);
		return;
	}
	if (!c.significant) {
		snprintf(buf + o, len - (size_t)o, ". The tps difference (%+.1f%%) is not "
			 "significant (p %.2g): there is nothing to explain yet.", c.change_pct,
			 c.w.p);
		return;
	}
	const char *who;
	double best = isnan(tail_pts) ? off_pts : fmax(off_pts, tail_pts);
	if (!isnan(cost_pts))
		best = fmax(best, cost_pts);
	if (loss <= 0)
		who = "the cell is faster: none is a loss to explain";
	else if (best < loss / 4)
		who = isnan(cost_pts)
			? "neither explains it (each accounts for less than a quarter): the rest lies "
			  "outside these two, e.g. the model's own cost per fault and system call "
			  "(not measured here: COSTBENCH=on)"
			: "none of the three explains it (each accounts for less than a quarter)";
	else if (!isnan(cost_pts) && cost_pts >= best)
		who = "the model's own cost per fault and system call explains more of it than "
		      "q_M's outages or T_tail";
	else if (!isnan(tail_pts) && tail_pts > off_pts)
		who = "T_tail explains more of it than q_M's outages";
	else
		who = "q_M's outages (holders off CPU while holding) explain more of it than T_tail";
	char tail_part[64] = "", cost_part[64] = "", rest_part[160] = "";
	if (!isnan(tail_pts))
		snprintf(tail_part, sizeof(tail_part), ", T_tail for %.2f points", tail_pts);
	if (!isnan(cost_pts))
		snprintf(cost_part, sizeof(cost_part), ", the model's own cost for %.2f points", cost_pts);
	/* Added as if independent: an outage's time and the tail's are
	 * disjoint by construction, the cost runs in neither. */
	if (loss > 0 && !isnan(cost_pts) && !isnan(tail_pts))
		snprintf(rest_part, sizeof(rest_part), "; %.2f points remain unexplained by the three",
			 loss - off_pts - tail_pts - cost_pts);
	snprintf(buf + o, len - (size_t)o, ". Of the %.1f-point loss, off-CPU holding accounts "
		 "for %.2f points%s%s: %s%s%s.", loss, off_pts, tail_part, cost_part, who,
		 isnan(tail_pts) ? " (T_tail is absent from these documents)" : "", rest_part);
}

/* For each preemption inside a fault under lazy: what the trace has of it. */
static void lazy_details(FILE *f, const struct results *r, bool md)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, "bufbench") || strcmp(c->model, "lazy"))
			continue;
		for (size_t i = 0; i < c->nruns; i++) {
			const struct json_read_val *p = fill_of(c->runs[i]->doc);
			double n = 0;
			if (!p || !json_read_num(p, "switches.irq_in_fault", &n) || n <= 0)
				continue;
			const struct json_read_val *d = json_read_path(p, "preempted_in_fault");
			char buf[4096];
			int o = snprintf(buf, sizeof(buf), "C%d %s run %zu: %.0f preempted inside a "
					 "fault under lazy, where a fair-class request waits for the "
					 "return to user or the next tick.", c->id, c->variant, i + 1, n);
			if (!d || d->type != JR_ARR) {
				snprintf(buf + o, sizeof(buf) - (size_t)o, " The document has no "
					 "details of them (a bufbench before issue 24).");
			}
			size_t on_tick = 0, described = d && d->type == JR_ARR ? d->n : 0;
			double amin = INFINITY, amax = 0;
			for (size_t j = 0; j < described; j++) {
				const struct json_read_val *x = d->items[j], *tv = json_read_get(x, "timer_interrupts_in_fault");
				double age = 0;
				json_read_num(x, "fault_age_ns", &age);
				amin = fmin(amin, age);
				amax = fmax(amax, age);
				on_tick += strstr(json_read_str(x, "interrupt", ""), "timer") && tv &&
					   tv->type == JR_NUM && tv->num >= 1;
			}
			/* The reading: the tick upgrades a lazy request; a fault that spans one is preempted. */
			if (described && on_tick == described)
				o += snprintf(buf + o, sizeof(buf) - (size_t)o, " All %zu came on the "
					      "timer interrupt's return with at least one tick inside the "
					      "fault, %.1f-%.1f ms after it began: the tick (every 4 ms at HZ 250, 1 ms at HZ 1000) "
					      "upgraded the lazy request to an immediate one, which faults "
					      "that long (an emulated fault) span.", described, amin / 1e6,
					      amax / 1e6);
			else if (described)
				o += snprintf(buf + o, sizeof(buf) - (size_t)o, " %zu of %zu came on the "
					      "timer's return with a tick inside the fault; the others need "
					      "another cause (an RT or deadline wakeup, a non-lazy request).",
					      on_tick, described);
			for (size_t j = 0; d && d->type == JR_ARR && j < d->n && o > 0 &&
					   (size_t)o < sizeof(buf); j++) {
				const struct json_read_val *x = d->items[j];
				double age = 0, ticks = -1, prio = 0;
				json_read_num(x, "fault_age_ns", &age);
				json_read_num(x, "next_prio", &prio);
				const struct json_read_val *tv = json_read_get(x, "timer_interrupts_in_fault");
				if (tv && tv->type == JR_NUM)
					ticks = tv->num;
				const char *irq = json_read_str(x, "interrupt", "");
				char tk[64];
				if (ticks < 0)
					snprintf(tk, sizeof(tk), "timer interrupts not traced");
				else
					snprintf(tk, sizeof(tk), "%.0f timer interrupt%s in the fault",
						 ticks, ticks == 1 ? "" : "s");
				o += snprintf(buf + o, sizeof(buf) - (size_t)o,
					      " %s at %.1f us into the fault (%s%s%s), %s; %s ran "
					      "instead (%s class, prio %.0f).",
					      !strcmp(json_read_str(x, "kind", ""), "irq") ? "On an interrupt's "
					      "return" : "At a preempt_enable", age / 1e3,
					      irq[0] ? "on " : "no interrupt on the stack", irq, "", tk,
					      json_read_str(x, "next_comm", "?"), json_read_str(x, "next_class", "?"),
					      prio);
			}
			if (md)
				md_printf(f, "- %s\n", buf);
			else
				text_para(f, "", buf, 0);
		}
	}
}

/*
 * One table row, written as it is: the report's own format, every string
 * from the documents made safe for the output first (escaping the whole
 * row would escape the markdown table's own pipes).
 */
static void row_text(const struct cell *c, const struct ev_row *w, char *buf, size_t len,
		     bool md)
{
	char pg[32];
	const struct json_read_val *d = c->runs[0]->doc;
	enum esc_mode m = md ? ESC_MD : ESC_TXT;
	double cpus = 0;
	json_read_num(d, "provenance.cpus", &cpus);
	char *variant = esc_dup(c->variant, m), *lock = esc_dup(c->lock, m);
	char *rel = esc_dup(json_read_str(d, "provenance.kernel_release", "?"), m);
	char *virt = esc_dup(json_read_str(d, "provenance.virtualization", "?"), m);
	char *clk = esc_dup(json_read_str(d, "provenance.clocksource", "?"), m);
	snprintf(buf, len,
		 md ? "| C%d | %s | %s | %s | %s | %.0f | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f "
		      "| %.0f | %.0f | %.1f | %.2f | %.0f | %s, %.0f CPUs, %.0f ns stamps |\n"
		    : "C%-3d %-10s %-18s %-6s %-6s %8.0f %-8s %6.0f %8.0f %5.0f %5.0f %7.0f %5.0f %5.0f "
		      "%5.0f %5.0f %8.1f %7.2f %5.0f  %s, %.0f CPUs, %.0f ns stamps\n",
		 c->id, variant, rel, page_name(c->page_kb, pg, sizeof(pg)), lock, w->v[E_HOLDS],
		 virt, w->v[E_FAULT], w->v[E_SWITCHED], w->v[E_IRQ], w->v[E_PREEMPT],
		 w->v[E_IRQ_FAULT], w->v[E_USER], w->v[E_VOL], w->v[E_BLOCKED], w->v[E_UNKNOWN],
		 w->v[E_OFF_NS] / 1e6, w->v[E_OFF_NS] > 0 ? w->v[E_WAIT_NS] / w->v[E_OFF_NS] : 0,
		 w->v[E_LOST], clk, cpus, w->res_ns ? w->res_ns : 1000);
	free(variant), free(lock), free(rel), free(virt), free(clk);
}

/* The comparisons of the bufbench cells, each explained, then the lazy details. */
static void explanations(FILE *f, const struct results *r, bool md)
{
	struct pair *p;
	struct modelcost mc;
	modelcost_load(r, &mc);
	size_t np = pairs_for(r, "bufbench", NULL, &p);
	char buf[3072];
	for (size_t i = 0; i < np; i++) {
		explain(&p[i], &mc, buf, sizeof(buf));
		if (!buf[0])
			continue;
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			text_para(f, "- ", buf, 2);
	}
	free(p);
	modelcost_free(&mc);
	lazy_details(f, r, md);
}

void write_evidence_txt(FILE *f, const struct results *r)
{
	struct ev_row w;
	char buf[1024];
	text_para(f, "", q_intro, 0);
	fprintf(f, "\n%-4s %-12s %-6s %-6s %-40s %4s %4s %4s %5s  %s\n", "cell", "kernel",
		"page", "phase", "q_M: k of n (95%)", "in", "exit", "blk", "other", "T_tail");
	q_rows(f, r, false);
	fputc('\n', f);
	explanations(f, r, false);
	fputc('\n', f);
	text_para(f, "", intro, 0);
	fprintf(f, "\n%-4s %-10s %-18s %-6s %-6s %8s %-8s %6s %8s %5s %5s %7s %5s %5s %5s %5s %8s "
		"%7s %5s  %s\n", "cell", "kernel", "release", "page", "lock", "holds", "virt",
		"faults", "switched", "irq", "pre", "infault", "user", "vol", "blk", "unk", "off ms",
		"waiters", "lost", "clocksource, CPUs");
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			row_text(&r->cells[k], &w, buf, sizeof(buf), false);
			fputs(buf, f);
		}
	fputc('\n', f);
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			sentence(&r->cells[k], &w, buf, sizeof(buf));
			text_para(f, "", buf, 0);
		}
}

void write_evidence_md(FILE *f, const struct results *r)
{
	struct ev_row w;
	char buf[1024];
	md_printf(f, "\n## Why: how holders lost the CPU\n\n%s\n\n", q_intro);
	q_rows(f, r, true);
	md_printf(f, "\n");
	explanations(f, r, true);
	md_printf(f, "\n%s\n\n", intro);
	md_printf(f, "| cell | kernel | release | page | lock | holds | virt | faults | switched "
		  "| irq | pre | infault | user | vol | blk | unk | off ms | waiters | lost | "
		  "clocksource, CPUs |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		  "---|---|---|---|---|---|\n");
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			row_text(&r->cells[k], &w, buf, sizeof(buf), true);
			fputs(buf, f);
		}
	md_printf(f, "\n");
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			sentence(&r->cells[k], &w, buf, sizeof(buf));
			md_printf(f, "- %s\n", buf);
		}
}
