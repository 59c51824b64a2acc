/* "What separates the models" (separates.h). */
#include "separates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "statistics.h"
#include "textfmt.h"

/* The fill phase's numbers a cell sums over its runs, by their document paths. */
enum {
	V_FAULT, V_QK, V_Q_IN, V_Q_EXIT, V_Q_BLK, V_Q_OTHER, V_OFF_NS,
	V_LOCK_NS, V_F0_N, V_F0_NS, V_F0_T, V_F1_N, V_F1_NS, V_F1_T,
	V_T_GAPS, V_T_NS, V_T_ASLEEP, V_T_WOKEN, V_T_PREEMPTED, V_T_SAME, V_T_OTHER, V_T_SELF,
	V_T_UNKNOWN, V_S_ASLEEP, V_S_WOKEN, V_S_PREEMPTED, V_S_SAME, V_S_OTHER, V_S_UNKNOWN,
	V_R_OFF_IN, V_R_OFF_EXIT, V_R_OFF_BLK, V_R_OFF_OTHER,
	V_R_W_IN, V_R_W_EXIT, V_R_W_BLK, V_R_W_OTHER,
	V_D_FOLIO, V_D_RWSEM, V_D_MUTEX, V_D_HUGETLB, V_D_OTHER, V_D_NOSTACK,
	V_DNS_FOLIO, V_DNS_RWSEM, V_DNS_MUTEX, V_DNS_HUGETLB, V_DNS_OTHER, V_DNS_NOSTACK,
	V_DH_FOLIO, V_DH_RWSEM, V_DH_MUTEX, V_DH_HUGETLB, V_DH_OTHER, V_DH_NOSTACK,
	V_FO_WAITS, V_FO_JOINED, V_FO_INHOLD, V_FO_OFF, V_FO_PRE, V_FO_OFF_NS, V_FO_WAIT_NS,
	V_W_SLEPT, V_W_NOWAKE, V_W_LN, V_W_LNS, V_W_RN, V_W_RNS,
	V_TK_N, V_TK_K, V_WAIT_NS, V_FILL_S, V_N
};

static const char *const path[V_N] = {
	"holds_with_fault", "q_m.k", "q_m.in_fault", "q_m.fault_exit", "q_m.blocked_in_fault",
	"q_m.other", "offcpu.total_ns",
	"census.lock_ns", "census.freezes.no_fault.n", "census.freezes.no_fault.ns",
	"census.freezes.no_fault.with_timer", "census.freezes.fault.n", "census.freezes.fault.ns",
	"census.freezes.fault.with_timer",
	"census.tail_by_acquirer.gaps", "census.tail_by_acquirer.ns",
	"census.tail_by_acquirer.asleep.ns", "census.tail_by_acquirer.woken.ns",
	"census.tail_by_acquirer.preempted.ns", "census.tail_by_acquirer.running_same_cpu.ns",
	"census.tail_by_acquirer.running_other_cpu.ns", "census.tail_by_acquirer.releaser_again.ns",
	"census.tail_by_acquirer.unknown.ns",
	"census.tail_by_acquirer.releaser_again_waiter.asleep.ns",
	"census.tail_by_acquirer.releaser_again_waiter.woken.ns",
	"census.tail_by_acquirer.releaser_again_waiter.preempted.ns",
	"census.tail_by_acquirer.releaser_again_waiter.running_same_cpu.ns",
	"census.tail_by_acquirer.releaser_again_waiter.running_other_cpu.ns",
	"census.tail_by_acquirer.releaser_again_waiter.unknown.ns",
	"census.routes.in_fault.offcpu_ns", "census.routes.fault_exit.offcpu_ns",
	"census.routes.blocked_in_fault.offcpu_ns", "census.routes.other.offcpu_ns",
	"census.routes.in_fault.waiter_ns", "census.routes.fault_exit.waiter_ns",
	"census.routes.blocked_in_fault.waiter_ns", "census.routes.other.waiter_ns",
	"census.dstate.folio_wait.n", "census.dstate.rwsem_down.n", "census.dstate.mutex_lock.n",
	"census.dstate.hugetlb_fault_mutex.n", "census.dstate.other.n", "census.dstate.no_stack.n",
	"census.dstate.folio_wait.ns", "census.dstate.rwsem_down.ns", "census.dstate.mutex_lock.ns",
	"census.dstate.hugetlb_fault_mutex.ns", "census.dstate.other.ns",
	"census.dstate.no_stack.ns",
	"census.dstate.folio_wait.in_hold", "census.dstate.rwsem_down.in_hold",
	"census.dstate.mutex_lock.in_hold", "census.dstate.hugetlb_fault_mutex.in_hold",
	"census.dstate.other.in_hold", "census.dstate.no_stack.in_hold",
	"census.folios.waits", "census.folios.joined", "census.folios.waiter_in_hold",
	"census.folios.holder_off_cpu", "census.folios.holder_preempted",
	"census.folios.holder_off_ns", "census.folios.wait_ns",
	"census.wakeups.slept_in_fault", "census.wakeups.no_wake_seen", "census.wakeups.local.n",
	"census.wakeups.local.total_ns", "census.wakeups.remote.n", "census.wakeups.remote.total_ns",
	"census.ticks.fault_holds", "census.ticks.spanning_tick", "waiter_ns", NULL,
};

