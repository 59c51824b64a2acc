#include "mitigations.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "escape.h"
#include "evidence.h"
#include "fillphase.h"
#include "metrics.h"
#include "mitigation_rows.h"
#include "separates.h"
#include "report.h"
#include "textfmt.h"
#include "remotewake.h"
#include "wakefault.h"
#include "wakefolio.h"

static const struct metric m_fill = { "fill tps", "results.phase.fill.tps", "", 1, true, true };

/* PostgreSQL 17 at the report's 120 GB: 64-byte descriptors, one per 8 KB buffer. */
#define REPORT_SB_BYTES (120.0 * (1ull << 30))
#define REPORT_DESC_PAGES (REPORT_SB_BYTES / 8192 * 64 / 4096)
#define REPORT_BACKENDS 1024

struct row {
	const struct cell *c;
	struct fill_ratio nn, same;	/* against none/none, against none under c's model */
	bool has_nn, has_same;
	double fault_pct;		/* -1: not counted */
	bool has_q;
	double qk, qn;
	char cost[80];
};

/* bufbench's cells, and pgbench's that a MITIGATIONS plan made (their
 * documents name the mitigation; older ones do not). */
static bool is_mit_cell(const struct cell *c)
{
	if (!strcmp(c->tool, "bufbench"))
		return true;
	return !strcmp(c->tool, "pgbench") && c->nruns &&
	       json_read_path(c->runs[0]->doc, "config.mitigation") != NULL;
}

static bool is_pg(const struct cell *c)
{
	return !strcmp(c->tool, "pgbench");
}

bool mitigations_present(const struct results *r)
{
	for (size_t k = 0; k < r->ncells; k++)
		if (is_mit_cell(&r->cells[k]) && strcmp(r->cells[k].mitigation, "none") != 0)
			return true;
	return false;
}

static const struct json_read_val *phase_named(const struct json_read_val *arr, const char *name)
{
	for (size_t i = 0; arr && arr->type == JR_ARR && i < arr->n; i++)
		if (!strcmp(json_read_str(arr->items[i], "name", ""), name))
			return arr->items[i];
	return NULL;
}

/* none's cell under model (NULL: the least preemptible model none ran under). */
static const struct cell *none_cell(const struct results *r, const struct cell *c, const char *model)
{
	const struct cell *best = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (!is_mit_cell(x) || strcmp(x->tool, c->tool) || strcmp(x->mitigation, "none") ||
		    strcmp(x->workload, c->workload) ||
		    x->clients != c->clients || (model && strcmp(x->model, model)))
			continue;
		/* The same kernel first; then the least preemptible model, then the smallest page. */
		int same = !strcmp(x->kernel_label, c->kernel_label);
		int bsame = best && !strcmp(best->kernel_label, c->kernel_label);
		if (!best || same > bsame ||
		    (same == bsame && (model_rank(x->model) < model_rank(best->model) ||
				       (!strcmp(x->model, best->model) && x->page_kb < best->page_kb))))
			best = x;
	}
	return best;
}

/* Faulting fill-phase holds, in %: the trace join's, else --hold-events' count. */
static double fault_share(const struct cell *c)
{
	double s = evidence_fill_share(c, "holds_with_fault");
	if (s >= 0)
		return s;
	double n = 0, d = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *doc = c->runs[i]->doc, *p;
		double a, b;
		if (!json_read_true(doc, "config.hold_events"))
			continue;
		p = phase_named(json_read_path(doc, "results.phases"), "fill");
		if (p && json_read_num(p, "strategy.holds_with_fault", &a) &&
		    json_read_num(p, "strategy.acquisitions", &b)) {
			n += a;
			d += b;
		}
	}
	return d > 0 ? 100 * n / d : -1;
}

static void q_of(const struct cell *c, struct row *w)
{
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *p = phase_named(json_read_path(c->runs[i]->doc, "evidence.phases"), "fill");
		double k, n;
		if (p && json_read_num(p, "q_m.k", &k) && json_read_num(p, "q_m.n", &n)) {
			w->has_q = true;
			w->qk += k;
			w->qn += n;
		}
	}
}

/* Mean of a number over the cell's runs; false when no run has it. */
static bool mean_of(const struct cell *c, const char *path, double *out)
{
	double s = 0, x;
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (json_read_num(c->runs[i]->doc, path, &x)) {
			s += x;
			n++;
		}
	if (n)
		*out = s / (double)n;
	return n > 0;
}

