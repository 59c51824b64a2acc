/*
 * Headline selection: per tool, among tps comparisons against the
 * baseline, the significant one with the largest drop; if none is
 * significant, the largest change with its p-value so nobody reads noise as
 * a finding.
 */
#include "findings.h"
#include "rho.h"

#include <ctype.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "pairs.h"
#include "textfmt.h"

static const struct metric tps = { "tps", "results.tps", "", 1, true, true };

static void append(char *buf, size_t len, const char *fmt, const char *a)
{
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, fmt, a);
}

/* "= 0.012"; two digits, but never "= 0.05" for a p just under 0.05. */
static const char *p_text(const struct comparison *c)
{
	static char buf[32];
	snprintf(buf, sizeof(buf), "= %.2g", c->w.p);
	if (c->significant && atof(buf + 2) >= 0.05)
		snprintf(buf, sizeof(buf), "< 0.05");
	return buf;
}

static void describe_p(const struct comparison *c, char *buf, size_t len)
{
	if (!c->w.ok)
		snprintf(buf, len, "significance not computable: %zu and %zu runs",
			 c->a.n, c->b.n);
	else if (c->significant)
		snprintf(buf, len, "p %s, Welch's t-test, %zu and %zu runs",
			 p_text(c), c->a.n, c->b.n);
	else
		snprintf(buf, len, "not significant: p = %.2g, %zu and %zu runs",
			 c->w.p, c->a.n, c->b.n);
}

/* The same tool, lock, strategy, workload and clients: a and b differ at
 * most in kernel, model and page size. */
static bool same_load(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->tool, b->tool) && !strcmp(a->lock, b->lock) &&
	       !strcmp(a->strategy, b->strategy) && !strcmp(a->workload, b->workload) &&
	       !strcmp(a->mitigation, b->mitigation) && a->clients == b->clients;
}

/* The cell like c but on the largest other page size. */
static const struct cell *on_largest_pages(const struct results *r, const struct cell *c)
{
	const struct cell *best = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (x->page_kb == c->page_kb || !same_load(x, c) ||
		    strcmp(x->variant, c->variant) || strcmp(x->kernel_release, c->kernel_release))
			continue;
		if (!best || x->page_kb > best->page_kb)
			best = x;
	}
	return best;
}

/* One kernel build: the same label and the same release string. */
static int same_kernel(const struct cell *a, const struct cell *b)
{
	return !strcmp(a->kernel_label, b->kernel_label) &&
	       !strcmp(a->kernel_release, b->kernel_release);
}

static int is_7x_lazy(const struct cell *c)
{
	return c->kernel_label[0] == '7' && c->kernel_label[1] == '.' && !strcmp(c->model, "lazy");
}

/* A kernel label that names a release ("6.12", "7.0.13"): only those make
 * a regzbot range; the #regzbot line is a command to a bot, and a label
 * may be an image's file name or anything a document says. */
static int is_version(const char *label)
{
	return isdigit((unsigned char)label[0]) && !label[strspn(label, "0123456789.")] &&
	       strlen(label) < 24;
}

/*
 * The comparison a regzbot suggestion rests on, as Results prints it
 * (cell ids, tool, load, the change and its test), so that a reader can
 * find it in the same report and nothing is suggested from a comparison
 * the report does not show.
 */
static void regzbot_evidence(const struct comparison *c, char *buf, size_t len)
{
	char pg[32], p[160];
	describe_p(c, p, sizeof(p));
	snprintf(buf, len, "Results, C%d %.100s -> C%d %.100s: %.16s %.32s tps at %ld clients "
		 "on %.32s pages (lock %.32s) %+.1f%% (%.160s)", c->base->id, c->base->variant, c->cell->id,
		 c->cell->variant, c->cell->tool, c->cell->workload, c->cell->clients,
		 page_name(c->cell->page_kb, pg, sizeof(pg)), c->cell->lock, c->change_pct, p);
}

/*
 * A regzbot line from an emulator's runs (QEMU TCG, with or without
 * icount) says so: the lab's own tests find losses of a few percent that
 * icount makes by itself (docs/measurements/2026-12-06-emulator-tests-6.12.md),
 * and a run cannot tell its share apart, so the line is to be confirmed
 * under KVM or on hardware before it is sent.
 */