struct cz {
	const struct cell *c;
	double v[V_N];
	int runs;
	bool folios, wakes, timer;
};

static const struct json_read_val *phase_in(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (!strcmp(json_read_str(arr->items[i], "name", ""), name))
			return arr->items[i];
	return NULL;
}

/* The cell's fill-phase census, summed over the runs that have one. */
static bool census_of(const struct cell *c, struct cz *z)
{
	memset(z, 0, sizeof(*z));
	z->c = c;
	if (strcmp(c->tool, "bufbench"))
		return false;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *d = c->runs[i]->doc;
		const struct json_read_val *p = phase_in(json_read_path(d, "evidence.phases"), "fill");
		double x;
		if (!p || !json_read_path(p, "census"))
			continue;
		z->runs++;
		for (int k = 0; k < V_N; k++)
			if (path[k] && json_read_num(p, path[k], &x))
				z->v[k] += x;
		const struct json_read_val *rp = phase_in(json_read_path(d, "results.phases"), "fill");
		if (rp && json_read_num(rp, "duration_s", &x))
			z->v[V_FILL_S] += x;
		z->folios |= json_read_true(p, "census.folios.traced");
		z->wakes |= json_read_true(p, "census.wakeups.traced");
		z->timer |= json_read_true(p, "census.ticks.traced");
	}
	return z->runs > 0;
}

/* The groups with census evidence for two models or more: their cells, base first. */
static size_t group_cells(const struct results *r, size_t first, struct cz *out)
{
	size_t n = 0;
	const struct cell *g = &r->cells[first];
	for (size_t k = first; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (!strcmp(c->group, g->group) && !strcmp(c->tool, g->tool) && census_of(c, &out[n]))
			n++;
	}
	/* The least preemptible model is the base: first. */
	for (size_t i = 1; i < n; i++)
		if (model_rank(out[i].c->model) < model_rank(out[0].c->model)) {
			struct cz t = out[0];
			out[0] = out[i];
			out[i] = t;
		}
	return n;
}

static size_t models_in(const struct cz *z, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j;
		for (j = 0; j < i && strcmp(z[j].c->model, z[i].c->model); j++)
			;
		m += j == i;
	}
	return m;
}

/* The first cell of each group, so that a group is written once. */
static bool first_of_group(const struct results *r, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (!strcmp(r->cells[j].group, r->cells[k].group) &&
		    !strcmp(r->cells[j].tool, r->cells[k].tool))
			return false;
	return true;
}

bool separates_present(const struct results *r)
{
	struct cz *z = calloc(r->ncells ? r->ncells : 1, sizeof(*z));
	bool any = false;
	for (size_t k = 0; z && !any && k < r->ncells; k++)
		any = first_of_group(r, k) && models_in(z, group_cells(r, k, z)) >= 2;
	free(z);
	return any;
}

static double pct(double a, double b)
{
	return b > 0 ? 100 * a / b : 0;
}