/* The cost column: what the mitigation's row says it costs (lab/common/mitigation_rows.c). */
static void cost_of(const struct cell *c, char *buf, size_t len)
{
	const char *m = c->mitigation;
	const struct mitigation_row *row = mitigation_row(m);
	double a, b;
	buf[0] = '\0';
	if (is_pg(c)) {
		/* PostgreSQL's: the server that ran (the patched builds log their cost). */
		const char *patch = json_read_str(c->runs[0]->doc, "provenance.versions.postgresql_patch", "");
		if (row && row->pg == PGW_HUGE_PAGES)
			snprintf(buf, len, "huge_pages=on");
		else if (row && row->pg == PGW_MAJOR)
			snprintf(buf, len, "PostgreSQL %s", row->pg_major);
		else if (patch[0] && strcmp(patch, "none"))
			snprintf(buf, len, "patch %s", patch);
		return;
	}
	switch (row ? row->cost : COST_TEXT) {
	case COST_NOTHING:
		break;
	/* A cost its documents do not hold: "?". */
	case COST_PREFAULT:
		if (cell_median(c, "results.prefault.ms_mean", &a) &&
		    mean_of(c, "results.prefault.pte_bytes", &b))
			snprintf(buf, len, "%.2fms %.0fB PTE", a, b);
		else
			snprintf(buf, len, "?");
		break;
	case COST_RSEQ_GRANTS:
		if (mean_of(c, "locks.strategy.rseq_grants", &a))
			snprintf(buf, len, "%.0f grants/run", a);
		else
			snprintf(buf, len, "?");
		break;
	case COST_SEGMENT:
		if (mean_of(c, "config.segment_bytes", &a))
			snprintf(buf, len, "%.0f MB reserved", a / (1 << 20));
		else
			snprintf(buf, len, "?");
		break;
	case COST_TEXT:
		snprintf(buf, len, "%s", row && row->cost_text ? row->cost_text : "?");
		break;
	case COST_LOCKS:
		snprintf(buf, len, "%s locks (code)", strchr(m, ':') ? strchr(m, ':') + 1 : "?");
		break;
	}
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct cell *a = ((const struct row *)pa)->c, *b = ((const struct row *)pb)->c;
	/* bufbench's rows, then PostgreSQL's. */
	int c = is_pg(a) - is_pg(b);
	if (!c)
		c = mitigation_rank(a->mitigation) - mitigation_rank(b->mitigation);
	if (!c)
		c = strcmp(a->mitigation, b->mitigation);
	if (!c)
		c = (a->page_kb > b->page_kb) - (a->page_kb < b->page_kb);
	if (!c)
		c = model_rank(a->model) - model_rank(b->model);
	if (!c)
		c = a->id - b->id;
	return c;
}

/* Rows: mitigation (the vocabulary's order), then page size, then model. */
static size_t rows_of(const struct results *r, struct row **out)
{
	struct row *rows = calloc(r->ncells ? r->ncells : 1, sizeof(*rows));
	size_t n = 0;
	for (size_t k = 0; rows && k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		struct side s;
		if (!is_mit_cell(c) || !side_of(c, &m_fill, &s))
			continue;
		struct row *w = &rows[n++];
		w->c = c;
		const struct cell *nn = none_cell(r, c, NULL), *same = none_cell(r, c, c->model);
		w->has_nn = nn && nn != c && fill_ratio_of(c, nn, &m_fill, &w->nn);
		w->has_same = same && same != c && fill_ratio_of(c, same, &m_fill, &w->same);
		w->fault_pct = fault_share(c);
		q_of(c, w);
		cost_of(c, w->cost, sizeof(w->cost));
	}
	if (rows)
		qsort(rows, n, sizeof(*rows), row_cmp);
	*out = rows;
	return n;
}

static void ratio_short(const struct fill_ratio *q, bool has, char *buf, size_t len)
{
	if (!has)
		snprintf(buf, len, "-");
	else if (q->tested)
		snprintf(buf, len, "%.2fx [%.2f,%.2f]%s", q->ratio, q->lo, q->hi, q->resolved ? "*" : "");
	else
		snprintf(buf, len, "%.2fx (%.2f..%.2f)%s", q->ratio, q->lo, q->hi, q->resolved ? "*" : "");
}

static void label_of(const struct cell *c, char *buf, size_t len)
{
	char pg[32];
	/* PostgreSQL's rows say so: "pg prefault" is the patched server. */
	const char *tool = is_pg(c) ? "pg " : "";
	const struct mitigation_row *r = mitigation_row(c->mitigation);
	/* A page-size mitigation runs on two sizes: its label says which. */
	if (r && r->sets == SETS_PAGES)
		snprintf(buf, len, "%s%s %s", tool, c->mitigation, page_name(c->page_kb, pg, sizeof(pg)));
	else
		snprintf(buf, len, "%s%s", tool, c->mitigation);
}

