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
#include "report.h"
#include "textfmt.h"

/* Rows of a comparison block; rows that are zero on both sides say
 * nothing and are left out. */
static void txt_block(FILE *f, const struct report *rp, const struct cell *b,
		      const struct cell *c, const struct metric *ms, size_t nm)
{
	char line[1024];
	snprintf(line, sizeof(line), "C%d %s -> C%d %s: %s", b->id, b->variant, c->id,
		 c->variant, c->group);
	fputc('\n', f);
	tw_para(f, "", line, 4);
	fprintf(f, "%10s %7s %10s %10s %7s  %s\n", b->variant[0] && strlen(b->variant) <= 10 ? b->variant : "base",
		"", "", strlen(c->variant) <= 10 ? c->variant : "new", "", "");
	fprintf(f, "%10s %7s %10s %10s %7s  %s\n", "----------", "-------", "----------",
		"----------", "-------", "------");
	fprintf(f, "%10s %7s %10s %10s %7s  %s\n", "median", "%stddev", "%change", "median",
		"%stddev", "metric");
	(void)rp;
	for (size_t i = 0; i < nm; i++) {
		if (!ms[i].headline)
			continue;
		struct comparison cmp;
		if (!compare_cells(b, c, &ms[i], &cmp))
			continue;
		if (cmp.a.max == 0 && cmp.a.min == 0 && cmp.b.max == 0 && cmp.b.min == 0)
			continue;
		char va[32], vb[32], ch[32];
		if (isnan(cmp.change_pct))
			snprintf(ch, sizeof(ch), "-");
		else
			snprintf(ch, sizeof(ch), "%+.1f%%", cmp.change_pct);
		char mark = !cmp.w.ok ? '?' : cmp.significant ? '*' : ' ';
		fprintf(f, "%10s +-%4.0f%% %9s%c %10s +-%4.0f%%  %s\n",
			fmt_val(cmp.a.median, va, sizeof(va)), cmp.a.pct_stddev, ch, mark,
			fmt_val(cmp.b.median, vb, sizeof(vb)), cmp.b.pct_stddev, ms[i].name);
	}
}

static void txt_absolute(FILE *f, const struct cell *c, const struct metric *ms, size_t nm)
{
	char line[1024];
	snprintf(line, sizeof(line), "C%d %s: %s (no other kernel/model to compare with)",
		 c->id, c->variant, c->group);
	fputc('\n', f);
	tw_para(f, "", line, 4);
	fprintf(f, "%10s %7s %4s  %s\n", "median", "%stddev", "runs", "metric");
	for (size_t i = 0; i < nm; i++) {
		struct side s;
		if (!ms[i].headline || !side_of(c, &ms[i], &s) || (s.min == 0 && s.max == 0))
			continue;
		char v[32];
		fprintf(f, "%10s +-%4.0f%% %4zu  %s\n", fmt_val(s.median, v, sizeof(v)),
			s.pct_stddev, s.n, ms[i].name);
	}
}

static void txt_tables(FILE *f, const struct report *rp)
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
			if (b != c)
				txt_block(f, rp, b, c, ms, nm);
			else {
				/* A baseline with company is shown by its comparisons. */
				int alone = 1;
				for (size_t j = 0; j < r->ncells; j++)
					if (&r->cells[j] != c && baseline_of(r, &r->cells[j], rp->baseline) == c)
						alone = 0;
				if (alone)
					txt_absolute(f, c, ms, nm);
			}
		}
		free(ms);
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
	tw_para(f, "", line, 4);
	fprintf(f, "%7s %7s  %s\n", "self%", "total%", "symbol");
	size_t shown = 0;
	for (size_t i = 0; i < n && shown < 10; i++) {
		/* Spin loops come first in the sort; a trace of one is noise. */
		if (sym_is_spin(st[i].name) && st[i].total < p->f.total / 1000)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "%s", st[i].name);
		fprintf(f, "%7.2f %7.2f  %s%s\n", 100 * st[i].self / p->f.total,
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
		if (jr_num(r->runs[i].doc, path, &v[n]))
			n++;
	double lo = st_percentile(v, n, 0), hi = st_percentile(v, n, 100);
	int ok = n > 1 && lo != hi;
	if (ok)
		snprintf(buf, len, "median %.0f (%.0f..%.0f) over %zu runs", st_median(v, n), lo, hi, n);
	free(v);
	return ok;
}