/* "k of n (p%, 95% lo-hi%)". */
static void kn(double k, double n, char *buf, size_t len)
{
	double lo, hi;
	if (n <= 0) {
		snprintf(buf, len, "none of 0");
		return;
	}
	st_wilson(k, n, &lo, &hi);
	snprintf(buf, len, "%.0f of %.0f (%.2f%%, %.2f-%.2f%%)", k, n, pct(k, n), 100 * lo, 100 * hi);
}

/* The three reports: txt's paragraphs, md's and html's tables. */
enum sep_mode { SEP_TXT, SEP_MD, SEP_HTML };

static enum esc_mode esc_of(enum sep_mode m)
{
	return m == SEP_MD ? ESC_MD : m == SEP_HTML ? ESC_HTML : ESC_TXT;
}

/* A table's head (the lab's own words): md's row and rule, html's <th>s. */
static void head(FILE *f, enum sep_mode m, const char *const *col, size_t n)
{
	if (m == SEP_MD) {
		fputc('|', f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, " %s |", col[i]);
		fputs("\n|", f);
		for (size_t i = 0; i < n; i++)
			fputs("---|", f);
		fputc('\n', f);
		return;
	}
	fputs("<div class=\"scroll\"><table><tr>", f);
	for (size_t i = 0; i < n; i++) {
		fputs("<th>", f);
		esc_put(f, col[i], ESC_HTML);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
}

/* One row of cells, each already escaped for m (numbers, and names through esc_dup). */
static void row(FILE *f, enum sep_mode m, char cell[][320], size_t n)
{
	if (m == SEP_MD) {
		fputc('|', f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, " %s |", cell[i]);
		fputc('\n', f);
		return;
	}
	fputs("<tr>", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<td>%s</td>", cell[i]);
	fputs("</tr>\n", f);
}

static void table_end(FILE *f, enum sep_mode m)
{
	if (m == SEP_HTML)
		fputs("</table></div>\n", f);
}

/* "1.29 [0.85, 1.98]", "-" for the base, "no event" when not defined. */
static void rr_text(const struct cz *b, const struct cz *c, double kb, double kc, char *buf,
		    size_t len, enum sep_mode m)
{
	if (b == c) {
		snprintf(buf, len, "base");
		return;
	}
	struct risk_ratio rr = st_risk_ratio(kc, c->v[V_FAULT], kb, b->v[V_FAULT]);
	if (isnan(rr.est))
		snprintf(buf, len, "no switch in either");
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]%s", rr.est, rr.lo, rr.hi,
			 rr.corrected ? (m == SEP_MD ? "\\*" : "*") : "");
}

static const char *const route_name[4] = { "in fault", "at fault exit", "blocked in fault",
					   "other" };

/* q_M by route, per cell, with the stall each route caused. */
static void route_table(FILE *f, const struct cz *z, size_t n, enum sep_mode m)
{
	static const char *const col[] = { "cell", "kernel/model", "route", "k of n (95% Wilson)",
					   "risk ratio vs base [95% Katz]", "holder off CPU ms",
					   "waiters' ms in it" };
	char line[1024], a[96], b[64], cell[7][320];
	if (m != SEP_TXT)
		head(f, m, col, 7);
	else
		fprintf(f, "%-4s %-14s %-17s %-36s %-24s %9s %9s\n", "cell", "kernel/model", "route",
			"k of n (95% Wilson)", "risk ratio [Katz]", "off ms", "waiter ms");
	for (size_t i = 0; i < n; i++) {
		char *variant = esc_dup(z[i].c->variant, esc_of(m));
		for (int r = -1; r < 4; r++) {
			double k = r < 0 ? z[i].v[V_QK] : z[i].v[V_Q_IN + r];
			double kb = r < 0 ? z[0].v[V_QK] : z[0].v[V_Q_IN + r];
			double off = r < 0 ? z[i].v[V_OFF_NS]
				     : z[i].v[V_R_OFF_IN + r];
			double w = r < 0 ? z[i].v[V_WAIT_NS] : z[i].v[V_R_W_IN + r];
			const char *route = r < 0 ? "any (q_M)" : route_name[r];
			kn(k, z[i].v[V_FAULT], a, sizeof(a));
			rr_text(&z[0], &z[i], kb, k, b, sizeof(b), m);
			if (m == SEP_TXT) {
				snprintf(line, sizeof(line), "C%-3d %-14s %-17s %-36s %-24s %9.2f %9.2f\n",
					 z[i].c->id, variant, route, a, b, off / 1e6, w / 1e6);
				fputs(line, f);
				continue;
			}
			snprintf(cell[0], sizeof(cell[0]), "C%d", z[i].c->id);
			snprintf(cell[1], sizeof(cell[1]), "%s", variant);
			snprintf(cell[2], sizeof(cell[2]), "%s", route);
			snprintf(cell[3], sizeof(cell[3]), "%s", a);
			snprintf(cell[4], sizeof(cell[4]), "%s", b);
			snprintf(cell[5], sizeof(cell[5]), "%.2f", off / 1e6);
			snprintf(cell[6], sizeof(cell[6]), "%.2f", w / 1e6);
			row(f, m, cell, 7);
		}
		free(variant);
	}
	table_end(f, m);
}