static void q_text(const struct row *w, char *buf, size_t len)
{
	if (!w->has_q)
		snprintf(buf, len, "-");
	else if (w->qn > 0)
		snprintf(buf, len, "%.0f/%.0f", w->qk, w->qn);
	else
		snprintf(buf, len, "0/0");
}

static void pct_text(double v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", v);
}

static void add(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (k > 0)
		*o += (size_t)k;
	if (*o >= len)
		*o = len - 1;
}

/* The paragraph for the thread: what works, at what cost, how to reproduce. */
static void thread_paragraph(const struct results *r, const struct row *rows, size_t n, char *buf,
			     size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
#define ADD(...) add(buf, len, &o, __VA_ARGS__)
	const struct cell *c0 = rows[0].c;
	const struct json_read_val *d0 = c0->runs[0]->doc;
	char virt[128], cpus[128];
	fmt_virt(d0, virt, sizeof(virt));
	fmt_cpus(d0, cpus, sizeof(cpus));
	ADD("For the thread: on %s (%s), %s, %s, %ld clients, %s, each fix was measured in "
	    "the fill phase of a cold pool against no fix under the same preemption model. ",
	    c0->kernel_label, c0->kernel_release, cpus, virt, c0->clients, c0->workload);
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		if (!strcmp(w->c->mitigation, "none") || !w->has_same || !w->same.resolved ||
		    w->same.ratio < 1)
			continue;
		char lab[48];
		label_of(w->c, lab, sizeof(lab));
		ADD("%s%s under %s %.2fx [%.2f, %.2f]", any ? "; " : "Resolved gains (95% interval "
		    "above 1): ", lab, w->c->model, w->same.ratio, w->same.lo, w->same.hi);
		any = true;
	}
	ADD("%s", any ? ". " : "No fix raised fill tps by more than these runs can resolve. ");
	bool unres = false;
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		if (!strcmp(w->c->mitigation, "none") || !w->has_same || w->same.resolved)
			continue;
		char lab[48];
		label_of(w->c, lab, sizeof(lab));
		ADD("%s%s/%s %.2fx", unres ? ", " : "Not resolved (the interval spans 1): ", lab,
		    w->c->model, w->same.ratio);
		unres = true;
	}
	if (unres)
		ADD(". ");
	/* What the faults did: none against the two that move them. */
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		if (strcmp(w->c->mitigation, "none") || w->fault_pct < 0)
			continue;
		ADD("Under %s without a fix %.2f%% of fill-phase holds faulted", w->c->model,
		    w->fault_pct);
		for (size_t j = 0; j < n; j++) {
			const struct row *x = &rows[j];
			const struct mitigation_row *xr = mitigation_row(x->c->mitigation);
			if (x->fault_pct >= 0 && !strcmp(x->c->model, w->c->model) && xr &&
			    xr->moves_fault)
				ADD(", with %s %.2f%%", x->c->mitigation, x->fault_pct);
		}
		ADD(". ");
	}
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		double ms, ns, pages, cpu_ms = -1;
		const struct mitigation_row *r = mitigation_row(w->c->mitigation);
		if (!r || r->cost != COST_PREFAULT ||
		    !cell_median(w->c, "results.prefault.ms_mean", &ms) ||
		    !cell_median(w->c, "results.prefault.ns_per_page", &ns) ||
		    !mean_of(w->c, "results.prefault.pages", &pages))
			continue;
		double pte = REPORT_DESC_PAGES * 8;
		cell_median(w->c, "results.prefault.cpu_ms_mean", &cpu_ms);
		/*
		 * The wall clock between two vDSO reads is the madvise alone; the
		 * thread CPU clock needs a system call on each side, which a
		 * paravirtualized guest makes expensive: an upper bound only.
		 */
		ADD("prefault cost each backend %.3f ms here for %.0f pages of descriptors (%.0f ns a "
		    "page; the median over the runs of each run's mean, wall clock, %s", ms, pages, ns,
		    virt);
		if (cpu_ms >= 0)
			ADD("; %.3f ms of CPU time, two clock system calls included", cpu_ms);
		ADD("); at the report's 120 GB shared_buffers (%.0f pages of 64-byte "
		    "descriptors) that is about %.0f ms and %.2f MB of page tables per backend, "
		    "%.2f GB for %d backends (8 bytes of PTE per 4 KB page; page-table pages "
		    "themselves are not counted). ", REPORT_DESC_PAGES,
		    ns * REPORT_DESC_PAGES / 1e6, pte / (1 << 20),
		    pte * REPORT_BACKENDS / (1 << 30), REPORT_BACKENDS);
		break;
	}
	/*
	 * Read in Debian's linux-source-7.2 (7.2.13) and cited, not recalled:
	 * docs/measurements/2026-12-06-7.2-source-checks.md, section 2.
	 * Releases before 7.2 were not checked, so nothing is said of them.
	 */
	ADD("The rseq slice extension cannot be built for arm64 in 7.2: init/Kconfig:2004 "
	    "makes RSEQ_SLICE_EXTENSION depend on GENERIC_ENTRY and HAVE_GENERIC_TIF_BITS, and "
	    "arch/arm64/Kconfig selects GENERIC_IRQ_ENTRY (line 133) but neither of those "
	    "(Debian's linux-source-7.2, 7.2.13; earlier releases not checked), so a 7.2 kernel "
	    "on the report's Graviton machine has no extension; huge pages, prefault, "
	    "touch-before-lock and PostgreSQL 19's strategy do not depend on the architecture. "
	    "What these runs cannot resolve: a 96-CPU machine's concurrency (%s), and effects "
	    "smaller than each interval.", cpus);
	/* The thread asks which model does what: the run's own census, when it has one. */
	char sep[2048];
	if (separates_sentence(r, sep, sizeof(sep)))
		ADD(" What separates the models here: %s", sep);
	/* The constructed test, where the run has it (COSTBENCH=on). */
	char wake[2048];
	if (wakefault_sentence(r, wake, sizeof(wake)))
		ADD(" %s", wake);
	if (wakefolio_sentence(r, wake, sizeof(wake)))
		ADD(" %s", wake);
	if (remotewake_sentence(r, wake, sizeof(wake)))
		ADD(" %s", wake);