static void emulated_caveat(const struct comparison *c, char *why, size_t len)
{
	const struct cell *side[2] = { c->base, c->cell };
	for (int i = 0; i < 2; i++) {
		if (!side[i]->nruns || !doc_emulated(side[i]->runs[0]->doc))
			continue;
		size_t l = strlen(why);
		snprintf(why + l, len - l, " Measured under an emulator (%.32s): how much of the "
			 "drop is the emulator's this run cannot tell; confirm it under KVM "
			 "or on hardware before sending.",
			 json_read_str(side[i]->runs[0]->doc, "provenance.virtualization", "?"));
		return;
	}
}

/* "(p = 0.012, significant)" and the like, short enough for a list. */
static void short_p(const struct comparison *c, char *buf, size_t len)
{
	if (!c->w.ok)
		snprintf(buf, len, "not computable: %zu and %zu runs", c->a.n, c->b.n);
	else
		snprintf(buf, len, "p %s, %s", p_text(c), c->significant ? "significant" : "not significant");
}

/*
 * The two values a change is the ratio of, so that "falls 18.2% (A -> B)"
 * reads true: the geometric means where the change is their ratio (the
 * estimator tested), else the arithmetic means.  Not the medians, which
 * the tables show and which give another percentage.
 */
static const char *change_ends(const struct comparison *c, double *a, double *b)
{
	if (!isnan(c->ratio.est) && c->a.gmean > 0 && c->b.gmean > 0) {
		*a = c->a.gmean;
		*b = c->b.gmean;
		return "geometric means ";
	}
	*a = c->a.mean;
	*b = c->b.mean;
	return "means ";
}

/* Metrics named beside tps in an axis sentence: what the page size or
 * the lock is expected to move. */
static const struct metric secondary[] = {
	{ "minor faults/txn", "results.minor_faults_per_txn", "", 1, false, true },
	{ "wait share %", "results.wait_share", "", 100, false, true },
	{ "SpinDelay samples", "sampler.spindelay_samples", "", 1, false, true },
	{ "latency avg ms", "results.latency_ms_avg", "", 1, false, true },
};

static int pair_rank_cmp(const struct comparison *a, const struct comparison *b)
{
	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	return fabs(b->change_pct) > fabs(a->change_pct) ? 1 :
	       fabs(b->change_pct) < fabs(a->change_pct) ? -1 : 0;
}

/*
 * Page-size and lock comparisons of a single-variant run, e.g. "bufbench
 * select-only, 8 clients, host/unknown, lock tas: 2 MB pages against 4 KB:
 * tps +12.0% (...), minor faults/txn -99.7% (significant)."
 */