/* D-state waits of every client, contended folios, wakeups, ticks. */
static void channel_table(FILE *f, const struct cz *z, size_t n, enum sep_mode m)
{
	static const char *const col[] = {
		"cell", "kernel/model", "D: folio", "rwsem", "mutex", "hugetlb mutex", "other",
		"no stack", "of them in a hold",
		"contended folios: joined, holder off CPU (preempted), holder off / wait ms",
		"holders asleep in their fault: woken locally n, mean us; remotely n, mean us",
		"faults spanning a tick (95%)", "risk ratio" };
	char line[1400], t[96], rb[64], cell[13][320];
	if (m != SEP_TXT)
		head(f, m, col, 13);
	for (size_t i = 0; i < n; i++) {
		const double *v = z[i].v;
		char *variant = esc_dup(z[i].c->variant, esc_of(m));
		char fol[192], wk[192];
		if (z[i].folios)
			snprintf(fol, sizeof(fol), "%.0f waits, %.0f joined, %.0f off CPU (%.0f preempted), "
				 "%.2f / %.2f ms", v[V_FO_WAITS], v[V_FO_JOINED], v[V_FO_OFF], v[V_FO_PRE],
				 v[V_FO_OFF_NS] / 1e6, v[V_FO_WAIT_NS] / 1e6);
		else
			snprintf(fol, sizeof(fol), "not traced");
		if (z[i].wakes)
			snprintf(wk, sizeof(wk), "%.0f slept: %.0f local, %.1f us; %.0f remote, %.1f us; "
				 "%.0f no wakeup seen", v[V_W_SLEPT], v[V_W_LN],
				 v[V_W_LN] > 0 ? v[V_W_LNS] / v[V_W_LN] / 1e3 : 0, v[V_W_RN],
				 v[V_W_RN] > 0 ? v[V_W_RNS] / v[V_W_RN] / 1e3 : 0, v[V_W_NOWAKE]);
		else
			snprintf(wk, sizeof(wk), "not traced");
		if (z[i].timer)
			kn(v[V_TK_K], v[V_TK_N], t, sizeof(t));
		else
			snprintf(t, sizeof(t), "not traced");
		if (i == 0) {
			snprintf(rb, sizeof(rb), "base");
		} else {
			struct risk_ratio rr = st_risk_ratio(v[V_TK_K], v[V_TK_N], z[0].v[V_TK_K],
							     z[0].v[V_TK_N]);
			if (isnan(rr.est))
				snprintf(rb, sizeof(rb), "no tick in either");
			else
				snprintf(rb, sizeof(rb), "%.2f [%.2f, %.2f]%s", rr.est, rr.lo, rr.hi,
					 rr.corrected ? (m == SEP_MD ? "\\*" : "*") : "");
		}
		double inhold = v[V_DH_FOLIO] + v[V_DH_RWSEM] + v[V_DH_MUTEX] + v[V_DH_HUGETLB] +
				v[V_DH_OTHER] + v[V_DH_NOSTACK];
		if (m != SEP_TXT) {
			/* D-state switches by wait: count (ms). */
			static const int dn[5][2] = { { V_D_FOLIO, V_DNS_FOLIO }, { V_D_RWSEM, V_DNS_RWSEM },
						      { V_D_MUTEX, V_DNS_MUTEX },
						      { V_D_HUGETLB, V_DNS_HUGETLB },
						      { V_D_OTHER, V_DNS_OTHER } };
			snprintf(cell[0], sizeof(cell[0]), "C%d", z[i].c->id);
			snprintf(cell[1], sizeof(cell[1]), "%s", variant);
			for (int d = 0; d < 5; d++)
				snprintf(cell[2 + d], sizeof(cell[2 + d]), "%.0f (%.2f ms)", v[dn[d][0]],
					 v[dn[d][1]] / 1e6);
			snprintf(cell[7], sizeof(cell[7]), "%.0f", v[V_D_NOSTACK]);
			snprintf(cell[8], sizeof(cell[8]), "%.0f", inhold);
			snprintf(cell[9], sizeof(cell[9]), "%s", fol);
			snprintf(cell[10], sizeof(cell[10]), "%s", wk);
			snprintf(cell[11], sizeof(cell[11]), "%s", t);
			snprintf(cell[12], sizeof(cell[12]), "%s", rb);
			row(f, m, cell, 13);
			free(variant);
			continue;
		}
		snprintf(line, sizeof(line),
			 "C%d %s: D-state switches folio %.0f (%.2f ms), rwsem %.0f (%.2f ms), mutex "
			 "%.0f (%.2f ms), hugetlb fault mutex %.0f (%.2f ms), other %.0f (%.2f ms), "
			 "no stack %.0f, %.0f of them in a hold. Contended folios: %s. Holders "
			 "asleep in their fault: %s. Faulting holds with a tick after the fault: %s, "
			 "risk ratio %s.",
			 z[i].c->id, variant, v[V_D_FOLIO], v[V_DNS_FOLIO] / 1e6, v[V_D_RWSEM],
			 v[V_DNS_RWSEM] / 1e6, v[V_D_MUTEX], v[V_DNS_MUTEX] / 1e6, v[V_D_HUGETLB],
			 v[V_DNS_HUGETLB] / 1e6, v[V_D_OTHER], v[V_DNS_OTHER] / 1e6, v[V_D_NOSTACK],
			 inhold, fol, wk, t, rb);
		free(variant);
		text_para(f, "", line, 0);
	}
	table_end(f, m);
}

