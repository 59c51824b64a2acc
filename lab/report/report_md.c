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
#include "pairs.h"
#include "evidence.h"
#include "separates.h"
#include "atscale.h"
#include "modelcost.h"
#include "remotewake.h"
#include "wakefault.h"
#include "wakefolio.h"
#include "fillphase.h"
#include "mitigations.h"
#include "report.h"
#include "resolution.h"
#include "sampler.h"
#include "escape.h"
#include "textfmt.h"

static void md_row(FILE *f, const struct comparison *c)
{
	char a[32], b[32], hm[32];
	md_printf(f, "| %s | %s ±%.0f%% | %s ±%.0f%% | ", c->m->name,
		fmt_val(c->a.median, a, sizeof(a)), c->a.pct_stddev,
		fmt_val(c->b.median, b, sizeof(b)), c->b.pct_stddev);
	if (isnan(c->change_pct))
		md_printf(f, "- | ");
	else
		md_printf(f, c->significant ? "%+.1f%% \\* | " : "%+.1f%% | ", c->change_pct);
	char mde[16];
	md_printf(f, "%s | ", mde_text(c, mde, sizeof(mde)));
	if (c->w.ok)
		md_printf(f, "%.3g (t=%.2f, df=%.1f) | ", c->w.p, c->w.t, c->w.df);
	else
		md_printf(f, "not computable (n=%zu, %zu) | ", c->a.n, c->b.n);
	md_printf(f, "%s / %s |\n", fmt_val(c->a.hmean, hm, sizeof(hm)), fmt_val(c->b.hmean, a, sizeof(a)));
}

static void md_block(FILE *f, const struct pair *p, const struct metric *ms, size_t nm)
{
	const struct cell *b = p->base, *c = p->cell;
	char what[512], na[64], nb[64];
	pair_constant(p, what, sizeof(what));
	side_name(p->axis, b, na, sizeof(na));
	side_name(p->axis, c, nb, sizeof(nb));
	md_printf(f, "\n### C%d %s vs C%d %s (%s): %s\n\n", c->id, nb, b->id, na,
		axis_name(p->axis), what);
	md_printf(f, "| metric | C%d %s (base) | C%d %s | %%change | mde | p (Welch) | hmean base / new |\n",
		b->id, na, c->id, nb);
	md_printf(f, "|---|---:|---:|---:|---:|---|---:|\n");
	for (size_t i = 0; i < nm; i++) {
		struct comparison cmp;
		if (compare_cells(b, c, &ms[i], &cmp))
			md_row(f, &cmp);
	}
}

static void md_absolute(FILE *f, const struct cell *c, const struct metric *ms, size_t nm)
{
	md_printf(f, "\n### C%d %s (nothing to compare with): %s\n\n| metric | median | %%stddev | mean | min | max | runs |\n|---|---:|---:|---:|---:|---:|---:|\n",
		c->id, c->variant, c->group);
	for (size_t i = 0; i < nm; i++) {
		struct side s;
		char v[5][32];
		if (side_of(c, &ms[i], &s))
			md_printf(f, "| %s | %s | %.1f%% | %s | %s | %s | %zu |\n", ms[i].name,
				fmt_val(s.median, v[0], 32), s.pct_stddev, fmt_val(s.mean, v[1], 32),
				fmt_val(s.min, v[2], 32), fmt_val(s.max, v[3], 32), s.n);
	}
}

