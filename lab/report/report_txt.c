/*
 * report.txt: what a kernel or PostgreSQL developer reads in a mail.
 * Order follows Documentation/admin-guide/reporting-regressions.rst and
 * the pgsql bug guidelines: finding, numbers, environment, how to
 * reproduce, then the regzbot suggestion.  Every line fits 80 columns.
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

/* Rows of a comparison block; rows that are zero on both sides say
 * nothing and are left out (SpinDelay excepted: none is a result). */
static void txt_block(FILE *f, const struct pair *p, const struct metric *ms, size_t nm)
{
	const struct cell *b = p->base, *c = p->cell;
	char line[1024], what[512], na[64], nb[64];
	pair_constant(p, what, sizeof(what));
	side_name(p->axis, b, na, sizeof(na));
	side_name(p->axis, c, nb, sizeof(nb));
	snprintf(line, sizeof(line), "C%d %s -> C%d %s: %s", b->id, na, c->id, nb, what);
	fputc('\n', f);
	text_para(f, "", line, 4);
	txt_printf(f, "%10s %7s %10s %6s %10s\n", strlen(na) <= 10 ? na : "base", "", "", "",
		strlen(nb) <= 10 ? nb : "new");
	txt_printf(f, "%10s %7s %10s %6s %10s %7s  %s\n", "----------", "-------", "----------",
		"------", "----------", "-------", "------");
	txt_printf(f, "%10s %7s %10s %6s %10s %7s  %s\n", "median", "%stddev", "%change", "mde",
		"median", "%stddev", "metric");
	for (size_t i = 0; i < nm; i++) {
		if (!ms[i].headline)
			continue;
		struct comparison cmp;
		if (!compare_cells(b, c, &ms[i], &cmp))
			continue;
		if (cmp.a.max == 0 && cmp.a.min == 0 && cmp.b.max == 0 && cmp.b.min == 0 &&
		    !metric_always(&ms[i]))
			continue;
		char va[32], vb[32], ch[32], mde[16];
		if (isnan(cmp.change_pct))
			snprintf(ch, sizeof(ch), "-");
		else
			snprintf(ch, sizeof(ch), "%+.1f%%", cmp.change_pct);
		char mark = !cmp.w.ok ? '?' : cmp.significant ? '*' : ' ';
		txt_printf(f, "%10s +-%4.0f%% %9s%c %6s %10s +-%4.0f%%  %s\n",
			fmt_val(cmp.a.median, va, sizeof(va)), cmp.a.pct_stddev, ch, mark,
			mde_text(&cmp, mde, sizeof(mde)), fmt_val(cmp.b.median, vb, sizeof(vb)),
			cmp.b.pct_stddev, ms[i].name);
	}
}

static void txt_absolute(FILE *f, const struct cell *c, const struct metric *ms, size_t nm)
{
	char line[1024];
	snprintf(line, sizeof(line), "C%d %s: %s (nothing to compare with)", c->id, c->variant,
		 c->group);
	fputc('\n', f);
	text_para(f, "", line, 4);
	txt_printf(f, "%10s %7s %4s  %s\n", "median", "%stddev", "runs", "metric");
	for (size_t i = 0; i < nm; i++) {
		struct side s;
		if (!ms[i].headline || !side_of(c, &ms[i], &s) ||
		    (s.min == 0 && s.max == 0 && !metric_always(&ms[i])))
			continue;
		char v[32];
		txt_printf(f, "%10s +-%4.0f%% %4zu  %s\n", fmt_val(s.median, v, sizeof(v)),
			s.pct_stddev, s.n, ms[i].name);
	}
}

/* One line per cell of a kernel/model and page size, bufbench and pgbench
 * together: the question is whether the miniature pool and PostgreSQL
 * move alike. */
