#include "modelcost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "hl_ratio.h"
#include "json_read.h"
#include "logs_each.h"
#include "statistics.h"
#include "textfmt.h"

const char *const mc_op_names[MC_NOPS] = {
	"fault_4k_alloc", "fault_4k_map", "fault_2m_alloc", "fault_2m_map",
	"getppid", "sched_yield", "pread_4k",
};
static const char *const mc_op_text[MC_NOPS] = {
	"4 KB fault, allocating", "4 KB fault, mapping a present page", "2 MB fault, allocating",
	"2 MB fault, mapping a present page", "getppid", "sched_yield", "pread of a cached 4 KB",
};
enum { OP_4K_MAP = 1, OP_2M_MAP = 3, OP_PREAD = 6 };

/* One document's op into the pooled one: batches appended; an op missing
 * or untrustworthy in any document is left out for the kernel/model. */
static void add_op(struct mc_op *o, const struct json_read_val *v, bool fault)
{
	const struct json_read_val *b = json_read_get(v, "ns_batches");
	double med;
	if (!json_read_true(v, "available") || (fault && !json_read_true(v, "each_faulted"))) {
		o->ok = false;
		return;
	}
	if (b && b->type == JR_ARR) {
		for (size_t i = 0; i < b->n && o->n < MC_MAX_BATCHES; i++)
			if (b->items[i]->type == JR_NUM)
				o->ns[o->n++] = b->items[i]->num;
	} else if (json_read_num(v, "ns.median", &med) && o->n < MC_MAX_BATCHES) {
		o->ns[o->n++] = med;	/* an early document: its median alone, no interval */
	}
	if (json_read_num(v, "instructions.median", &med))
		o->instr_med = o->instr_med > 0 ? (o->instr_med + med) / 2 : med;
}

static int load_one(struct modelcost *mc, const char *dir, const char *name)
{
	char path[4096], err[512];
	snprintf(path, sizeof(path), "%s/logs/%s", dir, name);
	struct json_read_val *j = json_read_parse_file(path, err, sizeof(err));
	if (!j || strcmp(json_read_str(j, "tool", ""), "costbench")) {
		txt_printf(stderr, "report: ignoring %s\n", j ? path : err);
		json_read_free(j);
		return -1;
	}
	struct mc_doc *d = (struct mc_doc *)doc_row_of((void **)&mc->d, &mc->n, sizeof(*mc->d), j,
						       "costbench-", name);
	if (d) {
		if (d->row.ndocs == 1) {
			snprintf(d->source, sizeof(d->source), "%s", json_read_str(j, "instructions.source", "none"));
			for (int k = 0; k < MC_NOPS; k++)
				d->op[k].ok = true;
		}
		const struct json_read_val *ops = json_read_get(j, "ops");
		for (int k = 0; k < MC_NOPS; k++)
			add_op(&d->op[k], ops ? json_read_get(ops, mc_op_names[k]) : NULL, k < 4);
	}
	json_read_free(j);
	return 0;
}

static void load_named(void *ctx, const char *dir, const char *name)
{
	load_one(ctx, dir, name);
}


void modelcost_load(const struct results *r, struct modelcost *mc)
{
	memset(mc, 0, sizeof(*mc));
	logs_each_run(r, "costbench-", load_named, mc);
	for (size_t i = 0; i < mc->n; i++)
		for (int k = 0; k < MC_NOPS; k++) {
			struct mc_op *o = &mc->d[i].op[k];
			o->ok = o->ok && o->n > 0;
			if (o->ok)
				o->ns_med = st_median(o->ns, (size_t)o->n);
		}
	if (mc->n)	/* qsort of a NULL array is undefined, even of none */
		qsort(mc->d, mc->n, sizeof(*mc->d), doc_row_cmp);
}

void modelcost_free(struct modelcost *mc)
{
	free(mc->d);
	memset(mc, 0, sizeof(*mc));
}

const struct mc_doc *modelcost_find(const struct modelcost *mc, const char *kernel, const char *model)
{
	return (const struct mc_doc *)doc_row_named(mc->d, mc->n, sizeof(*mc->d), kernel, model);
}

/* The kernel's least preemptible model measured: what its others are set against. */
static const struct mc_doc *reference(const struct modelcost *mc, const char *kernel)
{
	for (size_t i = 0; i < mc->n; i++)
		if (!strcmp(mc->d[i].row.kernel, kernel))
			return &mc->d[i];	/* sorted: least preemptible first */
	return NULL;
}

/* b's cost over a's (hl_ratio.h: robust to the odd inflated batch). */
static struct hl_ratio op_ratio(const struct mc_op *a, const struct mc_op *b)
{
	struct hl_ratio r = hl_ratio(a->ns, (size_t)a->n, b->ns, (size_t)b->n);
	if (!r.ok)
		r.est = a->ns_med > 0 ? b->ns_med / a->ns_med : NAN;
	return r;
}