static void axis_headline(const struct results *r, const struct pair *p, size_t n,
			  struct findings *fd)
{
	struct comparison *c = calloc(n + 1, sizeof(*c));
	size_t *ord = calloc(n + 1, sizeof(*ord));
	size_t m = 0;
	if (!c || !ord)
		exit(1);
	for (size_t i = 0; i < n; i++)
		if (compare_cells(p[i].base, p[i].cell, &tps, &c[i]) && !isnan(c[i].change_pct))
			ord[m++] = i;
	for (size_t i = 1; i < m; i++)
		for (size_t j = i; j > 0 && pair_rank_cmp(&c[ord[j]], &c[ord[j - 1]]) < 0; j--) {
			size_t t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	(void)r;
	const size_t shown = m < 3 ? m : 3;
	for (size_t k = 0; k < shown; k++) {
		const struct pair *pp = &p[ord[k]];
		const struct comparison *t = &c[ord[k]];
		char what[512], a[32], b[32], pv[96], s[1400];
		pair_constant(pp, what, sizeof(what));
		side_name(pp->axis, pp->base, a, sizeof(a));
		side_name(pp->axis, pp->cell, b, sizeof(b));
		short_p(t, pv, sizeof(pv));
		double ea, eb;
		const char *ends = change_ends(t, &ea, &eb);
		int l = snprintf(s, sizeof(s), "%s%s: %s%s against %s: tps %+.1f%% (%s%.0f -> %.0f; %s)",
				 fd->headline[0] ? " " : "", what, b,
				 pp->axis == AX_PAGES ? " pages" : pp->axis == AX_LOCK ? " lock" : "",
				 a, t->change_pct, ends, ea, eb, pv);
		for (size_t i = 0; i < sizeof(secondary) / sizeof(secondary[0]); i++) {
			struct comparison x;
			if (!compare_cells(pp->base, pp->cell, &secondary[i], &x) ||
			    isnan(x.change_pct) || (x.a.max == 0 && x.b.max == 0))
				continue;
			short_p(&x, pv, sizeof(pv));
			char va[32], vb[32];
			double xa, xb;
			change_ends(&x, &xa, &xb);
			fmt_val(xa, va, sizeof(va));
			fmt_val(xb, vb, sizeof(vb));
			/* A percentage of a near-zero baseline reads as news; a
			 * ratio with both values does not. */
			if (fabs(x.change_pct) < 1000)
				l += snprintf(s + l, sizeof(s) - (size_t)l, ", %s %+.1f%% (%s -> %s; %s)",
					      secondary[i].name, x.change_pct, va, vb, pv);
			else
				l += snprintf(s + l, sizeof(s) - (size_t)l, ", %s x%.0f (%s -> %s; %s)",
					      secondary[i].name, 1 + x.change_pct / 100, va, vb, pv);
		}
		snprintf(s + l, sizeof(s) - (size_t)l, ".");
		append(fd->headline, sizeof(fd->headline), "%s", s);
		if (!fd->worst) {
			fd->base = pp->base;
			fd->worst = pp->cell;
		}
	}
	if (m > shown) {
		char s[128];
		snprintf(s, sizeof(s), " %zu more %s comparison(s) are in Results.", m - shown,
			 c[ord[0]].cell->tool);
		append(fd->headline, sizeof(fd->headline), "%s", s);
	}
	free(c);
	free(ord);
}

/*
 * The spread of the repetitions is what a shared or emulated machine
 * costs: say how large it was, so a reader does not take a 10% change
 * measured at 40% spread for a result.
 */
static void spread_caveat(const struct results *r, struct findings *fd)
{
	const struct cell *worst = NULL;
	double max = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		struct side s;
		if (side_of(&r->cells[k], &tps, &s) && s.n > 1 && s.pct_stddev > max) {
			max = s.pct_stddev;
			worst = &r->cells[k];
		}
	}
	if (!worst || max < 10)
		return;
	char pg[32], s[700];
	size_t l = strlen(fd->caveats);
	snprintf(s, sizeof(s),
		 "%sNoisy measurements: tps varies by up to %.0f%% (stddev/mean) between "
		 "repetitions of one cell (C%d %s %s, %s pages, %ld clients), so changes of "
		 "that size are within the noise; Welch's test above accounts for it. More "
		 "repetitions (REPEAT=) or a quiet machine narrow it.",
		 l ? " " : "", max, worst->id, worst->tool, worst->variant,
		 page_name(worst->page_kb, pg, sizeof(pg)), worst->clients);
	snprintf(fd->caveats + l, sizeof(fd->caveats) - l, "%s", s);
}

/*
 * The models the plan found the baseline kernel offers (the manifest
 * carries the plan): -1 when the run does not say (older results).
 */
static int baseline_models_offered(const struct results *r, const char **only)
{
	const struct json_read_val *m = r->manifest
		? json_read_path(r->manifest, "plan.settings.baseline.models_offered") : NULL;
	if (!m || m->type != JR_ARR)
		return -1;
	*only = m->n == 1 && m->items[0]->type == JR_STR ? m->items[0]->str : NULL;
	return (int)m->n;
}

/*
 * 7.0 has no PREEMPT_NONE, so its baseline is another kernel: the headline
 * change is the kernel version's and the model's together.  Say so, and
 * how to tell them apart: the baseline kernel also runs full, unless it
 * was built with one model only (Debian's arm64 kernels), where only a
 * kernel with every model can.
 */
