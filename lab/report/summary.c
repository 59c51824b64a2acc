/*
 * summary.txt: the table `make bench` prints when it ends.  It is made from
 * the report's own cells (results.c: one per tool, kernel, model, page
 * size, lock, strategy, workload and clients, failed and interrupted runs
 * already left out), so it can never disagree with report.txt.  Per cell:
 * the median tps of the repetitions, min, max, spread ((max - min) /
 * median), and the ratio to the cell it is compared with: the same cell on
 * the baseline (the bench's baseline kernel under model none, or
 * --baseline), or, on a run of one kernel and model, the same cell on
 * 4 KB pages.  Cells without a result are part of the answer: the failed,
 * unavailable and left-out ones are listed under the tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "escape.h"
#include "report.h"
#include "statistics.h"
#include "vocab.h"

#define MAX_COLS 18

struct table {
	char (*cell)[MAX_COLS][48];
	size_t rows, cap;
	int cols;
};

static void t_row(struct table *t, const char *const *fields)
{
	if (t->rows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->cell = realloc(t->cell, t->cap * sizeof(*t->cell));
		if (!t->cell)
			exit(1);
	}
	for (int c = 0; c < t->cols; c++)
		snprintf(t->cell[t->rows][c], sizeof(t->cell[0][0]), "%s",
			 fields[c] && *fields[c] ? fields[c] : "-");
	t->rows++;
}

/* Columns padded to their widest value, two spaces apart. */
static void t_print(FILE *f, struct table *t)
{
	size_t w[MAX_COLS] = { 0 };
	for (size_t r = 0; r < t->rows; r++)
		for (int c = 0; c < t->cols; c++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	for (size_t r = 0; r < t->rows; r++) {
		for (int c = 0; c < t->cols; c++)
			txt_printf(f, c + 1 < t->cols ? "%-*s  " : "%-*s", c + 1 < t->cols ? (int)w[c] : 0,
				t->cell[r][c]);
		fputc('\n', f);
	}
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

/* Values of a numeric field over a cell's runs; returns how many had it. */
static size_t values(const struct cell *c, const char *path, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (json_read_num(c->runs[i]->doc, path, &out[n]))
			n++;
	return n;
}

static const char *psize(long kb, char *buf, size_t len)
{
	if (kb >= 1048576)
		snprintf(buf, len, "%ldG", kb / 1048576);
	else if (kb >= 1024)
		snprintf(buf, len, "%ldM", kb / 1024);
	else
		snprintf(buf, len, "%ldk", kb);
	return buf;
}

/* The order page policies are listed in: the vocabulary's. */
static int page_rank(const char *p)
{
	int r = vocab_rank(&vocab_pages, p);
	static const char *const pg[] = { "off", "try", "on" };
	for (int i = 0; r < 0 && i < 3; i++)
		if (!strcmp(p, pg[i]))
			return i;
	return r < 0 ? 99 : r;
}

static const char *first_str(const struct cell *c, const char *path)
{
	return c->nruns ? json_read_str(c->runs[0]->doc, path, "?") : "?";
}

/* The kernel column: the label, and the architecture where it is not
 * the catalog's base row's (an arm64 guest's cells say "7.0(aarch64)";
 * older results have no arch and x86 cells keep their plain label). */
static const char *kernel_col(const struct cell *c, char *buf, size_t len)
{
	const char *arch = c->nruns ? json_read_str(c->runs[0]->doc, "provenance.arch", NULL) : NULL;
	const struct arch *row = arch && *arch ? arch_find(arch) : NULL;
	if (!arch || !*arch || (row && row->catalog_base))
		return c->kernel_label;
	snprintf(buf, len, "%s(%s)", c->kernel_label, arch);
	return buf;
}

/* Cells of the same comparison group (all but kernel and model). */
static int same_group(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->tool, b->tool) && !strcmp(a->workload, b->workload) &&
	       !strcmp(a->lock, b->lock) && !strcmp(a->strategy, b->strategy) &&
	       !strcmp(a->mitigation, b->mitigation) && a->clients == b->clients;
}

static const char *pages_of(const struct cell *c)
{
	return !strcmp(c->tool, "pgbench") ? first_str(c, "config.huge_pages")
					   : first_str(c, "config.pages");
}

/* The cell c is compared with, or NULL. */
static const struct cell *reference(const struct results *r, const struct cell *c,
				    const char *base_variant)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *b = &r->cells[k];
		if (!same_group(b, c))
			continue;
		if (base_variant) {
			if (!strcmp(b->variant, base_variant) && !strcmp(pages_of(b), pages_of(c)))
				return b;
		} else if (!strcmp(b->variant, c->variant) && b->page_kb == 4) {
			return b;
		}
	}
	return NULL;
}