#undef ADD
}

/*
 * Cells the plan had that left no document: the runner's reason, from the
 * manifest's cells.outcomes (by cell id, which holds "-mit_NAME-c"), one
 * per mitigation (hugepages: per page size), so that a missing row (rseq
 * on a kernel without the extension, 1 GB pages that could not be
 * reserved) says why.
 */
static void missing_text(const struct results *r, const struct row *rows, size_t n, char *buf,
			 size_t len)
{
	size_t o = 0;
	char seen[1024] = "|";
	buf[0] = '\0';
	const struct json_read_val *list = r->manifest ? json_read_path(r->manifest, "cells.outcomes") : NULL;
	for (size_t i = 0; list && list->type == JR_ARR && i < list->n; i++) {
		const char *nm = json_read_str(list->items[i], "id", ""), *m = strstr(nm, "-mit_");
		if (!m)
			continue;
		char mit[48], lab[64], why[300];
		snprintf(mit, sizeof(mit), "%s", m + 5);
		if (!strncmp(nm, "pgbench-", 8)) {
			/* pgbench-LABEL-hpHP-mit_NAME[-bN]: one cluster a mitigation. */
			char *b = strstr(mit, "-b");
			if (b)
				*b = '\0';
			const struct mitigation_row *r = mitigation_row(mit);
			/* huge_pages=on: the server's 2 MB pages. */
			if (r && r->pg == PGW_HUGE_PAGES)
				snprintf(lab, sizeof(lab), "pg %s 2 MB", mit);
			else
				snprintf(lab, sizeof(lab), "pg %s", mit);
			goto have_label;
		}
		char *end = strstr(mit, "-c");
		while (end && !(end[2] >= '0' && end[2] <= '9'))
			end = strstr(end + 2, "-c");
		if (!end)
			continue;
		*end = '\0';
		char *us = strrchr(mit, '_');
		/* rseq_20 -> rseq:20, partitioned_8 -> partitioned:8 */
		if (us && us[1] >= '0' && us[1] <= '9')
			*us = ':';
		const struct mitigation_row *r = mitigation_row(mit);
		if (r && r->sets == SETS_PAGES)
			snprintf(lab, sizeof(lab), "%s %s", mit,
				 strstr(nm, "-1g-") ? "1 GB" : strstr(nm, "-2m-") ? "2 MB" : "?");
		else
			snprintf(lab, sizeof(lab), "%s", mit);
	have_label:;
		bool found = false;
		for (size_t k = 0; k < n && !found; k++) {
			char l2[64];
			label_of(rows[k].c, l2, sizeof(l2));
			found = !strcmp(l2, lab);
		}
		char key[80];
		snprintf(key, sizeof(key), "|%s|", lab);
		if (found || strstr(seen, key) || strlen(seen) + strlen(key) >= sizeof(seen))
			continue;
		strcat(seen, key + 1);
		snprintf(why, sizeof(why), "%s", json_read_str(list->items[i], "reason", ""));
		add(buf, len, &o, "%s%s: %s", o ? "; " : "No result for ", lab, why[0] ? why : "?");
	}
	if (o)
		add(buf, len, &o, ".");
}