/* The cell like c in every axis but kernel and model, which are these. */
static const struct cell *twin(const struct results *r, const struct cell *c, const char *kernel,
			       const char *model)
{
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (!strcmp(x->kernel_label, kernel) && !strcmp(x->model, model) &&
		    x->page_kb == c->page_kb && same_load(x, c))
			return x;
	}
	return NULL;
}

/*
 * With the baseline kernel's full beside its none (BASELINE_MODELS=none,full,
 * the default where the baseline offers full), the headline change splits
 * into the model's part, on the old kernel, and the version's part, at the
 * same model: say both, each with its own test.
 */
static bool split_confound(const struct results *r, const struct cell *b, const struct cell *x,
			   struct findings *fd)
{
	const struct cell *bf = twin(r, b, b->kernel_label, "full");
	const struct cell *xf = twin(r, x, x->kernel_label, "full");
	struct comparison m, v;
	if (!bf || !xf || bf == b || !compare_cells(b, bf, &tps, &m) ||
	    !compare_cells(bf, xf, &tps, &v) || isnan(m.change_pct) || isnan(v.change_pct))
		return false;
	char pm[160], pv[160];
	describe_p(&m, pm, sizeof(pm));
	describe_p(&v, pv, sizeof(pv));
	size_t l = strlen(fd->caveats);
	snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
		 " Apart: the model alone, on %s, %s -> %s: %+.1f%% (%s); the kernel version "
		 "alone, at full, %s -> %s: %+.1f%% (%s).",
		 b->kernel_label, b->variant, bf->variant, m.change_pct, pm, bf->variant,
		 xf->variant, v.change_pct, pv);
	return true;
}

static void confound_caveat(const struct results *r, struct findings *fd)
{
	const struct cell *b = fd->base, *x = fd->worst;
	if (!b || !x || !strcmp(b->kernel_label, x->kernel_label) || !strcmp(b->model, x->model))
		return;
	size_t l = strlen(fd->caveats);
	snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
		 "%sThe baseline differs in kernel (%s -> %s) as well as model (%s -> %s): the "
		 "change is both together.",
		 l ? " " : "", b->kernel_label, x->kernel_label, b->model, x->model);
	if (split_confound(r, b, x, fd))
		return;
	l = strlen(fd->caveats);
	const char *only = NULL;
	const char *arch = b->nruns ? json_read_str(b->runs[0]->doc, "provenance.arch", "") : "";
	/* The architecture's row (lab/common/arch.c): a guest of another one
	 * than the catalog's base is planned with ARCH=. */
	const struct arch *row = *arch ? arch_find(arch) : NULL;
	char opt[32] = "";
	if (row && !row->catalog_base)
		snprintf(opt, sizeof(opt), " ARCH=%s", row->name);
	if (baseline_models_offered(r, &only) == 1 && only)
		snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
			 " %s%s%s is built with %s only, so no other model runs on it; a kernel "
			 "with every model separates the two (make kernel KERNEL=7.2-lab%s, then "
			 "make bench KERNEL=7.2-lab%s).",
			 b->kernel_label, *arch ? " on " : "", arch, only, opt, opt);
	else
		snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
			 " BASELINE_MODELS=none,full also runs %s/full, which separates the two.",
			 b->kernel_label);
}

/*
 * HUGEPAGES=on runs bufbench on 2 MB pages only: the cure the report names,
 * where a backend faults once per 2 MB of descriptors instead of once per
 * 64 KB.  Say so first, so that "no significant change" is read as the
 * expected answer and not as the regression's absence.
 */
static void pages_preamble(const struct results *r, struct findings *fd)
{
	const char *hp = r->manifest ? json_read_str(r->manifest, "plan.settings.hugepages", "") : "";
	long kb = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		if (strcmp(c->tool, "bufbench") != 0)
			continue;
		if (kb && c->page_kb != kb)
			return;
		kb = c->page_kb;
	}
	if (strcmp(hp, "on") != 0 || kb != 2048)
		return;
	snprintf(fd->preamble, sizeof(fd->preamble),
		 "HUGEPAGES=on: every bufbench cell ran on 2 MB pages, the cure the report "
		 "names (huge_pages=on), where a backend faults once per 2 MB of buffer "
		 "descriptors instead of once per 64 KB, so \"no significant change\" between "
		 "the models is the expected answer; the regression's mechanism is on 4 KB "
		 "pages, which HUGEPAGES=compare (the default) or HUGEPAGES=off measures.");
}

