/*
 * Headline selection: per tool, among tps comparisons against the
 * baseline, the significant one with the largest drop; if none is
 * significant, the largest change with its p-value so nobody reads noise as
 * a finding.
 */
#include "findings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct metric tps = { "tps", "results.tps", "", 1, true, true };

static void append(char *buf, size_t len, const char *fmt, const char *a)
{
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, fmt, a);
}

static void describe_p(const struct comparison *c, char *buf, size_t len)
{
	if (!c->w.ok)
		snprintf(buf, len, "significance not computable: %zu and %zu runs",
			 c->a.n, c->b.n);
	else if (c->significant)
		snprintf(buf, len, "p = %.2g, Welch's t-test, %zu and %zu runs",
			 c->w.p, c->a.n, c->b.n);
	else
		snprintf(buf, len, "not significant: p = %.2g, %zu and %zu runs",
			 c->w.p, c->a.n, c->b.n);
}

/* The cell like c but on the largest other page size. */
static const struct cell *on_largest_pages(const struct results *r, const struct cell *c)
{
	const struct cell *best = NULL;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *x = &r->cells[k];
		if (x->page_kb == c->page_kb || strcmp(x->tool, c->tool) ||
		    strcmp(x->variant, c->variant) || strcmp(x->kernel_release, c->kernel_release) ||
		    strcmp(x->lock, c->lock) || strcmp(x->strategy, c->strategy) ||
		    strcmp(x->workload, c->workload) || x->clients != c->clients)
			continue;
		if (!best || x->page_kb > best->page_kb)
			best = x;
	}
	return best;
}

static int is_6x_none(const struct cell *c)
{
	return c->kernel_label[0] == '6' && c->kernel_label[1] == '.' && !strcmp(c->model, "none");
}

static int is_7x_lazy(const struct cell *c)
{
	return c->kernel_label[0] == '7' && c->kernel_label[1] == '.' && !strcmp(c->model, "lazy");
}

void find_headline(const struct results *r, const char *baseline, struct findings *fd)
{
	memset(fd, 0, sizeof(*fd));
	const char *tools[] = { "bufbench", "pgbench" };
	for (int t = 0; t < 2; t++) {
		struct comparison best, c;
		int have = 0;
		for (size_t k = 0; k < r->ncells; k++) {
			const struct cell *x = &r->cells[k];
			if (strcmp(x->tool, tools[t]))
				continue;
			const struct cell *b = baseline_of(r, x, baseline);
			if (b == x || !compare_cells(b, x, &tps, &c) || isnan(c.change_pct))
				continue;
			/* Prefer significant drops; among equals, the largest. */
			int better = !have ||
				(c.worse && !best.worse) ||
				(c.worse == best.worse && c.change_pct < best.change_pct);
			if (better) {
				best = c;
				have = 1;
			}
			/* Remember a kernel range for regzbot from any bad pair. */
			/* The known 6.x/none -> 7.x/lazy case wins over a plain range. */
			if (c.worse && strcmp(b->kernel_label, x->kernel_label) &&
			    strcmp(fd->regzbot, "7dadeaa6e851")) {
				if (is_6x_none(b) && is_7x_lazy(x)) {
					snprintf(fd->regzbot, sizeof(fd->regzbot), "7dadeaa6e851");
					snprintf(fd->regzbot_why, sizeof(fd->regzbot_why),
						 "%s is good and %s is bad; commit 7dadeaa6e851 "
						 "\"sched: Further restrict the preemption modes\" "
						 "(v7.0-rc1) made PREEMPT_LAZY the default and "
						 "removed PREEMPT_NONE on x86 and arm64.",
						 b->variant, x->variant);
				} else if (!fd->regzbot[0]) {
					snprintf(fd->regzbot, sizeof(fd->regzbot), "v%s..v%s",
						 b->kernel_label, x->kernel_label);
					snprintf(fd->regzbot_why, sizeof(fd->regzbot_why),
						 "%s is good and %s is bad; bisect that range to "
						 "name the commit.", b->variant, x->variant);
				}
			}
		}
		if (!have)
			continue;
		char pg[32], p[160], s[1024];
		describe_p(&best, p, sizeof(p));
		if (!best.significant)
			append(fd->headline, sizeof(fd->headline), "%s",
			       fd->headline[0] ? " No significant " : "No significant ");
		if (!best.significant)
			append(fd->headline, sizeof(fd->headline), "%s tps change (Welch's t-test, "
			       "p < 0.05) against the baseline; the largest:", tools[t]);
		snprintf(s, sizeof(s),
			 "%s%s %s tps at %ld clients on %s pages (lock %s) %s %.1f%% from "
			 "%s to %s (%.0f -> %.0f; %s).",
			 fd->headline[0] ? " " : "", tools[t], best.cell->workload,
			 best.cell->clients, page_name(best.cell->page_kb, pg, sizeof(pg)),
			 best.cell->lock,
			 best.change_pct < 0 ? "falls" : "rises", fabs(best.change_pct),
			 best.base->variant, best.cell->variant, best.a.median,
			 best.b.median, p);
		append(fd->headline, sizeof(fd->headline), "%s", s);
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
			 "Only one kernel/model per cell group was measured, so there is "
			 "nothing to compare; the table lists absolute values.");
	for (size_t i = 0; i < r->nruns; i++) {
		const struct jr_val *e = jr_path(r->runs[i].doc, "provenance.emulated");
		const char *v = jr_str(r->runs[i].doc, "provenance.virtualization", "");
		if ((e && e->type == JR_BOOL && e->b) || !strcmp(v, "tcg")) {
			snprintf(fd->caveats, sizeof(fd->caveats),
				 "Runs ran emulated (QEMU TCG): absolute times and rates are an "
				 "emulator's; compare ratios between cells, not values with "
				 "other machines.");
			break;
		}
	}
}
