#include "evidence.h"

#include <string.h>

#include "escape.h"
#include <stdlib.h>
#include "textfmt.h"

enum { E_HOLDS, E_FAULT, E_SWITCHED, E_IRQ, E_IRQ_FAULT, E_USER, E_VOL, E_BLOCKED, E_UNKNOWN,
       E_OFF_NS, E_WAIT_NS, E_LOST, E_N };

static const char *const paths[E_N] = {
	"holds", "holds_with_fault", "holds_switched", "switches.irq", "switches.irq_in_fault",
	"switches.user", "switches.voluntary", "switches.blocked", "switches.unknown",
	"offcpu.total_ns", "waiter_ns", NULL,
};

struct ev_row {
	double v[E_N];
	double max_off_us;
	int runs;
};

static const struct jr_val *fill_of(const struct jr_val *doc)
{
	const struct jr_val *ph = jr_path(doc, "evidence.phases");
	for (size_t i = 0; ph && ph->type == JR_ARR && i < ph->n; i++)
		if (!strcmp(jr_str(ph->items[i], "name", ""), "fill"))
			return ph->items[i];
	return NULL;
}

double evidence_fill_share(const struct cell *c, const char *field)
{
	double n = 0, d = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct jr_val *p = fill_of(c->runs[i]->doc);
		double a, b;
		if (p && jr_num(p, field, &a) && jr_num(p, "holds", &b)) {
			n += a;
			d += b;
		}
	}
	return d > 0 ? 100 * n / d : -1;
}