/* One decimal, halves away from zero (as jq's round, so old summaries match). */
static void r1(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f", round(v * 10) / 10);
}

struct row_stats {
	double med, min, max;
	size_t n;
};

static struct row_stats tps_of(const struct cell *c)
{
	double *x = calloc(c->nruns + 1, sizeof(double));
	struct row_stats s = { 0, 0, 0, 0 };
	if (!x)
		exit(1);
	s.n = values(c, "results.tps", x);
	if (s.n) {
		s.med = st_median(x, s.n);
		s.min = s.max = x[0];
		for (size_t i = 1; i < s.n; i++) {
			if (x[i] < s.min)
				s.min = x[i];
			if (x[i] > s.max)
				s.max = x[i];
		}
	}
	free(x);
	return s;
}

static double median_of(const struct cell *c, const char *path, bool *have)
{
	double *x = calloc(c->nruns + 1, sizeof(double));
	if (!x)
		exit(1);
	size_t n = values(c, path, x);
	double m = n ? st_median(x, n) : 0;
	*have = n > 0;
	free(x);
	return m;
}

static int cmp_rows(const struct cell *a, const struct cell *b, const char *base_label)
{
	int ab = base_label && !strcmp(a->kernel_label, base_label);
	int bb = base_label && !strcmp(b->kernel_label, base_label);
	if (ab != bb)
		return bb - ab;
	/* Kernel, then the page policy asked (the summary's column), then
	 * the cell order's fields. */
	static const enum cell_key kernel[] = { CK_KERNEL, CK_END };
	static const enum cell_key rest[] = { CK_WORKLOAD, CK_LOCK, CK_STRATEGY, CK_MITIGATION, CK_CLIENTS, CK_MODEL,
					      CK_END };
	int c = cell_order_cmp(a, b, kernel);
	if (!c)
		c = page_rank(pages_of(a)) - page_rank(pages_of(b));
	return c ? c : cell_order_cmp(a, b, rest);
}

static const char *sort_base;
static int by_row(const void *pa, const void *pb)
{
	return cmp_rows(*(const struct cell *const *)pa, *(const struct cell *const *)pb, sort_base);
}

static size_t sorted(const struct results *r, const char *tool, const char *base_label,
		     const struct cell **out)
{
	size_t n = 0;
	for (size_t k = 0; k < r->ncells; k++)
		if (!strcmp(r->cells[k].tool, tool) && r->cells[k].nruns)
			out[n++] = &r->cells[k];
	sort_base = base_label;
	qsort(out, n, sizeof(*out), by_row);
	return n;
}

static void ratio_text(const struct cell *c, const struct cell *ref, double med, char *buf, size_t len)
{
	struct row_stats b = ref ? tps_of(ref) : (struct row_stats){ 0, 0, 0, 0 };
	if (ref && b.med > 0)
		snprintf(buf, len, "%.3fx", med / b.med);
	else
		snprintf(buf, len, "-");
	(void)c;
}