static void txt_side_by_side(FILE *f, const struct results *r)
{
	static const struct metric tps = { "tps", "results.tps", "", 1, true, true };
	static const struct metric spin = { "wait", "results.wait_share", "", 100, false, true };
	int done[4096] = { 0 };
	for (size_t k = 0; k < r->ncells && k < 4096; k++) {
		if (done[k])
			continue;
		const struct cell *g = &r->cells[k];
		char pg[32], line[512];
		snprintf(line, sizeof(line), "%s (%s), %s pages obtained", g->variant,
			 g->kernel_release, page_name(g->page_kb, pg, sizeof(pg)));
		fputc('\n', f);
		text_para(f, "", line, 4);
		txt_printf(f, "  %-4s %-8s %-13s %3s %-6s %9s %5s  %s\n", "cell", "tool", "workload",
			"cl", "lock", "tps", "+-sd", "SpinDelay/run (%act)");
		for (size_t j = k; j < r->ncells && j < 4096; j++) {
			const struct cell *c = &r->cells[j];
			if (done[j] || strcmp(c->variant, g->variant) ||
			    strcmp(c->kernel_release, g->kernel_release) || c->page_kb != g->page_kb)
				continue;
			done[j] = 1;
			struct side st, ss;
			struct sampler_sum sm;
			char id[16], v[32], stall[64] = "-", waits[512];
			snprintf(id, sizeof(id), "C%d", c->id);
			if (!side_of(c, &tps, &st))
				continue;
			int sampled = sampler_of(c, &sm);
			if (sampled)
				spindelay_text(&sm, stall, sizeof(stall));
			else if (side_of(c, &spin, &ss))
				snprintf(stall, sizeof(stall), "wait %.2g%%", ss.median);
			txt_printf(f, "  %-4s %-8.8s %-13.13s %3ld %-6.6s %9s %4.0f%%  %s\n", id, c->tool,
				c->workload, c->clients, c->lock, fmt_val(st.median, v, sizeof(v)),
				st.pct_stddev, stall);
			if (sampled) {
				waits_text(&sm, 3, waits, sizeof(waits));
				text_para(f, "         waits: ", waits, 16);
			}
		}
	}
}
static void txt_profile(FILE *f, const struct profile *p)
{
	struct symstat *st;
	size_t n = fold_symbols(&p->f, &st);
	char line[1024];
	snprintf(line, sizeof(line), "C%d %s, %s: %.0f samples from %zu profile(s)%s%s",
		 p->cell->id, p->cell->variant, p->cell->group, p->f.total, p->files,
		 p->svg[0] ? ", flame graph " : "", p->svg);
	fputc('\n', f);
	text_para(f, "", line, 4);
	txt_printf(f, "%7s %7s  %s\n", "self%", "total%", "symbol");
	size_t shown = 0;
	for (size_t i = 0; i < n && shown < 10; i++) {
		/* Spin loops come first in the sort; a trace of one is noise. */
		if (sym_is_spin(st[i].name) && st[i].total < p->f.total / 1000)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "%s", st[i].name);
		txt_printf(f, "%7.2f %7.2f  %s%s\n", 100 * st[i].self / p->f.total,
			100 * st[i].total / p->f.total, name,
			strlen(st[i].name) >= sizeof(name) ? "..." : "");
		shown++;
	}
	fold_symbols_free(st, n);
}

/* Measured costs differ per run: median (min..max) reads better than a
 * list.  Returns 0 for fields that are not numbers or all equal. */
static int numeric_summary(const struct results *r, const char *path, char *buf, size_t len)
{
	double *v = calloc(r->nruns + 1, sizeof(*v));
	size_t n = 0;
	if (!v)
		exit(1);
	for (size_t i = 0; i < r->nruns; i++)
		if (json_read_num(r->runs[i].doc, path, &v[n]))
			n++;
	double lo = st_percentile(v, n, 0), hi = st_percentile(v, n, 100);
	int ok = n > 1 && lo != hi;
	if (ok)
		snprintf(buf, len, "median %.0f (%.0f..%.0f) over %zu runs", st_median(v, n), lo, hi, n);
	free(v);
	return ok;
}