/* Freezes and T_tail by the next acquirer, beside q.T (the holders' off-CPU time). */
static void freeze_table(FILE *f, const struct cz *z, size_t n, enum sep_mode m)
{
	static const char *const col[] = {
		"cell", "kernel/model", "lock ms",
		"freezes, no fault: n, ms (% of lock), with a tick",
		"faulting freezes: n, ms (%), with a tick", "q.T: off CPU holding ms (%)",
		"T_tail ms: asleep, woken, preempted, running same CPU, other CPU, releaser again "
		"(its waiter asleep / preempted or woken / running), unknown" };
	char line[1400], cell[7][320];
	if (m != SEP_TXT)
		head(f, m, col, 7);
	for (size_t i = 0; i < n; i++) {
		const double *v = z[i].v;
		char *variant = esc_dup(z[i].c->variant, esc_of(m));
		double lock = v[V_LOCK_NS];
		if (m != SEP_TXT) {
			snprintf(cell[0], sizeof(cell[0]), "C%d", z[i].c->id);
			snprintf(cell[1], sizeof(cell[1]), "%s", variant);
			snprintf(cell[2], sizeof(cell[2]), "%.2f", lock / 1e6);
			snprintf(cell[3], sizeof(cell[3]), "%.0f, %.2f (%.2f%%), %.0f", v[V_F0_N],
				 v[V_F0_NS] / 1e6, pct(v[V_F0_NS], lock), v[V_F0_T]);
			snprintf(cell[4], sizeof(cell[4]), "%.0f, %.2f (%.2f%%), %.0f", v[V_F1_N],
				 v[V_F1_NS] / 1e6, pct(v[V_F1_NS], lock), v[V_F1_T]);
			snprintf(cell[5], sizeof(cell[5]), "%.2f (%.2f%%)", v[V_OFF_NS] / 1e6,
				 pct(v[V_OFF_NS], lock));
			snprintf(cell[6], sizeof(cell[6]),
				 "%.2f, %.2f, %.2f, %.2f, %.2f, %.2f (%.2f / %.2f / %.2f), %.2f",
				 v[V_T_ASLEEP] / 1e6, v[V_T_WOKEN] / 1e6, v[V_T_PREEMPTED] / 1e6,
				 v[V_T_SAME] / 1e6, v[V_T_OTHER] / 1e6, v[V_T_SELF] / 1e6,
				 v[V_S_ASLEEP] / 1e6, (v[V_S_PREEMPTED] + v[V_S_WOKEN]) / 1e6,
				 (v[V_S_SAME] + v[V_S_OTHER]) / 1e6, v[V_T_UNKNOWN] / 1e6);
			row(f, m, cell, 7);
			free(variant);
			continue;
		}
		snprintf(line, sizeof(line),
			 "C%d %s: lock time %.2f ms. Freezes with no fault: %.0f, %.2f ms (%.2f%% of "
			 "lock time), %.0f with a tick; faulting freezes: %.0f, %.2f ms (%.2f%%), %.0f "
			 "with a tick; q.T, holders off CPU holding: %.2f ms (%.2f%%). T_tail by the "
			 "next acquirer, ms: asleep %.2f, woken %.2f, preempted %.2f, running on the "
			 "releaser's CPU %.2f, on the other %.2f, the releaser again %.2f (its "
			 "longest waiter asleep %.2f, preempted or woken %.2f, running %.2f), "
			 "unknown %.2f.",
			 z[i].c->id, variant, lock / 1e6, v[V_F0_N], v[V_F0_NS] / 1e6,
			 pct(v[V_F0_NS], lock), v[V_F0_T], v[V_F1_N], v[V_F1_NS] / 1e6,
			 pct(v[V_F1_NS], lock), v[V_F1_T], v[V_OFF_NS] / 1e6, pct(v[V_OFF_NS], lock),
			 v[V_T_ASLEEP] / 1e6, v[V_T_WOKEN] / 1e6, v[V_T_PREEMPTED] / 1e6,
			 v[V_T_SAME] / 1e6, v[V_T_OTHER] / 1e6, v[V_T_SELF] / 1e6, v[V_S_ASLEEP] / 1e6,
			 (v[V_S_PREEMPTED] + v[V_S_WOKEN]) / 1e6, (v[V_S_SAME] + v[V_S_OTHER]) / 1e6,
			 v[V_T_UNKNOWN] / 1e6);
		free(variant);
		text_para(f, "", line, 0);
	}
	table_end(f, m);
}