static void bufbench_table(FILE *f, const struct results *r, const char *base_variant,
			   const char *base_label)
{
	const struct cell **cells = calloc(r->ncells + 1, sizeof(*cells));
	if (!cells)
		exit(1);
	size_t n = sorted(r, "bufbench", base_label, cells);
	if (!n) {
		free(cells);
		return;
	}
	txt_printf(f, "bufbench tps per cell: median of n runs, spread = (max - min) / median;\n"
		   "faults/ktxn = minor faults per 1000 transactions, wait%% = share of the clients' time "
		   "waiting for the strategy lock, sleeps included (wall clock, not CPU; medians)\n");
	txt_printf(f, "vs_%s = ratio of the medians, descriptive; the tested ratios (geometric "
		   "means, 95%% interval, Holm) are in report.txt's Resolution section\n",
		   base_variant ? "baseline" : "4k");
	txt_printf(f, "compared with: %s\n\n",
		base_variant ? base_variant : "the same cell on 4 KB pages (one kernel and model)");
	struct table t = { .cols = 16 };
	const char *head[] = { "kernel", "release", "model", "pages", "got", "lock", "strategy",
			       "clients", "n", "tps_median", "min", "max", "spread%", "faults/ktxn",
			       "wait%", base_variant ? "vs_baseline" : "vs_4k" };
	t_row(&t, head);
	for (size_t i = 0; i < n; i++) {
		const struct cell *c = cells[i];
		struct row_stats s = tps_of(c);
		char got[32], cl[24], nn[24], med[32], mn[32], mx[32], sp[32], fl[32], spin[32], vs[32];
		char kc[96];
		bool hf, hs;
		double faults = median_of(c, "results.minor_faults_per_txn", &hf);
		double share = median_of(c, "results.wait_share", &hs);
		snprintf(cl, sizeof(cl), "%ld", c->clients);
		snprintf(nn, sizeof(nn), "%zu", s.n);
		r1(med, sizeof(med), s.med);
		r1(mn, sizeof(mn), s.min);
		r1(mx, sizeof(mx), s.max);
		if (s.med > 0)
			r1(sp, sizeof(sp), (s.max - s.min) / s.med * 100);
		else
			snprintf(sp, sizeof(sp), "-");
		snprintf(fl, sizeof(fl), hf ? "%.2f" : "-", faults * 1000);
		snprintf(spin, sizeof(spin), hs ? "%.3f" : "-", share * 100);
		ratio_text(c, reference(r, c, base_variant), s.med, vs, sizeof(vs));
		/* A mitigation rides with the strategy: rows that differ only in it stay apart. */
		char strat[48];
		snprintf(strat, sizeof(strat),
			 strcmp(c->mitigation, "none") && strcmp(c->mitigation, c->strategy) ?
			 "%.20s [%.20s]" : "%.20s%.0s",
			 c->strategy, c->mitigation);
		const char *row[] = { kernel_col(c, kc, sizeof(kc)), c->kernel_release, c->model,
				      pages_of(c), psize(c->page_kb, got, sizeof(got)), c->lock,
				      strat, cl, nn, med, mn, mx, sp, fl, spin, vs };
		t_row(&t, row);
	}
	t_print(f, &t);
	free(cells);
}

static void pgbench_table(FILE *f, const struct results *r, const char *base_variant,
			  const char *base_label)
{
	const struct cell **cells = calloc(r->ncells + 1, sizeof(*cells));
	if (!cells)
		exit(1);
	size_t n = sorted(r, "pgbench", base_label, cells);
	if (!n) {
		free(cells);
		return;
	}
	char sizes[512] = "";
	for (size_t i = 0; i < n; i++) {
		char one[96];
		double sc = 0;
		json_read_num(cells[i]->runs[0]->doc, "config.scale", &sc);
		snprintf(one, sizeof(one), "shared_buffers %s, scale %.0f",
			 first_str(cells[i], "config.shared_buffers"), sc);
		if (!strstr(sizes, one) && strlen(sizes) + strlen(one) + 3 < sizeof(sizes))
			strcat(strcat(sizes, sizes[0] ? "; " : ""), one);
	}
	txt_printf(f, "pgbench tps per cell (real PostgreSQL %s): median of n runs\n", sizes);
	txt_printf(f, "spindelay = Timeout:SpinDelay samples of all wait-event samples, summed over "
		   "the n runs; ms/sample = achieved sampling interval\n\n");
	struct table t = { .cols = 16 };
	const char *head[] = { "kernel", "release", "model", "huge_pages", "got", "builtin",
			       "clients", "n", "tps_median", "min", "max", "spread%", "spindelay",
			       "samples", "ms/sample", base_variant ? "vs_baseline" : "vs_4k" };
	t_row(&t, head);
	for (size_t i = 0; i < n; i++) {
		const struct cell *c = cells[i];
		struct row_stats s = tps_of(c);
		double *x = calloc(c->nruns + 1, sizeof(double));
		if (!x)
			exit(1);
		double spin = 0, samples = 0;
		size_t k = values(c, "sampler.spindelay_samples", x);
		for (size_t j = 0; j < k; j++)
			spin += x[j];
		k = values(c, "sampler.samples", x);
		for (size_t j = 0; j < k; j++)
			samples += x[j];
		k = values(c, "sampler.interval_ms_achieved", x);
		char got[32], cl[24], nn[24], med[32], mn[32], mx[32], sp[32], sd[32], sm[32], iv[32], vs[32];
		snprintf(iv, sizeof(iv), k ? "%.1f" : "-", k ? st_median(x, k) : 0);
		free(x);
		snprintf(cl, sizeof(cl), "%ld", c->clients);
		snprintf(nn, sizeof(nn), "%zu", s.n);
		r1(med, sizeof(med), s.med);
		r1(mn, sizeof(mn), s.min);
		r1(mx, sizeof(mx), s.max);
		if (s.med > 0)
			r1(sp, sizeof(sp), (s.max - s.min) / s.med * 100);
		else
			snprintf(sp, sizeof(sp), "-");
		snprintf(sd, sizeof(sd), "%.0f", spin);
		snprintf(sm, sizeof(sm), "%.0f", samples);
		ratio_text(c, reference(r, c, base_variant), s.med, vs, sizeof(vs));
		char kc[96];	/* pgbench on an arm64 host says so, as bufbench's rows do */
		const char *row[] = { kernel_col(c, kc, sizeof(kc)), c->kernel_release, c->model,
				      pages_of(c), psize(c->page_kb, got, sizeof(got)), c->workload, cl, nn, med, mn,
				      mx, sp, sd, sm, iv, vs };
		t_row(&t, row);
	}
	t_print(f, &t);
	free(cells);
}