static void fmt_source(const struct json_read_val *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s", json_read_str(d, "provenance.preempt_model_source", "?"));
}

/* bufmicro's uncontended costs, one line per machine measured. */
static void txt_micro(FILE *f, const struct report *rp)
{
	char buf[4096];
	for (size_t i = 0; i < rp->nmicro; i++) {
		char lead[200];
		micro_text(&rp->micro[i], buf, sizeof(buf));
		if (rp->nmicro > 1)
			snprintf(lead, sizeof(lead), "Uncontended ns, %s: ", rp->micro[i].who);
		else
			snprintf(lead, sizeof(lead), "Uncontended ns: ");
		text_para(f, lead, buf, 4);
	}
	if (!rp->nmicro)
		text_para(f, "Uncontended ns: ", "not measured (no logs/bufmicro.json)", 4);
}

/*
 * Provenance of every number, once for the run: values shared by all runs
 * print once, differing ones are listed, measured costs as median (range).
 */
static void txt_environment(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	char buf[4096];
	char vers[4096] = "";
	size_t vl = 0;
	for (size_t i = 0; i < env_nrows; i++) {
		const struct env_row *e = &env_rows[i];
		int last = i + 1 == env_nrows || env_rows[i + 1].how != e->how;
		if (e->how != ENV_TXT_COST || !numeric_summary(r, e->path, buf, sizeof(buf)))
			env_value(r, e, buf, sizeof(buf));
		switch (e->how) {
		case ENV_TXT_LINE:
		case ENV_TXT_COST:
			text_para(f, e->txt, buf[0] ? buf : "not recorded", 4);
			if (e->how == ENV_TXT_COST && last)
				txt_micro(f, rp);
			break;
		case ENV_TXT_VERSION:
			/* One versions line: compiler, libc and (for pgbench) the server. */
			if (buf[0] && vl < sizeof(vers))
				vl += (size_t)snprintf(vers + vl, sizeof(vers) - vl, "%s%s %s",
						       vl ? "; " : "", e->txt, buf);
			if (!last)
				break;
			text_para(f, "Versions: ", vers[0] ? vers : "not recorded", 4);
			if (rp->ovh) {
				overhead_line(r, rp->ovh, buf, sizeof(buf));
				text_para(f, "Instrument overhead: ", buf, 4);
			}
			break;
		case ENV_TXT_IF_SET:
			if (buf[0])
				text_para(f, e->txt, buf, 4);
			break;
		}
	}
}