/* bufbench and pgbench per kernel/model and page size (as report.txt). */
static void md_side_by_side(FILE *f, const struct results *r)
{
	static const struct metric tps = { "tps", "results.tps", "", 1, true, true };
	static const struct metric spin = { "wait", "results.wait_share", "", 100, false, true };
	md_printf(f, "\n## bufbench and pgbench per kernel/model and page size\n\n"
		   "Pages = the page size the segment or the server really got. SpinDelay = "
		   "`Timeout:SpinDelay` samples of active backends per run (share of active-backend "
		   "samples); waits = on CPU and the top wait events as shares of active "
		   "samples; bufbench wait = share of client time waiting for the strategy lock (wall clock, sleeps included: not CPU).\n\n"
		   "| kernel/model | release | pages obtained | cell | tool | workload | clients | lock | tps (median ± %%stddev) | runs | SpinDelay per run (share) / wait | waits |\n"
		   "|---|---|---|---|---|---|---:|---|---:|---:|---:|---|\n");
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		(void)k;
		struct side st, ss;
		struct sampler_sum sm;
		char pg[32], v[32], stall[64] = "-", waits[1024] = "";
		if (!side_of(c, &tps, &st))
			continue;
		if (sampler_of(c, &sm)) {
			spindelay_text(&sm, stall, sizeof(stall));
			waits_text(&sm, 6, waits, sizeof(waits));
		} else if (side_of(c, &spin, &ss)) {
			snprintf(stall, sizeof(stall), "wait %.2g%%", ss.median);
		}
		md_printf(f, "| %s | %s | %s | C%d | %s | %s | %ld | %s | %s ± %.0f%% | %zu | %s | %s |\n",
			c->variant, c->kernel_release, page_name(c->page_kb, pg, sizeof(pg)), c->id,
			c->tool, c->workload, c->clients, c->lock, fmt_val(st.median, v, sizeof(v)),
			st.pct_stddev, st.n, stall, waits);
	}
}

