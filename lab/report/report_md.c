/*
 * report.md: the same story as report.txt for people reading in a browser
 * or an editor, plus everything the mail leaves out: every numeric field
 * of the documents, p-values and degrees of freedom, means and harmonic
 * means, charts and flame graphs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report.h"
#include "textfmt.h"

static void md_row(FILE *f, const struct comparison *c)
{
	char a[32], b[32], hm[32];
	fprintf(f, "| %s | %s ±%.0f%% | %s ±%.0f%% | ", c->m->name,
		fmt_val(c->a.median, a, sizeof(a)), c->a.pct_stddev,
		fmt_val(c->b.median, b, sizeof(b)), c->b.pct_stddev);
	if (isnan(c->change_pct))
		fprintf(f, "- | ");
	else
		fprintf(f, "%+.1f%%%s | ", c->change_pct, c->significant ? " \\*" : "");
	if (c->w.ok)
		fprintf(f, "%.3g (t=%.2f, df=%.1f) | ", c->w.p, c->w.t, c->w.df);
	else
		fprintf(f, "not computable (n=%zu, %zu) | ", c->a.n, c->b.n);
	fprintf(f, "%s / %s |\n", fmt_val(c->a.hmean, hm, sizeof(hm)), fmt_val(c->b.hmean, a, sizeof(a)));
}

static void md_tables(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	const char *tools[] = { "bufbench", "pgbench" };
	for (int t = 0; t < 2; t++) {
		struct metric *ms;
		size_t nm = metrics_for(r, tools[t], &ms);
		for (size_t k = 0; k < r->ncells; k++) {
			const struct cell *c = &r->cells[k];
			if (strcmp(c->tool, tools[t]))
				continue;
			const struct cell *b = baseline_of(r, c, rp->baseline);
			if (b == c)
				continue;
			fprintf(f, "\n### C%d %s vs C%d %s: %s\n\n", c->id, c->variant, b->id,
				b->variant, c->group);
			fprintf(f, "| metric | C%d %s (base) | C%d %s | %%change | p (Welch) | hmean base / new |\n",
				b->id, b->variant, c->id, c->variant);
			fprintf(f, "|---|---:|---:|---:|---|---:|\n");
			for (size_t i = 0; i < nm; i++) {
				struct comparison cmp;
				if (compare_cells(b, c, &ms[i], &cmp))
					md_row(f, &cmp);
			}
		}
		/* Cells without company still get their numbers listed. */
		for (size_t k = 0; k < r->ncells; k++) {
			const struct cell *c = &r->cells[k];
			if (strcmp(c->tool, tools[t]) || baseline_of(r, c, rp->baseline) != c)
				continue;
			fprintf(f, "\n### C%d %s (baseline): %s\n\n| metric | median | %%stddev | mean | min | max | runs |\n|---|---:|---:|---:|---:|---:|---:|\n",
				c->id, c->variant, c->group);
			for (size_t i = 0; i < nm; i++) {
				struct side s;
				char v[5][32];
				if (side_of(c, &ms[i], &s))
					fprintf(f, "| %s | %s | %.1f%% | %s | %s | %s | %zu |\n", ms[i].name,
						fmt_val(s.median, v[0], 32), s.pct_stddev, fmt_val(s.mean, v[1], 32),
						fmt_val(s.min, v[2], 32), fmt_val(s.max, v[3], 32), s.n);
			}
		}
		free(ms);
	}
}

void write_md(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	char buf[4096];
	const char *base = strrchr(r->dir, '/');
	fprintf(f, "# preemptlab report: %s\n\n", base && base[1] ? base + 1 : r->dir);
	fprintf(f, "%zu runs in %zu cells%s. The mail-ready text is [report.txt](report.txt).\n",
		r->nruns, r->ncells, r->skipped ? " (some documents skipped, see stderr)" : "");
	fprintf(f, "\n## Finding\n\n%s\n", rp->fd.headline);
	if (rp->fd.caveats[0])
		fprintf(f, "\n> %s\n", rp->fd.caveats);
	if (rp->fd.regzbot[0])
		fprintf(f, "\nSuggested (verify before sending): `#regzbot introduced: %s` — %s\n",
			rp->fd.regzbot, rp->fd.regzbot_why);

	if (rp->ncharts) {
		fprintf(f, "\n## Charts\n\n");
		for (int i = 0; i < rp->ncharts; i++)
			fprintf(f, "### %s\n\n![%s](%s)\n\n", rp->chart_titles[i], rp->chart_titles[i],
				rp->charts[i]);
	}

	fprintf(f, "\n## Results\n\nMedians ± %%stddev (stddev/mean) over repetitions; "
		   "%%change of medians against the baseline cell; \\* = p < 0.05 in Welch's "
		   "t-test; hmean = harmonic mean (mmtests' mean for rates).\n");
	md_tables(f, rp);

	if (rp->prof.n) {
		fprintf(f, "\n## Profiles\n\n");
		for (size_t i = 0; i < rp->prof.n; i++) {
			const struct profile *p = &rp->prof.p[i];
			fprintf(f, "- C%d %s, %s: %.0f samples", p->cell->id, p->cell->variant,
				p->cell->group, p->f.total);
			if (p->svg[0])
				fprintf(f, ": [flame graph](%s)", p->svg);
			fprintf(f, "\n");
		}
		if (rp->diff_svg[0])
			fprintf(f, "\nDifferential flame graph (shape of C%d %s; red = more than in "
				   "C%d %s, blue = less): [%s](%s)\n", rp->fd.worst->id, rp->fd.worst->variant,
				rp->fd.base->id, rp->fd.base->variant, rp->diff_svg, rp->diff_svg);
	}

	fprintf(f, "\n## Cells\n\n| cell | tool | kernel | release | model (source) | pages obtained (source) | lock | strategy | workload | clients | runs | virt |\n|---|---|---|---|---|---|---|---|---|---:|---:|---|\n");
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		const struct jr_val *d = c->runs[0]->doc;
		char pg[32];
		fprintf(f, "| C%d | %s | %s | %s | %s (%s) | %s (%s) | %s | %s | %s | %ld | %zu | %s |\n",
			c->id, c->tool, c->kernel_label, c->kernel_release, c->model,
			jr_str(d, "provenance.preempt_model_source", "?"),
			page_name(c->page_kb, pg, sizeof(pg)),
			jr_str(d, "provenance.page_size_source", "?"), c->lock, c->strategy,
			c->workload, c->clients, c->nruns,
			jr_str(d, "provenance.virtualization", "?"));
	}

	fprintf(f, "\n## Environment\n\n");
	static const char *paths[] = {
		"provenance.kernel_version", "provenance.cpu_model", "provenance.cpus",
		"provenance.virtualization", "provenance.emulated", "provenance.clocksource",
		"provenance.sleep_cost_ns", "provenance.fault_cost_ns",
		"provenance.versions.compiler", "provenance.versions.libc",
		"provenance.versions.postgresql", "provenance.lab_revision", "provenance.hostname",
	};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		distinct_values(r, paths[i], buf, sizeof(buf));
		if (buf[0])
			fprintf(f, "- %s: %s\n", paths[i] + 11, buf);
	}

	fprintf(f, "\n## Reproduce\n\n```sh\n./configure --install-deps\n");
	repro_command(r, buf, sizeof(buf));
	fprintf(f, "%s\n```\n\nCommand line of every run: `jq -r .provenance.command_line runs/*.json`.\n", buf);
}