/* Per run, the shares of the fill time: scheduler, backoff, frozen vCPU (ns). */
static void shares(const struct cz *z, double *sched, double *backoff, double *frozen)
{
	const double *v = z->v;
	double r = z->runs;
	*sched = (v[V_OFF_NS] + v[V_T_PREEMPTED] + v[V_T_WOKEN] + v[V_T_SAME] + v[V_S_PREEMPTED] +
		  v[V_S_WOKEN] + v[V_S_SAME]) / r;
	*backoff = (v[V_T_ASLEEP] + v[V_S_ASLEEP]) / r;
	*frozen = (v[V_F0_NS] + v[V_F1_NS] + v[V_T_OTHER] + v[V_S_OTHER]) / r;
}

static void loss_split(FILE *f, const struct cz *z, size_t n, enum sep_mode m)
{
	char line[1024];
	double sb, bb, fb;
	shares(&z[0], &sb, &bb, &fb);
	double base_fill = z[0].v[V_FILL_S] / z[0].runs;
	if (m == SEP_HTML)
		fputs("<ul>\n", f);
	for (size_t i = 1; i < n; i++) {
		double s, b, fz;
		shares(&z[i], &s, &b, &fz);
		double fill = z[i].v[V_FILL_S] / z[i].runs;
		if (base_fill <= 0 || fill <= 0)
			continue;
		double loss = (fill - base_fill) * 1e9, ds = s - sb, db = b - bb, df = fz - fb;
		double rest = loss - ds - db - df;
		snprintf(line, sizeof(line),
			 "C%d %s against C%d %s: fill %.3f s a run against %.3f s, %+.1f ms (%+.2f "
			 "points of the base's fill); of it scheduler %+.1f ms (%+.2f points), backoff "
			 "%+.1f ms (%+.2f), frozen vCPU %+.1f ms (%+.2f), unexplained %+.1f ms (%+.2f).",
			 z[i].c->id, z[i].c->variant, z[0].c->id, z[0].c->variant, fill, base_fill,
			 loss / 1e6, 100 * loss / 1e9 / base_fill, ds / 1e6, 100 * ds / 1e9 / base_fill,
			 db / 1e6, 100 * db / 1e9 / base_fill, df / 1e6, 100 * df / 1e9 / base_fill,
			 rest / 1e6, 100 * rest / 1e9 / base_fill);
		if (m == SEP_TXT) {
			text_para(f, "- ", line, 2);
			continue;
		}
		char *e = esc_dup(line, esc_of(m));
		fprintf(f, m == SEP_MD ? "- %s\n" : "<li>%s</li>\n", e);
		free(e);
	}
	if (m == SEP_HTML)
		fputs("</ul>\n", f);
}