static bool row_of(const struct cell *c, struct ev_row *w)
{
	memset(w, 0, sizeof(*w));
	if (strcmp(c->tool, "bufbench"))
		return false;
	for (size_t i = 0; i < c->nruns; i++) {
		const struct jr_val *p = fill_of(c->runs[i]->doc);
		double x;
		if (!p)
			continue;
		w->runs++;
		for (int k = 0; k < E_N; k++)
			if (paths[k] && jr_num(p, paths[k], &x))
				w->v[k] += x;
		if (jr_num(c->runs[i]->doc, "evidence.trace_lost", &x))
			w->v[E_LOST] += x;
		if (jr_num(p, "offcpu.max_us", &x) && x > w->max_off_us)
			w->max_off_us = x;
	}
	return w->runs > 0;
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

static void sentence(const struct cell *c, const struct ev_row *w, char *buf, size_t len)
{
	char pg[32];
	snprintf(buf, len,
		 "Under %s at %s (C%d), %.2f%% of %.0f fill-phase holds were preempted inside a "
		 "fault (irq), %.2f%% inside the kernel elsewhere, %.2f%% at the return to user, "
		 "%.2f%% at a voluntary point, %.2f%% blocked; holders were off CPU %.1f ms in all "
		 "(longest %.1f ms) while %.2f waiters, on average, waited.",
		 c->variant, page_name(c->page_kb, pg, sizeof(pg)), c->id,
		 pct(w->v[E_IRQ_FAULT], w->v[E_HOLDS]), w->v[E_HOLDS],
		 pct(w->v[E_IRQ] - w->v[E_IRQ_FAULT],
		 w->v[E_HOLDS]), pct(w->v[E_USER], w->v[E_HOLDS]), pct(w->v[E_VOL], w->v[E_HOLDS]),
		 pct(w->v[E_BLOCKED], w->v[E_HOLDS]), w->v[E_OFF_NS] / 1e6, w->max_off_us / 1e3,
		 w->v[E_OFF_NS] > 0 ? w->v[E_WAIT_NS] / w->v[E_OFF_NS] : 0);
}

static const char *intro =
	"From each run's hold records joined with the kernel's own trace of the same window "
	"(tracefs, EVIDENCE=on; docs/evidence.md). Counts are switches of a holder while it "
	"held the strategy lock, in the fill phase, summed over the cell's runs: irq = "
	"preempted inside the kernel (infault: with the fault handler on the stack; only "
	"possible under full and lazy), user = at the return to user mode, vol = at a "
	"voluntary point (cond_resched), blk = slept. off ms = time off CPU while holding; "
	"waiters = the waiters' time in those intervals over that time. Provenance per cell: "
	"kernel release, model, page size obtained, lock, CPUs, virtualization.";

/*
 * One table row, written as it is: the report's own format, every string
 * from the documents made safe for the output first (escaping the whole
 * row would escape the markdown table's own pipes).
 */
static void row_text(const struct cell *c, const struct ev_row *w, char *buf, size_t len,
		     bool md)
{
	char pg[32];
	const struct jr_val *d = c->runs[0]->doc;
	enum esc_mode m = md ? ESC_MD : ESC_TXT;
	double cpus = 0;
	jr_num(d, "provenance.cpus", &cpus);
	char *variant = esc_dup(c->variant, m), *lock = esc_dup(c->lock, m);
	char *rel = esc_dup(jr_str(d, "provenance.kernel_release", "?"), m);
	char *virt = esc_dup(jr_str(d, "provenance.virtualization", "?"), m);
	char *clk = esc_dup(jr_str(d, "provenance.clocksource", "?"), m);
	snprintf(buf, len,
		 md ? "| C%d | %s | %s | %s | %s | %.0f | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f "
		      "| %.0f | %.0f | %.1f | %.2f | %.0f | %s, %.0f CPUs |\n"
		    : "C%-3d %-10s %-18s %-6s %-6s %8.0f %-8s %6.0f %8.0f %5.0f %7.0f %5.0f %5.0f %5.0f "
		      "%5.0f %8.1f %7.2f %5.0f  %s, %.0f CPUs\n",
		 c->id, variant, rel, page_name(c->page_kb, pg, sizeof(pg)), lock, w->v[E_HOLDS],
		 virt, w->v[E_FAULT], w->v[E_SWITCHED],
		 w->v[E_IRQ], w->v[E_IRQ_FAULT], w->v[E_USER], w->v[E_VOL], w->v[E_BLOCKED],
		 w->v[E_UNKNOWN], w->v[E_OFF_NS] / 1e6,
		 w->v[E_OFF_NS] > 0 ? w->v[E_WAIT_NS] / w->v[E_OFF_NS] : 0, w->v[E_LOST], clk, cpus);
	free(variant), free(lock), free(rel), free(virt), free(clk);
}

void write_evidence_txt(FILE *f, const struct results *r)
{
	struct ev_row w;
	char buf[1024];
	tw_para(f, "", intro, 0);
	fprintf(f, "\n%-4s %-10s %-18s %-6s %-6s %8s %-8s %6s %8s %5s %7s %5s %5s %5s %5s %8s %7s "
		"%5s  %s\n", "cell", "kernel", "release", "page", "lock", "holds", "virt", "faults",
		"switched", "irq", "infault", "user", "vol", "blk", "unk", "off ms", "waiters",
		"lost", "clocksource, CPUs");
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			row_text(&r->cells[k], &w, buf, sizeof(buf), false);
			fputs(buf, f);
		}
	fputc('\n', f);
	for (size_t k = 0; k < r->ncells; k++)
		if (row_of(&r->cells[k], &w)) {
			sentence(&r->cells[k], &w, buf, sizeof(buf));
			tw_para(f, "", buf, 0);
		}
}

void write_evidence_md(FILE *f, const struct results *r)
{
	struct ev_row w;
	char buf[1024];
	md_printf(f, "\n## Why: how holders lost the CPU\n\n%s\n\n", intro);
	md_printf(f, "| cell | kernel | release | page | lock | holds | virt | faults | switched "
		  "| irq | infault | user | vol | blk | unk | off ms | waiters | lost | "
		  "clocksource, CPUs |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		  "---|---|---|---|---|\n");
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