static void ratio_text(const struct hl_ratio *r, char *buf, size_t len)
{
	if (r->ok)
		snprintf(buf, len, "%.3fx [%.3f, %.3f]", r->est, r->lo, r->hi);
	else if (!isnan(r->est))
		snprintf(buf, len, "%.3fx (one batch: no interval)", r->est);
	else
		snprintf(buf, len, "-");
}

/* Fill-phase counts summed over a cell's runs. */
struct fill_counts {
	double txn, duration_s, faults, misses, sleeps;
};

static bool fill_counts(const struct cell *c, struct fill_counts *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < c->nruns; i++) {
		const struct json_read_val *ph = json_read_path(c->runs[i]->doc, "results.phases");
		for (size_t k = 0; ph && ph->type == JR_ARR && k < ph->n; k++) {
			const struct json_read_val *p = ph->items[k];
			double t, d, x;
			if (strcmp(json_read_str(p, "name", ""), "fill") || !json_read_num(p, "transactions", &t) ||
			    !json_read_num(p, "duration_s", &d))
				continue;
			f->txn += t;
			f->duration_s += d;
			if (json_read_num(p, "minor_faults", &x))
				f->faults += x;
			if (json_read_num(p, "misses", &x))
				f->misses += x;
			if (json_read_num(p, "strategy.sleeps", &x))
				f->sleeps += x;
		}
	}
	return f->txn > 0 && f->duration_s > 0;
}

double modelcost_points(const struct modelcost *mc, const struct cell *base, const struct cell *cell,
			double *lo, double *hi, char *text, size_t len)
{
	*lo = *hi = NAN;
	if (strcmp(base->kernel_label, cell->kernel_label)) {
		snprintf(text, len, "the model's own cost is not measured across kernels (%s against %s)",
			 cell->kernel_label, base->kernel_label);
		return NAN;
	}
	const struct mc_doc *a = modelcost_find(mc, base->kernel_label, base->model);
	const struct mc_doc *b = modelcost_find(mc, cell->kernel_label, cell->model);
	if (!a || !b) {
		snprintf(text, len, "the model's own cost is not measured (no logs/costbench-%s-%s.json: "
			 "COSTBENCH=on)", cell->kernel_label, !a ? base->model : cell->model);
		return NAN;
	}
	int fk = cell->page_kb == 4 ? OP_4K_MAP : cell->page_kb == 2048 ? OP_2M_MAP : -1;
	if (fk < 0 || !a->op[fk].ok || !b->op[fk].ok || !a->op[OP_PREAD].ok || !b->op[OP_PREAD].ok) {
		snprintf(text, len, "the model's own cost is not measured at this page size (costbench "
			 "has no usable fault of it, or no pread)");
		return NAN;
	}
	struct fill_counts fa, fb;
	if (!fill_counts(base, &fa) || !fill_counts(cell, &fb)) {
		snprintf(text, len, "no fill-phase counts in the documents for the model's own cost");
		return NAN;
	}
	struct hl_ratio rf = op_ratio(&a->op[fk], &b->op[fk]), rs = op_ratio(&a->op[OP_PREAD], &b->op[OP_PREAD]);
	/* The cell's own faults and system calls (a pread per miss, a nanosleep
	 * per strategy-lock sleep) per fill transaction. */
	double fpt = fb.faults / fb.txn, spt = (fb.misses + fb.sleeps) / fb.txn;
	double fa_ns = a->op[fk].ns_med, sa_ns = a->op[OP_PREAD].ns_med;
	/* Under icount the vCPUs take turns on one virtual clock, so a
	 * transaction's time is 1/tps of it; elsewhere, CPU-bound, cpus/tps. */
	bool icount = !strcmp(a->row.virt, "tcg-icount");
	double tps = fa.txn / fa.duration_s;
	double per_txn_ns = 1e9 / tps * (icount ? 1 : (a->row.cpus > 0 ? a->row.cpus : 1));
	double extra = fpt * fa_ns * (rf.est - 1) + spt * sa_ns * (rs.est - 1);
	double pts = 100 * extra / per_txn_ns;
	if (rf.ok && rs.ok) {
		*lo = 100 * (fpt * fa_ns * (rf.lo - 1) + spt * sa_ns * (rs.lo - 1)) / per_txn_ns;
		*hi = 100 * (fpt * fa_ns * (rf.hi - 1) + spt * sa_ns * (rs.hi - 1)) / per_txn_ns;
	}
	char r1[64], r2[64], pg[16];
	ratio_text(&rf, r1, sizeof(r1));
	ratio_text(&rs, r2, sizeof(r2));
	int o = snprintf(text, len, "the model's own cost (costbench, %s, no contention): a %s fault "
			 "mapping a present page %.0f ns under %s, %s under %s; a cached pread %.0f ns, %s; "
			 "at %.2f faults and %.2f system calls per fill transaction (%s's runs) and %.1f us "
			 "of %s's fill per transaction (%s), that is %+.2f points",
			 a->row.kernel, page_name(cell->page_kb, pg, sizeof(pg)), fa_ns, base->model, r1,
			 cell->model, sa_ns, r2, fpt, spt, cell->model, per_txn_ns / 1e3, base->model,
			 icount ? "1/tps: icount's vCPUs take turns" : "cpus/tps, CPU-bound", pts);
	if (!isnan(*lo) && o > 0 && (size_t)o < len)
		snprintf(text + o, len - (size_t)o, " [%+.2f, %+.2f]", *lo, *hi);
	return pts;
}