static int by_outcome(const void *a, const void *b)
{
	const struct json_read_val *x = *(const struct json_read_val *const *)a, *y = *(const struct json_read_val *const *)b;
	int c = strcmp(json_read_str(x, "status", ""), json_read_str(y, "status", ""));
	return c ? c : strcmp(json_read_str(x, "id", ""), json_read_str(y, "id", ""));
}

/*
 * The cells without a result (the manifest's cells.outcomes), failed
 * before unavailable, each by id: "STATUS: ID: reason".
 */
static void cell_notes(FILE *f, const struct results *r, bool *any)
{
	const struct json_read_val *list = r->manifest ? json_read_path(r->manifest, "cells.outcomes") : NULL;
	if (!list || list->type != JR_ARR || !list->n)
		return;
	const struct json_read_val **o = calloc(list->n, sizeof(*o));
	if (!o)
		exit(1);
	size_t n = 0;
	for (size_t i = 0; i < list->n; i++)
		if (list->items[i]->type == JR_OBJ)
			o[n++] = list->items[i];
	qsort(o, n, sizeof(*o), by_outcome);
	for (size_t i = 0; i < n; i++) {
		if (!*any)
			fputc('\n', f);
		*any = true;
		txt_printf(f, "%s: %s: %.511s\n", json_read_str(o[i], "status", ""), json_read_str(o[i], "id", ""),
			   json_read_str(o[i], "reason", ""));
	}
	free(o);
}

/*
 * rseq cells: what became of the slice extension requests, summed over
 * the repetitions, beside the kernel's own count where it keeps one.
 */