/* Whether an interval resolved a difference (excludes 1). */
static bool resolved(const struct risk_ratio *r)
{
	return !isnan(r->est) && (r->lo > 1 || r->hi < 1);
}

/* The one sentence, from the route table's numbers. */
static void sentence(const struct cz *z, size_t n, char *buf, size_t len)
{
	int o = 0;
	bool any = false;
	for (size_t i = 1; i < n; i++)
		for (int r = 0; r < 4; r++) {
			struct risk_ratio rr = st_risk_ratio(z[i].v[V_Q_IN + r], z[i].v[V_FAULT],
							     z[0].v[V_Q_IN + r], z[0].v[V_FAULT]);
			if (!resolved(&rr) || o < 0 || (size_t)o >= len)
				continue;
			o += snprintf(buf + o, len - (size_t)o, "%s%s (C%d) loses the CPU while holding "
				      "%s often than %s (C%d) through the route %s: %.0f of %.0f faulting "
				      "holds against %.0f of %.0f, risk ratio %.2f [%.2f, %.2f]",
				      any ? "; " : "The models differ in holder descheduling: ",
				      z[i].c->variant, z[i].c->id, rr.est > 1 ? "more" : "less",
				      z[0].c->variant, z[0].c->id, route_name[r], z[i].v[V_Q_IN + r],
				      z[i].v[V_FAULT], z[0].v[V_Q_IN + r], z[0].v[V_FAULT], rr.est, rr.lo,
				      rr.hi);
			any = true;
		}
	if (any) {
		if (o > 0 && (size_t)o < len)
			snprintf(buf + o, len - (size_t)o, ".");
		return;
	}
	o = snprintf(buf, len, "No channel resolved a difference in holder descheduling against "
		     "%s (C%d):", z[0].c->variant, z[0].c->id);
	for (size_t i = 1; i < n && o > 0 && (size_t)o < len; i++) {
		struct risk_ratio rr = st_risk_ratio(z[i].v[V_QK], z[i].v[V_FAULT], z[0].v[V_QK],
						     z[0].v[V_FAULT]);
		if (isnan(rr.est))
			o += snprintf(buf + o, len - (size_t)o, "%s %s (C%d) switched no faulting holder "
				      "before release, nor did the base (%.0f and %.0f faulting holds)",
				      i > 1 ? ";" : "", z[i].c->variant, z[i].c->id, z[i].v[V_FAULT],
				      z[0].v[V_FAULT]);
		else
			o += snprintf(buf + o, len - (size_t)o, "%s q_M of %s (C%d) %.0f of %.0f against "
				      "%.0f of %.0f, risk ratio %.2f [%.2f, %.2f]", i > 1 ? ";" : "",
				      z[i].c->variant, z[i].c->id, z[i].v[V_QK], z[i].v[V_FAULT],
				      z[0].v[V_QK], z[0].v[V_FAULT], rr.est, rr.lo, rr.hi);
	}
	if (o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, ", and every route's interval spans 1 or has no "
			 "switch in either model.");
}