static const char *mc_intro =
	"costbench (COSTBENCH=on): one process, nothing to contend with, run once per model by "
	"each boot after its cells (several boots of a kernel/model pooled); per operation the median over batches, and the ratio to "
	"the kernel's least preemptible model measured as the Hodges-Lehmann ratio over the "
	"batches (the median of all pairwise ratios, so a batch that another task's work "
	"inflated moves it little) with its distribution-free 95% interval (Mann-Whitney). A "
	"fault op counts only where "
	"getrusage saw exactly one fault per touch. Instructions: from perf where the CPU counts "
	"them, from icount's clock (ns / 2^shift, so their ratio is the ns ratio) in an icount "
	"guest, else not measured.";

static void row(FILE *f, const struct mc_doc *d, const struct mc_doc *ref, int k, bool md)
{
	const struct mc_op *o = &d->op[k];
	char rt[64] = "-", ins[32] = "-", sp[64];
	if (!o->ok) {
		if (md)
			md_printf(f, "| %s | %s | %s | unavailable | | | |\n", d->row.kernel, mc_op_names[k], d->row.model);
		else
			txt_printf(f, "%-10s %-15s %-9s unavailable\n", d->row.kernel, mc_op_names[k], d->row.model);
		return;
	}
	if (d != ref && ref->op[k].ok) {
		struct hl_ratio r = op_ratio(&ref->op[k], o);
		ratio_text(&r, rt, sizeof(rt));
	}
	if (o->instr_med > 0)
		snprintf(ins, sizeof(ins), "%.0f", o->instr_med);
	snprintf(sp, sizeof(sp), "%.0f-%.0f", st_percentile(o->ns, (size_t)o->n, 25),
		 st_percentile(o->ns, (size_t)o->n, 75));
	if (md)
		md_printf(f, "| %s | %s | %s | %.0f | %s | %s | %s |\n", d->row.kernel, mc_op_names[k], d->row.model,
			  o->ns_med, sp, ins, rt);
	else
		txt_printf(f, "%-10s %-15s %-9s %10.0f %-19s %9s  %s\n", d->row.kernel, mc_op_names[k], d->row.model,
			   o->ns_med, sp, ins, rt);
}

static void sources_line(FILE *f, const struct modelcost *mc, bool md)
{
	for (size_t i = 0; i < mc->n; i++) {
		const struct mc_doc *d = &mc->d[i];
		char buf[512];
		const struct doc_row *w = &d->row;
		snprintf(buf, sizeof(buf), "%s/%s: %s, %s (%d document%s), %s, instructions from %s",
			 w->kernel, w->model, w->release, w->file, w->ndocs, w->ndocs == 1 ? "" : "s",
			 w->virt, d->source);
		if (md)
			md_printf(f, "- %s\n", buf);
		else
			text_para(f, "  ", buf, 2);
	}
}

void write_modelcost_txt(FILE *f, const struct modelcost *mc)
{
	if (!mc->n)
		return;
	text_heading(f, "The model's own cost");
	text_para(f, "", mc_intro, 0);
	for (int k = 0; k < MC_NOPS; k++)
		txt_printf(f, "  %-15s %s\n", mc_op_names[k], mc_op_text[k]);
	txt_printf(f, "\n%-10s %-15s %-9s %10s %-19s %9s  %s\n", "kernel", "op", "model", "ns", "p25-p75 ns",
		   "instr", "vs least preemptible (95%)");
	for (int k = 0; k < MC_NOPS; k++)
		for (size_t i = 0; i < mc->n; i++)
			row(f, &mc->d[i], reference(mc, mc->d[i].row.kernel), k, false);
	fputc('\n', f);
	sources_line(f, mc, false);
}

void write_modelcost_md(FILE *f, const struct modelcost *mc)
{
	if (!mc->n)
		return;
	md_printf(f, "\n## The model's own cost\n\n%s\n\n", mc_intro);
	for (int k = 0; k < MC_NOPS; k++)
		md_printf(f, "- `%s`: %s\n", mc_op_names[k], mc_op_text[k]);
	md_printf(f, "\n| kernel | op | model | ns | p25-p75 ns | instructions | vs least preemptible (95%%) |\n"
		  "|---|---|---|---|---|---|---|\n");
	for (int k = 0; k < MC_NOPS; k++)
		for (size_t i = 0; i < mc->n; i++)
			row(f, &mc->d[i], reference(mc, mc->d[i].row.kernel), k, true);
	md_printf(f, "\n");
	sources_line(f, mc, true);
}