void write_txt(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	const struct findings *fd = &rp->fd;
	char buf[4096];
	const char *base = strrchr(r->dir, '/');
	snprintf(buf, sizeof(buf), "preemptlab report: %s (%zu runs in %zu cells)",
		 base && base[1] ? base + 1 : r->dir, r->nruns, r->ncells);
	text_para(f, "", buf, 4);
	if (r->nsources)
		write_sources_txt(f, r);
	/* SCENARIO=mitigations: the table the thread needs opens the report. */
	if (mitigations_present(r))
		write_mitigations_txt(f, r);

	text_heading(f, "Finding");
	if (fd->preamble[0]) {
		text_para(f, "", fd->preamble, 0);
		fputc('\n', f);
	}
	if (fill_present(r)) {
		/* The fill phase leads: that is where the mechanism lives. */
		fill_headline(r, buf, sizeof(buf));
		text_para(f, "", buf, 0);
		fputc('\n', f);
	}
	text_para(f, "", fd->headline, 0);
	if (fd->caveats[0]) {
		fputc('\n', f);
		text_para(f, "", fd->caveats, 0);
	}

	int pgb = 0;
	for (size_t k = 0; k < r->ncells; k++)
		pgb |= !strcmp(r->cells[k].tool, "pgbench");
	if (pgb) {
		text_heading(f, "bufbench and pgbench per kernel/model and page size");
		text_para(f, "",
			"Median tps and its %stddev over repetitions; pages = the page "
			"size the shared segment or PostgreSQL's server really got. "
			"pgbench: Timeout:SpinDelay samples of active backends per run "
			"(sleeps after spins_per_delay failed spins: a lock holder stayed "
			"away) and their share of all active-backend samples; waits = time on CPU and "
			"the top wait events, as shares of active samples. bufbench: wait = "
			"share of client time spent waiting for the strategy lock (wall clock, "
			"sleeps included: not CPU).", 0);
		txt_side_by_side(f, r);
	}

	if (fill_present(r)) {
		text_heading(f, "Fill phase: a cold pool filling through the freelist");
		write_fill_txt(f, r);
	}

	if (evidence_present(r)) {
		text_heading(f, "Why: how holders lost the CPU");
		write_evidence_txt(f, r);
		if (separates_present(r)) {
			text_heading(f, "What separates the models");
			write_separates_txt(f, r);
		}
		text_heading(f, "At the report's scale");
		write_atscale_txt(f, r);
	}
	struct modelcost mc;
	modelcost_load(r, &mc);
	write_modelcost_txt(f, &mc);
	modelcost_free(&mc);
	write_wakefault_txt(f, r);
	write_wakefolio_txt(f, r);
	write_remotewake_txt(f, r);

	text_heading(f, "Results");
	text_para(f, "",
		"Medians over the repetitions of each cell; %stddev = stddev/mean; "
		"%change = the ratio of the geometric means (the estimator the star "
		"tests; of the means where a value can be 0), so not the medians' "
		"ratio, against the baseline cell: the baseline "
		"kernel/model with the same tool, workload, lock, strategy, page size "
		"and clients; where only one kernel/model ran, the smallest page size "
		"(page size) or lock tas (lock), all else equal. * = p < 0.05 in "
		"Welch's t-test; ? = not computable (fewer than 2 runs on a side, "
		"or no spread at all); mde = the smallest change these runs could "
		"resolve at p < 0.05 (see Resolution).", 0);
	write_cell_tables(f, r, rp->baseline, txt_block, txt_absolute);
	write_resolution_txt(f, r, rp->baseline);

	if (rp->prof.n) {
		text_heading(f, "Profiles (perf record; top symbols, lock spin loops first)");
		/* The headline pair first: that is what the mail is about. */
		const struct profile *pb = fd->base ? profile_of(&rp->prof, fd->base) : NULL;
		const struct profile *pw = fd->worst ? profile_of(&rp->prof, fd->worst) : NULL;
		if (pb)
			txt_profile(f, pb);
		if (pw)
			txt_profile(f, pw);
		size_t others = 0;
		for (size_t i = 0; i < rp->prof.n; i++)
			if (&rp->prof.p[i] != pb && &rp->prof.p[i] != pw && others++ < 2)
				txt_profile(f, &rp->prof.p[i]);
		if (rp->diff_svg[0]) {
			snprintf(buf, sizeof(buf), "Differential flame graph (red = more in C%d %s "
				 "than in C%d %s): %s", fd->worst->id, fd->worst->variant,
				 fd->base->id, fd->base->variant, rp->diff_svg);
			fputc('\n', f);
			text_para(f, "", buf, 0);
		}
	}

	if (rp->ovh && rp->ovh->n) {
		text_heading(f, "Instrument overhead: each instrument against its bare twin");
		text_para(f, "", "Each instrumented run divided by the bare run of the same cell, "
			"seed and boot (fill-phase tps; \"(run)\": whole-run tps, no fill phase); per "
			"instrument the geometric mean of these paired ratios and its 95% t "
			"interval. Under icount a twin replays the same instructions but the "
			"instrument's: the ratio is the instrument's cost alone.", 0);
		fputc('\n', f);
		overhead_txt(f, rp->ovh);
	}

	text_heading(f, "Environment");
	txt_environment(f, rp);

	text_heading(f, "Cells");
	int many_sources = docs_vary(r, fmt_source);
	int many_env = docs_vary(r, fmt_virt) || docs_vary(r, fmt_cpus);
	/* Kernels built with different ticks (Debian's HZ 250, 7.2-lab's 1000): each cell says its own. */
	int many_ticks = docs_vary(r, fmt_hz);
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		const struct json_read_val *d = c->runs[0]->doc;
		char pg[32], src[600] = "", env[400] = "", fell[64] = "";
		(void)d;
		/* Cells are keyed by the page size obtained, so a huge_pages=try
		 * run that fell back sits with the 4 KB runs: list every policy. */
		char asked[256] = "";
		int fell_back = 0;
		for (size_t i = 0; i < c->nruns; i++) {
			const char *a = json_read_str(c->runs[i]->doc, "provenance.page_policy", "?");
			size_t l = strlen(asked);
			if (!strstr(asked, a))
				snprintf(asked + l, sizeof(asked) - l, "%s%s", l ? ", " : "", a);
			fell_back |= c->page_kb <= 4 && (strstr(a, "2m") || strstr(a, "1g") ||
							 strstr(a, "=on") || strstr(a, "try"));
		}
		char hz[32] = "";
		if (many_ticks) {
			hz[0] = ' ';
			fmt_hz(d, hz + 1, sizeof(hz) - 1);
		}
		if (many_sources)
			snprintf(src, sizeof(src), "%s (model from %s)", hz,
				 json_read_str(d, "provenance.preempt_model_source", "?"));
		else
			snprintf(src, sizeof(src), "%s", hz);
		if (many_env) {
			double cpus = 0;
			char v[256];
			json_read_num(d, "provenance.cpus", &cpus);
			fmt_virt(d, v, sizeof(v));
			snprintf(env, sizeof(env), ", %.0f CPUs, %s", cpus, v);
		}
		/* huge_pages=try and try-2m fall back silently: say it here. */
		if (fell_back)
			snprintf(fell, sizeof(fell), ": huge pages NOT obtained");
		snprintf(buf, sizeof(buf),
			 "%s %s %s%s, %s pages (asked %s%s; %s), lock %s, strategy %s, %s, "
			 "%ld clients, %zu runs%s",
			 c->tool, c->variant, c->kernel_release, src,
			 page_name(c->page_kb, pg, sizeof(pg)), asked, fell,
			 json_read_str(d, "provenance.page_size_source", "?"), c->lock, c->strategy,
			 c->workload, c->clients, c->nruns, env);
		char lead[16];
		snprintf(lead, sizeof(lead), "C%-3d ", c->id);
		text_para(f, lead, buf, 5);
	}

	text_heading(f, "Reproduce");
	distinct_values(r, "provenance.lab_revision", buf, sizeof(buf));
	char lead[4400];
	snprintf(lead, sizeof(lead), "From a clean checkout of preemptlab at %s (as root, "
		 "Debian 12; attachment.tar.gz has reproduce.sh):", buf[0] ? buf : "HEAD");
	text_para(f, "", lead, 0);
	text_cmd(f, "./configure --install-deps");
	char *cmd = repro_command(r);
	text_cmd(f, cmd);
	free(cmd);
	if (fd->worst) {
		snprintf(lead, sizeof(lead), "One run of C%d %s as it was run:", fd->worst->id,
			 fd->worst->variant);
		text_para(f, "", lead, 0);
		/* A document's text: each word quoted, so pasting it runs
		 * nothing but the program. */
		const char *cl = json_read_str(fd->worst->runs[0]->doc, "provenance.command_line", NULL);
		char *words = cl ? shell_words(cl) : NULL;
		text_cmd(f, words ? words : "(not recorded)");
		free(words);
	}

	if (fd->regzbot[0]) {
		text_heading(f, "Suggested regzbot line");
		text_para(f, "", "A suggestion, not a verdict: check the range before sending.", 0);
		txt_printf(f, "\n#regzbot introduced: %s\n\n", fd->regzbot);
		text_para(f, "", fd->regzbot_why, 0);
	}
}