static const char *intro =
	"Fill phase, pooled over each cell's runs, against the least preemptible model of the "
	"group (base). q_M by route: faulting holds whose holder was switched out before the "
	"release, by the hold's first switch (in fault: preempted inside the handler; at fault "
	"exit: at its return to user; blocked in fault: asleep inside it; other), with Wilson's "
	"95% interval and the risk ratio against the base with Katz's (* where a count was 0: "
	"0.5 added to every cell); the stall each route caused: the holders' time off CPU and "
	"the waiters' time inside it (on the any row, the off-CPU time of every hold, faulting "
	"or not). The channel census: every client's D-state switches by "
	"the wait their stack names, contended folio locks joined to the unlock that woke them "
	"(the holder's state when the wait began), the time from sched_waking to the switch in "
	"of holders asleep in their fault by whether the waker ran on another CPU, and "
	"faulting holds with a timer interrupt of the holder between the fault's entry and the "
	"release (an upper bound of ticks inside the fault). The freeze census: holds with no "
	"switch and no fault over 10x the median hold, faulting holds with no switch over 2x "
	"the fault reference (census.fault_ref_ns), beside q.T, the holders' off-CPU time "
	"while holding; T_tail split by the next acquirer's state at the gap's start. The fill "
	"time lost against the base is split into scheduler (off-CPU holding, T_tail with the "
	"next acquirer or the longest waiter preempted, woken or on the releaser's CPU), "
	"backoff (T_tail with it asleep) and frozen vCPU (freezes, T_tail with it running on "
	"the other CPU) shares, model minus base per run; the rest is printed as unexplained, "
	"not forced to add up: the shares count lock time, which is fill time only where the "
	"lock is the bottleneck. docs/evidence.md, \"The census\".";

static void write_groups(FILE *f, const struct results *r, enum sep_mode m)
{
	struct cz *z = calloc(r->ncells ? r->ncells : 1, sizeof(*z));
	char buf[4096];
	for (size_t k = 0; z && k < r->ncells; k++) {
		if (!first_of_group(r, k))
			continue;
		size_t n = group_cells(r, k, z);
		if (models_in(z, n) < 2)
			continue;
		char *g = esc_dup(r->cells[k].group, esc_of(m));
		fprintf(f, m == SEP_MD ? "\n### %s\n\n" : m == SEP_HTML ? "<h3>%s</h3>\n" : "\n%s\n\n", g);
		free(g);
		sentence(z, n, buf, sizeof(buf));
		if (m == SEP_TXT) {
			text_para(f, "", buf, 0);
			fputc('\n', f);
		} else {
			char *e = esc_dup(buf, esc_of(m));
			fprintf(f, m == SEP_MD ? "**%s**\n\n" : "<p><strong>%s</strong></p>\n", e);
			free(e);
		}
		route_table(f, z, n, m);
		fputc('\n', f);
		channel_table(f, z, n, m);
		fputc('\n', f);
		freeze_table(f, z, n, m);
		fputc('\n', f);
		loss_split(f, z, n, m);
	}
	free(z);
}

bool separates_sentence(const struct results *r, char *buf, size_t len)
{
	struct cz *z = calloc(r->ncells ? r->ncells : 1, sizeof(*z));
	bool found = false;
	for (size_t k = 0; z && k < r->ncells && !found; k++) {
		if (!first_of_group(r, k))
			continue;
		size_t n = group_cells(r, k, z);
		if (models_in(z, n) < 2)
			continue;
		sentence(z, n, buf, len);
		found = true;
	}
	free(z);
	return found;
}

void write_separates_txt(FILE *f, const struct results *r)
{
	text_para(f, "", intro, 0);
	write_groups(f, r, SEP_TXT);
}

void write_separates_md(FILE *f, const struct results *r)
{
	md_printf(f, "\n## What separates the models\n\n%s\n", intro);
	write_groups(f, r, SEP_MD);
}

void write_separates_html(FILE *f, const struct results *r)
{
	esc_printf(f, ESC_HTML, "<h2>What separates the models</h2>\n<p>%s</p>\n", intro);
	write_groups(f, r, SEP_HTML);
}