void write_txt(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	const struct findings *fd = &rp->fd;
	char buf[4096];
	const char *base = strrchr(r->dir, '/');
	snprintf(buf, sizeof(buf), "preemptlab report: %s (%zu runs in %zu cells)",
		 base && base[1] ? base + 1 : r->dir, r->nruns, r->ncells);
	tw_para(f, "", buf, 4);

	tw_heading(f, "Finding");
	tw_para(f, "", fd->headline, 0);
	if (fd->caveats[0]) {
		fputc('\n', f);
		tw_para(f, "", fd->caveats, 0);
	}

	tw_heading(f, "Results");
	tw_para(f, "",
		"Medians over the repetitions of each cell; %stddev = stddev/mean; "
		"%change of the medians against the baseline cell (same tool, "
		"workload, lock, strategy, page size and clients). * = p < 0.05 in "
		"Welch's t-test; ? = not computable (fewer than 2 runs on a side, "
		"or no spread at all).", 0);
	txt_tables(f, rp);

	if (rp->prof.n) {
		tw_heading(f, "Profiles (perf record; top symbols, lock spin loops first)");
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
			tw_para(f, "", buf, 0);
		}
	}

	tw_heading(f, "Environment");
	static const struct { const char *label, *path; } env[] = {
		{ "Kernel releases: ", "provenance.kernel_release" },
		{ "Kernel versions: ", "provenance.kernel_version" },
		{ "Models (source): ", "provenance.preempt_model" },
		{ "Model read from: ", "provenance.preempt_model_source" },
		{ "CPU: ", "provenance.cpu_model" },
		{ "CPUs online: ", "provenance.cpus" },
		{ "Virtualization: ", "provenance.virtualization" },
		{ "Clocksource: ", "provenance.clocksource" },
		{ "Sleep(1us) costs ns: ", "provenance.sleep_cost_ns" },
		{ "Minor fault costs ns: ", "provenance.fault_cost_ns" },
		{ "Compiler: ", "provenance.versions.compiler" },
		{ "libc: ", "provenance.versions.libc" },
		{ "PostgreSQL: ", "provenance.versions.postgresql" },
		{ "Lab revision: ", "provenance.lab_revision" },
		{ "Host: ", "provenance.hostname" },
	};
	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		if (numeric_summary(r, env[i].path, buf, sizeof(buf))) {
			tw_para(f, env[i].label, buf, 4);
			continue;
		}
		distinct_values(r, env[i].path, buf, sizeof(buf) - 64);
		if (!buf[0])
			continue;
		if (!strcmp(env[i].path, "provenance.virtualization") && strstr(buf, "tcg"))
			strcat(buf, " (tcg = emulated (TCG): an emulator's times)");
		tw_para(f, env[i].label, buf, 4);
	}

	tw_heading(f, "Cells");
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		const struct jr_val *d = c->runs[0]->doc;
		char pg[32];
		const char *virt = jr_str(d, "provenance.virtualization", "?");
		const struct jr_val *em = jr_path(d, "provenance.emulated");
		double cpus = 0;
		jr_num(d, "provenance.cpus", &cpus);
		snprintf(buf, sizeof(buf),
			 "%s %s (%s, model from %s), %s pages (%s; asked %s), lock %s, "
			 "strategy %s, %s, %ld clients, %zu runs, %.0f CPUs, %s%s",
			 c->tool, c->variant, c->kernel_release,
			 jr_str(d, "provenance.preempt_model_source", "?"),
			 page_name(c->page_kb, pg, sizeof(pg)),
			 jr_str(d, "provenance.page_size_source", "?"),
			 jr_str(d, "provenance.page_policy", "?"), c->lock, c->strategy,
			 c->workload, c->clients, c->nruns, cpus, virt,
			 (em && em->type == JR_BOOL && em->b) || !strcmp(virt, "tcg") ? " (emulated (TCG))" : "");
		char lead[16];
		snprintf(lead, sizeof(lead), "C%-3d ", c->id);
		tw_para(f, lead, buf, 5);
	}

	tw_heading(f, "Reproduce");
	distinct_values(r, "provenance.lab_revision", buf, sizeof(buf));
	char lead[512];
	snprintf(lead, sizeof(lead), "From a clean checkout of preemptlab at %s (as root, "
		 "Debian 12; attachment.tar.gz has reproduce.sh):", buf[0] ? buf : "HEAD");
	tw_para(f, "", lead, 0);
	tw_cmd(f, "./configure --install-deps");
	repro_command(r, buf, sizeof(buf));
	tw_cmd(f, buf);
	if (fd->worst) {
		snprintf(lead, sizeof(lead), "One run of C%d %s as it was run:", fd->worst->id,
			 fd->worst->variant);
		tw_para(f, "", lead, 0);
		tw_cmd(f, jr_str(fd->worst->runs[0]->doc, "provenance.command_line", "(not recorded)"));
	}

	if (fd->regzbot[0]) {
		tw_heading(f, "Suggested regzbot line");
		tw_para(f, "", "A suggestion, not a verdict: check the range before sending.", 0);
		fprintf(f, "\n#regzbot introduced: %s\n\n", fd->regzbot);
		tw_para(f, "", fd->regzbot_why, 0);
	}
}