void find_headline(const struct results *r, const char *baseline, struct findings *fd)
{
	memset(fd, 0, sizeof(*fd));
	pages_preamble(r, fd);
	const char *tools[] = { "bufbench", "pgbench" };
	for (int t = 0; t < 2; t++) {
		struct comparison best, c;
		int have = 0;
		struct pair *pairs;
		size_t np = pairs_for(r, tools[t], baseline, &pairs), nv = 0;
		for (size_t k = 0; k < np; k++)
			nv += pairs[k].axis == AX_VARIANT;
		if (!nv && np)
			axis_headline(r, pairs, np, fd);
		for (size_t k = 0; k < np; k++) {
			const struct cell *x = pairs[k].cell, *b = pairs[k].base;
			if (pairs[k].axis != AX_VARIANT || !compare_cells(b, x, &tps, &c) ||
			    isnan(c.change_pct))
				continue;
			/* Prefer significant drops; among equals, the largest. */
			int better = !have ||
				(c.worse && !best.worse) ||
				(c.worse == best.worse && c.change_pct < best.change_pct);
			if (better) {
				best = c;
				have = 1;
			}
			/*
			 * A regzbot suggestion from a bad pair.  Only one kernel
			 * with none good and 7.x lazy bad names a cause: there
			 * only the model differs, and PREEMPT_LAZY is the default
			 * 7dadeaa6e851 chose.  Across two kernels the version,
			 * the build (configuration, a distribution's patches) and
			 * the model change together, so no commit is named, only
			 * the range to bisect; a cause found later replaces it.
			 */
			char ev[640];
			if (c.worse && same_kernel(b, x) && !strcmp(b->model, "none") &&
			    is_7x_lazy(x) && strcmp(fd->regzbot, "7dadeaa6e851")) {
				regzbot_evidence(&c, ev, sizeof(ev));
				snprintf(fd->regzbot, sizeof(fd->regzbot), "7dadeaa6e851");
				snprintf(fd->regzbot_why, sizeof(fd->regzbot_why),
					 "on one kernel (%.64s, release %.64s) %.100s is good and %.100s is bad: "
					 "%s. Only the model differs, and PREEMPT_LAZY is the default "
					 "that commit 7dadeaa6e851 \"sched: Further restrict the "
					 "preemption modes\" (v7.0-rc1) made, removing PREEMPT_NONE "
					 "on x86 and arm64.",
					 x->kernel_label, x->kernel_release, b->variant, x->variant, ev);
				emulated_caveat(&c, fd->regzbot_why, sizeof(fd->regzbot_why));
			} else if (c.worse && !fd->regzbot[0] && !same_kernel(b, x) &&
				   strcmp(b->kernel_label, x->kernel_label) &&
				   is_version(b->kernel_label) && is_version(x->kernel_label)) {
				regzbot_evidence(&c, ev, sizeof(ev));
				snprintf(fd->regzbot, sizeof(fd->regzbot), "v%s..v%s",
					 b->kernel_label, x->kernel_label);
				snprintf(fd->regzbot_why, sizeof(fd->regzbot_why),
					 "%.100s is good and %.100s is bad: %s. The two are different "
					 "kernels: version, build and model change together, so this "
					 "names no commit; bisect between them (v%.24s..v%.24s) to name "
					 "it, or compare the models on one kernel that offers both "
					 "(KERNEL=7.2-lab).",
					 b->variant, x->variant, ev, b->kernel_label, x->kernel_label);
				emulated_caveat(&c, fd->regzbot_why, sizeof(fd->regzbot_why));
			}
		}
		free(pairs);
		if (!have)
			continue;
		char pg[32], p[160], s[1024];
		double ea, eb;
		const char *ends = change_ends(&best, &ea, &eb);
		describe_p(&best, p, sizeof(p));
		if (!best.significant)
			append(fd->headline, sizeof(fd->headline), "%s",
			       fd->headline[0] ? " No significant " : "No significant ");
		if (!best.significant)
			append(fd->headline, sizeof(fd->headline), "%s tps change (Welch's t-test, "
			       "p < 0.05) against the baseline; the largest:", tools[t]);
		snprintf(s, sizeof(s),
			 "%s%s %s tps at %ld clients on %s pages (lock %s) %s %.1f%% from "
			 "%s to %s (%s%.0f -> %.0f; %s).",
			 fd->headline[0] ? " " : "", tools[t], best.cell->workload,
			 best.cell->clients, page_name(best.cell->page_kb, pg, sizeof(pg)),
			 best.cell->lock,
			 best.change_pct < 0 ? "falls" : "rises", fabs(best.change_pct),
			 best.base->variant, best.cell->variant, ends, ea, eb, p);
		append(fd->headline, sizeof(fd->headline), "%s", s);
		if (same_kernel(best.base, best.cell) && strcmp(best.base->model, best.cell->model)) {
			snprintf(s, sizeof(s), " Same kernel (%s, release %s): only the preemption "
				 "model differs.", best.cell->kernel_label, best.cell->kernel_release);
			append(fd->headline, sizeof(fd->headline), "%s", s);
		}
		/* A model comparison on a lock that is rarely held (issue 36). */
		char cold[256];
		if (cold_lock_line(best.base, best.cell, cold, sizeof(cold))) {
			cold[0] = (char)toupper((unsigned char)cold[0]);
			snprintf(s, sizeof(s), " %s.", cold);
			append(fd->headline, sizeof(fd->headline), "%s", s);
		}
		if (!fd->worst) {
			fd->base = best.base;
			fd->worst = best.cell;
		}
		const struct cell *hc = on_largest_pages(r, best.cell);
		const struct cell *hb = hc ? baseline_of(r, hc, baseline) : NULL;
		struct comparison h;
		if (hc && hb && hb != hc && compare_cells(hb, hc, &tps, &h) && !isnan(h.change_pct)) {
			describe_p(&h, p, sizeof(p));
			snprintf(s, sizeof(s), " With %s pages the same comparison gives %+.1f%% (%s).",
				 page_name(hc->page_kb, pg, sizeof(pg)), h.change_pct, p);
			append(fd->headline, sizeof(fd->headline), "%s", s);
		}
	}
	if (!fd->headline[0])
		snprintf(fd->headline, sizeof(fd->headline),
			 "Every cell differs from every other in more than one of kernel/model, "
			 "page size and lock (or there is a single cell), so nothing is "
			 "compared; the tables list absolute values.");
	for (size_t i = 0; i < r->nruns; i++) {
		if (doc_emulated(r->runs[i].doc)) {
			snprintf(fd->caveats, sizeof(fd->caveats),
				 "Runs ran emulated (QEMU TCG): absolute times and rates are an "
				 "emulator's; compare ratios between cells, not values with "
				 "other machines.");
			break;
		}
	}
	spread_caveat(r, fd);
	confound_caveat(r, fd);
	if (r->nrefused) {
		size_t l = strlen(fd->caveats);
		snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
			 "%s%zu run(s) were timed with an instrument that made system calls "
			 "inside the strategy lock's hold (--hold-events before issue 24, or "
			 "=in-hold): their timings are not compared, only their counts.",
			 l ? " " : "", r->nrefused);
	}
	/* Issue 24: timings never from an instrumented run where a bare twin ran. */
	if (r->ntwinned) {
		size_t l = strlen(fd->caveats);
		snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
			 "%sTimings (tps, ratios, waits) are the %zu bare runs' (CONTROLS); the "
			 "counts (faults and switches per hold, q_M, T_tail) are the %zu "
			 "instrumented runs' on the same seeds.", l ? " " : "", r->nbare,
			 r->ntwinned);
	}
	if (r->nuntwinned) {
		size_t l = strlen(fd->caveats);
		snprintf(fd->caveats + l, sizeof(fd->caveats) - l,
			 "%s%zu run(s) were timed with an instrument on and no bare twin "
			 "(CONTROLS=off): their timings include the instrument's cost (see "
			 "Instrument overhead).", l ? " " : "", r->nuntwinned);
	}
}