static const char *intro =
	"Fill-phase tps per mitigation and model (median of the runs), and its ratio (geometric "
	"means, 95% interval from Welch on the logs; * = the interval excludes 1; "
	"(lo..hi) = the band of the runs where a side has one run) against none/none (no fix, "
	"least preemptible model) and against none under the same model. flt = fill-phase "
	"strategy-lock holds that took a page fault (trace join, else --hold-events), pooled "
	"over the runs; q_M = holds switched out before release of those that faulted, k/n "
	"(EVIDENCE=on only). Cost: what the fix takes; prefault: ms and bytes of page-table "
	"entries per backend, measured; hugepages: the reservation; rseq: grants per run. "
	"Rows \"pg ...\" are real PostgreSQL + pgbench (fill tps: pgbench's per-second tps "
	"until pg_buffercache saw shared_buffers full), each against pg none: the lab's "
	"unpatched build of the same source where a patched server (pg prefault, pg "
	"touch-before-lock, pg/patches) ran beside it; rseq and partitioned have no "
	"PostgreSQL counterpart.";

/* One row's cells as text, the same for report.txt and report.md. */
struct row_text {
	char label[48], nn[48], same[48], fault_pct[16], q[32], tps[32];
};

static void row_text(const struct row *w, struct row_text *t)
{
	struct side s;
	side_of(w->c, &m_fill, &s);
	label_of(w->c, t->label, sizeof(t->label));
	ratio_short(&w->nn, w->has_nn, t->nn, sizeof(t->nn));
	ratio_short(&w->same, w->has_same, t->same, sizeof(t->same));
	pct_text(w->fault_pct, t->fault_pct, sizeof(t->fault_pct));
	q_text(w, t->q, sizeof(t->q));
	fmt_val(s.median, t->tps, sizeof(t->tps));
}

void write_mitigations_txt(FILE *f, const struct results *r)
{
	struct row *rows;
	size_t n = rows_of(r, &rows);
	if (!n) {
		free(rows);
		return;
	}
	text_heading(f, "Mitigations: every fix against none, per model");
	text_para(f, "", intro, 0);
	fprintf(f, "\n%-20s %-9s %9s %-22s %7s %s\n", "mitigation", "model", "fill tps",
		"x none/none [95%]", "flt", "q_M");
	fprintf(f, "%-20s %-9s %9s %-22s %s\n", "", "", "", "x none, same model", "cost");
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		struct row_text t;
		row_text(w, &t);
		fprintf(f, "%-20.20s %-9.9s %9s %-22s %7s %s\n", t.label, w->c->model, t.tps, t.nn,
			t.fault_pct, t.q);
		if (w->has_same || w->cost[0])
			fprintf(f, "%-20s %-9s %9s %-22s %.17s\n", "", "", "", t.same, w->cost);
	}
	char para[8192];
	missing_text(r, rows, n, para, sizeof(para));
	if (para[0]) {
		fputc('\n', f);
		text_para(f, "", para, 0);
	}
	thread_paragraph(r, rows, n, para, sizeof(para));
	fputc('\n', f);
	text_para(f, "", para, 0);
	char *cmd = repro_command(r);
	if (cmd) {
		fprintf(f, "\nReproduce:\n");
		text_cmd(f, cmd);
		free(cmd);
	}
	free(rows);
}

void write_mitigations_md(FILE *f, const struct results *r)
{
	struct row *rows;
	size_t n = rows_of(r, &rows);
	if (!n) {
		free(rows);
		return;
	}
	md_printf(f, "\n## Mitigations: every fix against none, per model\n\n%s\n\n", intro);
	md_printf(f, "| mitigation | model | fill tps | x none/none [95%%] | x none, same model "
		  "[95%%] | faulting holds | q_M | cost |\n|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		struct row_text t;
		row_text(w, &t);
		md_printf(f, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", t.label, w->c->model,
			  t.tps, t.nn, t.same, t.fault_pct, t.q, w->cost[0] ? w->cost : "-");
	}
	char para[8192];
	missing_text(r, rows, n, para, sizeof(para));
	if (para[0])
		md_printf(f, "\n%s\n", para);
	thread_paragraph(r, rows, n, para, sizeof(para));
	md_printf(f, "\n%s\n", para);
	char *cmd = repro_command(r);
	if (cmd) {
		md_printf(f, "\nReproduce:\n\n```\n%s\n```\n", cmd);
		free(cmd);
	}
	free(rows);
}