static void rseq_table(FILE *f, const struct results *r, const char *base_label)
{
	const struct cell **cells = calloc(r->ncells + 1, sizeof(*cells));
	if (!cells)
		exit(1);
	size_t n = sorted(r, "bufbench", base_label, cells), k = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cells[i]->lock, "rseq"))
			cells[k++] = cells[i];
	if (!k) {
		free(cells);
		return;
	}
	txt_printf(f, "\nrseq slice extension per cell, summed over the n runs: holds = strategy "
		   "lock acquisitions; granted = releases that found a grant, yielded = of those, "
		   "handed back in time; revoked = requests the kernel cleared without a grant; "
		   "kernel = its own counters (CONFIG_RSEQ_STATS, machine-wide): granted/expired; "
		   "ext = grant length\n\n");
	struct table t = { .cols = 11 };
	const char *head[] = { "kernel", "model", "pages", "clients", "n", "holds", "granted",
			       "yielded", "revoked", "kernel", "ext" };
	t_row(&t, head);
	for (size_t i = 0; i < k; i++) {
		const struct cell *c = cells[i];
		double *x = calloc(c->nruns + 1, sizeof(double));
		if (!x)
			exit(1);
		double sum[6] = { 0 };
		size_t have[6] = { 0 };
		const char *paths[] = { "locks.strategy.acquisitions", "locks.strategy.rseq_grants",
					"locks.strategy.rseq_yields", "locks.strategy.rseq_revoked",
					"results.kernel_rseq.granted", "results.kernel_rseq.expired" };
		for (int p = 0; p < 6; p++) {
			have[p] = values(c, paths[p], x);
			for (size_t j = 0; j < have[p]; j++)
				sum[p] += x[j];
		}
		bool hext;
		double ext = median_of(c, "provenance.slice_ext_ns", &hext);
		free(x);
		char cl[24], nn[24], v[4][32], kern[48], ex[32];
		snprintf(cl, sizeof(cl), "%ld", c->clients);
		snprintf(nn, sizeof(nn), "%zu", c->nruns);
		for (int p = 0; p < 4; p++)
			snprintf(v[p], sizeof(v[p]), have[p] ? "%.0f" : "-", sum[p]);
		if (have[4])
			snprintf(kern, sizeof(kern), "%.0f/%.0f", sum[4], sum[5]);
		else
			snprintf(kern, sizeof(kern), "-");
		snprintf(ex, sizeof(ex), hext ? "%.0fus" : "-", ext / 1000);
		const char *row[] = { c->kernel_label, c->model, pages_of(c), cl, nn, v[0], v[1],
				      v[2], v[3], kern, ex };
		t_row(&t, row);
	}
	t_print(f, &t);
	free(cells);
}

/* The baseline kernel of the bench, from its manifest. */
static const char *manifest_baseline(const struct results *r)
{
	const struct json_read_val *units = r->manifest ? json_read_get(r->manifest, "units") : NULL;
	for (size_t i = 0; units && units->type == JR_ARR && i < units->n; i++)
		if (!strcmp(json_read_str(units->items[i], "role", ""), "baseline"))
			return json_read_str(units->items[i], "label", NULL);
	return NULL;
}

void write_summary(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	char variant[200];
	const char *base_variant = NULL, *base_label = manifest_baseline(r);
	const char *planned = r->manifest ? json_read_str(r->manifest, "plan.settings.baseline_variant", NULL)
					  : NULL;
	if (rp->baseline || (planned && *planned)) {
		/* --baseline, else what the plan compared with (its own kernel too). */
		base_variant = rp->baseline ? rp->baseline : planned;
		snprintf(variant, sizeof(variant), "%s", base_variant);
		variant[strcspn(variant, "/")] = 0;
		base_label = variant;
	} else if (base_label) {
		snprintf(variant, sizeof(variant), "%s/none", base_label);
		base_variant = variant;
	} else if (rp->fd.base && strcmp(rp->fd.base->variant, r->cells[0].variant) != 0) {
		/* No baseline kernel: the report's own reference variant. */
		base_variant = rp->fd.base->variant;
		base_label = rp->fd.base->kernel_label;
	} else {
		for (size_t k = 1; k < r->ncells && !base_variant; k++)
			if (strcmp(r->cells[k].variant, r->cells[0].variant))
				base_variant = rp->fd.base ? rp->fd.base->variant : NULL;
		if (base_variant)
			base_label = rp->fd.base->kernel_label;
	}
	char virt[256];
	distinct_values(r, "provenance.virtualization", virt, sizeof(virt));
	txt_printf(f, "virtualization: %s%s\n", virt,
		strstr(virt, "tcg") ? " (TCG: emulated, times are those of an emulator, compare "
				      "cells with each other only)" : "");
	bufbench_table(f, r, base_variant, base_label);
	rseq_table(f, r, base_label);
	bool pg = false;
	for (size_t k = 0; k < r->ncells; k++)
		pg |= !strcmp(r->cells[k].tool, "pgbench");
	if (pg) {
		fputc('\n', f);
		pgbench_table(f, r, base_variant, base_label);
	}
	bool any = false;
	cell_notes(f, r, &any);
	for (size_t i = 0; i < r->nexcluded; i++) {
		if (!any)
			fputc('\n', f);
		any = true;
		txt_printf(f, "left out: %s\n", r->excluded[i]);
	}
	for (size_t i = 0; i < r->nrefused; i++) {
		if (!any)
			fputc('\n', f);
		any = true;
		txt_printf(f, "timings refused: %s\n", r->refused[i]);
	}
}