void write_md(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	char buf[4096];
	const char *base = strrchr(r->dir, '/');
	md_printf(f, "# preemptlab report: %s\n\n", base && base[1] ? base + 1 : r->dir);
	md_printf(f, "%zu runs in %zu cells%s. The mail-ready text is [report.txt](report.txt).\n",
		r->nruns, r->ncells, r->skipped ? " (some documents skipped, see stderr)" : "");
	if (r->nsources)
		write_sources_md(f, r);
	if (mitigations_present(r))
		write_mitigations_md(f, r);
	md_printf(f, "\n## Finding\n\n");
	if (rp->fd.preamble[0])
		md_printf(f, "%s\n\n", rp->fd.preamble);
	if (fill_present(r)) {
		fill_headline(r, buf, sizeof(buf));
		md_printf(f, "%s\n\n", buf);
	}
	md_printf(f, "%s\n", rp->fd.headline);
	if (rp->fd.caveats[0])
		md_printf(f, "\n> %s\n", rp->fd.caveats);
	if (rp->fd.regzbot[0])
		md_printf(f, "\nSuggested (verify before sending): `#regzbot introduced: %s` — %s\n",
			rp->fd.regzbot, rp->fd.regzbot_why);

	if (rp->ncharts) {
		md_printf(f, "\n## Charts\n\n");
		for (int i = 0; i < rp->ncharts; i++)
			md_printf(f, "### %s\n\n![%s](%s)\n\n", rp->chart_titles[i], rp->chart_titles[i],
				rp->charts[i]);
	}

	if (fill_present(r))
		write_fill_md(f, r);
	if (evidence_present(r)) {
		write_evidence_md(f, r);
		if (separates_present(r))
			write_separates_md(f, r);
		write_atscale_md(f, r);
	}
	struct modelcost mc;
	modelcost_load(r, &mc);
	write_modelcost_md(f, &mc);
	modelcost_free(&mc);
	write_wakefault_md(f, r);
	write_wakefolio_md(f, r);
	write_remotewake_md(f, r);

	int pgb = 0;
	for (size_t k = 0; k < r->ncells; k++)
		pgb |= !strcmp(r->cells[k].tool, "pgbench");
	if (pgb)
		md_side_by_side(f, r);

	md_printf(f, "\n## Results\n\nMedians ± %%stddev (stddev/mean) over repetitions; "
		   "%%change of medians against the baseline cell (the baseline kernel/model; "
		   "in a run of one kernel/model, the smallest page size or lock tas, all else "
		   "equal); \\* = p < 0.05 in Welch's "
		   "t-test; mde = the smallest change the runs could resolve at p < 0.05 "
		   "(see Resolution); hmean = harmonic mean (mmtests' mean for rates).\n");
	write_cell_tables(f, r, rp->baseline, md_block, md_absolute);
	write_resolution_md(f, r, rp->baseline);

	if (rp->prof.n) {
		md_printf(f, "\n## Profiles\n\n");
		for (size_t i = 0; i < rp->prof.n; i++) {
			const struct profile *p = &rp->prof.p[i];
			md_printf(f, "- C%d %s, %s: %.0f samples", p->cell->id, p->cell->variant,
				p->cell->group, p->f.total);
			if (p->svg[0])
				md_printf(f, ": [flame graph](%s)", p->svg);
			md_printf(f, "\n");
		}
		if (rp->diff_svg[0])
			md_printf(f, "\nDifferential flame graph (shape of C%d %s; red = more than in "
				   "C%d %s, blue = less): [%s](%s)\n", rp->fd.worst->id, rp->fd.worst->variant,
				rp->fd.base->id, rp->fd.base->variant, rp->diff_svg, rp->diff_svg);
	}

	md_printf(f, "\n## Cells\n\n| cell | tool | kernel | release | model (source) | pages asked -> obtained (source) | lock | strategy | workload | clients | runs | virt |\n|---|---|---|---|---|---|---|---|---|---:|---:|---|\n");
	/* Kernels built with different ticks: each release says its HZ. */
	int many_ticks = docs_vary(r, fmt_hz);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		const struct json_read_val *d = c->runs[0]->doc;
		char pg[32], hz[32] = "";
		if (many_ticks) {
			memcpy(hz, ", ", 3);
			fmt_hz(d, hz + 2, sizeof(hz) - 2);
		}
		md_printf(f, "| C%d | %s | %s | %s%s | %s (%s) | %s -> %s (%s) | %s | %s | %s | %ld | %zu | %s |\n",
			c->id, c->tool, c->kernel_label, c->kernel_release, hz, c->model,
			json_read_str(d, "provenance.preempt_model_source", "?"),
			json_read_str(d, "provenance.page_policy", "?"), page_name(c->page_kb, pg, sizeof(pg)),
			json_read_str(d, "provenance.page_size_source", "?"), c->lock, c->strategy,
			c->workload, c->clients, c->nruns,
			json_read_str(d, "provenance.virtualization", "?"));
	}

	if (rp->ovh && rp->ovh->n) {
		md_printf(f, "\n## Instrument overhead\n\nEach instrumented run against the "
			  "bare run of the same cell, seed and boot; per instrument the geometric "
			  "mean of the paired ratios and its 95%% t interval (under icount the "
			  "difference is the instrument's alone).\n\n");
		overhead_md(f, rp->ovh);
		md_printf(f, "\n");
	}
	md_printf(f, "\n## Environment\n\n");
	for (size_t i = 0; i < env_nrows; i++) {
		env_value(r, &env_rows[i], buf, sizeof(buf));
		if (env_rows[i].fn || buf[0])
			md_printf(f, "- %s: %s\n", env_rows[i].label, buf);
	}
	if (rp->ovh) {
		overhead_line(r, rp->ovh, buf, sizeof(buf));
		md_printf(f, "- instrument overhead: %s\n", buf);
	}
	if (rp->nmicro) {
		md_printf(f, "\n### Uncontended costs (bufmicro)\n\nWhat one operation costs "
			   "with no contention: the floor under every per-operation number above. "
			   "A hold or wait shorter than a clock read is not resolvable; instrumented "
			   "runs pay the instrumented cost per operation.\n\n"
			   "| measured on | operation | ns | ns instrumented | file |\n|---|---|---:|---:|---|\n");
		for (size_t i = 0; i < rp->nmicro; i++) {
			const struct micro *m = &rp->micro[i];
			if (m->hit_ns >= 0)
				md_printf(f, "| %s | buffer hit | %.1f | %.1f | %s |\n", m->who, m->hit_ns,
					m->hit_instr_ns, m->file);
			for (size_t k = 0; k < m->nlock; k++)
				md_printf(f, "| %s | %s acquire+release | %.1f | %.1f | %s |\n", m->who,
					m->lock[k].name, m->lock[k].plain_ns, m->lock[k].instrumented_ns,
					m->file);
			if (m->clock_ns >= 0)
				md_printf(f, "| %s | clock read | %.1f | - | %s |\n", m->who, m->clock_ns,
					m->file);
		}
	} else {
		md_printf(f, "- uncontended costs: not measured (no logs/bufmicro.json)\n");
	}

	md_printf(f, "\n## Reproduce\n\n```sh\n./configure --install-deps\n");
	char *cmd = repro_command(r);
	/* In a code block markdown escapes would show; text escaping keeps
	 * the command on its one line, inside the fence. */
	txt_printf(f, "%s\n", cmd);
	fprintf(f, "```\n\nCommand line of every run: `jq -r .provenance.command_line runs/*.json`.\n");
	free(cmd);
}
