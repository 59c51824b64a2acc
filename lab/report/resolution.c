/*
 * Resolution of a run.  The MDE of one comparison is the effect its test
 * detects with 80% power at two-sided p < 0.05: (t_.975 + t_.80) x se of
 * the test the comparison uses (Welch on the logs for tps: compare.h), as
 * a share of the baseline.  The 95% interval's half-width alone is the
 * 50%-power figure and is not what "detectable" means here.  The planning
 * figures assume two cells alike in spread (the median %stddev of the
 * mode's cells) and in runs, which is what a reader choosing REPEAT for
 * the next run needs.  Every tps ratio is listed with its interval, and
 * the report's tps comparisons are corrected together (Holm).
 */
#include "resolution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "pairs.h"
#include "statistics.h"
#include "textfmt.h"

/* What the section summarizes: tps, and the fill phase's where measured. */
static const struct metric summarized[] = {
	{ "tps", "results.tps", "", 1, true, true },
	{ "fill tps", "results.phase.fill.tps", "", 1, true, true },
};

double comparison_mde_pct(const struct comparison *c)
{
	if (!c->w.ok)
		return NAN;
	if (c->log_scale)
		return 100 * c->ratio.mde;
	return c->a.mean != 0 ? 100 * c->w.mde / fabs(c->a.mean) : NAN;
}

const char *mde_text(const struct comparison *c, char *buf, size_t len)
{
	double m = comparison_mde_pct(c);
	if (isnan(m))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, m < 10 ? "%.1f%%" : "%.0f%%", m);
	return buf;
}

static const char *mode_of(const struct cell *c)
{
	return c->nruns ? json_read_str(c->runs[0]->doc, "provenance.virtualization", "?") : "?";
}

/* One virtualization mode and tool: what its cells and comparisons show. */
struct mode_sum {
	char mode[32];
	const char *tool;
	const struct metric *m;
	size_t ncells;		/* cells with at least 2 runs */
	double cv;		/* median tps %stddev of those */
	long runs;		/* median runs a cell */
	size_t ncmp;		/* computable comparisons */
	double mde_median, mde_max;
	long for10, for5, for2;	/* runs a cell that resolve 10/5/2%; 0: > 50 */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static bool summarize(const struct results *r, const char *baseline, const char *mode,
		      const char *tool, const struct metric *m, struct mode_sum *s)
{
	double *cv = calloc(r->ncells + 1, sizeof(*cv)), *runs = calloc(r->ncells + 1, sizeof(*runs));
	if (!cv || !runs)
		exit(1);
	memset(s, 0, sizeof(*s));
	snprintf(s->mode, sizeof(s->mode), "%s", mode);
	s->tool = tool;
	s->m = m;
	for (size_t k = 0; k < r->ncells; k++) {
		const struct cell *c = &r->cells[k];
		struct side sd;
		if (strcmp(c->tool, tool) || strcmp(mode_of(c), mode) || !side_of(c, m, &sd) ||
		    sd.n < 2)
			continue;
		cv[s->ncells] = sd.pct_stddev;
		runs[s->ncells++] = (double)sd.n;
	}
	if (s->ncells) {
		s->cv = st_median(cv, s->ncells);
		qsort(runs, s->ncells, sizeof(*runs), cmp_double);
		s->runs = (long)runs[(s->ncells - 1) / 2];
		s->for10 = st_runs_for(s->cv, 10, 50);
		s->for5 = st_runs_for(s->cv, 5, 50);
		s->for2 = st_runs_for(s->cv, 2, 50);
	}
	free(cv);
	free(runs);

	struct pair *p;
	size_t np = pairs_for(r, tool, baseline, &p);
	double *mde = calloc(np + 1, sizeof(*mde));
	if (!mde)
		exit(1);
	for (size_t i = 0; i < np; i++) {
		struct comparison c;
		if (strcmp(mode_of(p[i].base), mode) || strcmp(mode_of(p[i].cell), mode) ||
		    !compare_cells(p[i].base, p[i].cell, m, &c))
			continue;
		double m = comparison_mde_pct(&c);
		if (!isnan(m))
			mde[s->ncmp++] = m;
	}
	if (s->ncmp) {
		s->mde_median = st_median(mde, s->ncmp);
		s->mde_max = st_percentile(mde, s->ncmp, 100);
	}
	free(mde);
	free(p);
	return s->ncells > 0;
}

static void runs_text(long n, char *buf, size_t len)
{
	if (n)
		snprintf(buf, len, "%ld", n);
	else
		snprintf(buf, len, "more than 50");
}

/*
 * What removes the noise depends on where it comes from.  Plain TCG follows
 * the host's load: icount takes that away.  Under icount virtual time is
 * instructions, so a busy host is not the cause; what is left is the
 * guest's own variation and the first run of a boot (18-30% slower under
 * icount in a 2 s cell).  Elsewhere: the machine.
 */
static const char *noise_advice(const char *mode)
{
	if (strstr(mode, "icount"))
		return "longer runs (DURATION) and a run discarded after each boot: under "
		       "icount the host's load is not the cause, and a boot's first run is slower";
	if (!strncmp(mode, "tcg", 3))
		return "ACCEL=icount: virtual time does not follow the host's load";
	return "a quiet machine, longer runs";
}

static void sum_text(const struct mode_sum *s, char *buf, size_t len)
{
	char r10[16], r5[16], r2[16];
	int o = snprintf(buf, len, "%s, %s %s: varies by %.1f%% between the runs of a cell "
			 "(median %%stddev of %zu cells, %ld runs each).", s->mode, s->tool,
			 s->m->name, s->cv, s->ncells, s->runs);
	if (s->ncmp == 1 && o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " Its comparison detects differences of "
			      "%.1f%% (80%% power, p < 0.05).", s->mde_median);
	else if (s->ncmp > 1 && o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " Its %zu comparisons detect differences "
			      "of %.1f%% (median; largest %.1f%%) at 80%% power, p < 0.05.", s->ncmp,
			      s->mde_median, s->mde_max);
	runs_text(s->for10, r10, sizeof(r10));
	runs_text(s->for5, r5, sizeof(r5));
	runs_text(s->for2, r2, sizeof(r2));
	if (o > 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " At this spread, %s runs a cell detect "
			      "10%%, %s detect 5%%, %s detect 2%% (80%% power).", r10, r5, r2);
	/* Little noise buys fewer repetitions: say so when it does. */
	if (s->for5 && s->for5 < s->runs && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " Fewer repetitions would do: %ld already "
			 "detect 5%%.", s->for5);
	else if (!s->for5 && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " Repetitions alone will not resolve 5%% here: "
			 "the noise has to go (%s).", noise_advice(s->mode));
}

/* Each distinct mode of the run's cells, once, in order of first sight. */
static size_t modes_of(const struct results *r, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k < r->ncells; k++) {
		const char *m = mode_of(&r->cells[k]);
		size_t i = 0;
		while (i < n && strcmp(out[i], m))
			i++;
		if (i == n && n < max)
			out[n++] = m;
	}
	return n;
}

static const char *intro =
	"The smallest difference each comparison detects with 80% power at two-sided "
	"p < 0.05 is its minimum detectable effect (the tables' mde column): "
	"(t_.975 + t_.80) x the standard error of its test, from both cells' spreads "
	"and runs (the 95% interval's half-width is the 50%-power figure, 1.25-1.43x "
	"smaller). A difference that is not marked and lies under it is unresolved, "
	"not absent. The change and the star come from one estimator: for tps (and "
	"every metric whose runs are all positive) the ratio of the geometric means, "
	"tested by Welch's t-test on the logarithms; for metrics that can be 0, the "
	"means and Welch's test on the values. Medians in the tables are "
	"descriptive.";

static void heading(FILE *f, bool md, const char *text)
{
	if (md) {
		md_printf(f, "\n## Resolution\n\n%s\n\n", text);
	} else {
		text_heading(f, "Resolution");
		text_para(f, "", text, 0);
	}
}

/* One comparison of the report's family: what it compares and its test. */
struct member {
	struct pair p;
	const struct metric *m;
	struct comparison c;
	double holm;
};

static size_t family_of(const struct results *r, const char *baseline, struct member **out)
{
	const char *tools[] = { "bufbench", "pgbench" };
	const size_t nsum = sizeof(summarized) / sizeof(summarized[0]);
	size_t n = 0, cap = 0;
	struct member *v = NULL;
	for (size_t t = 0; t < 2; t++) {
		struct pair *p;
		size_t np = pairs_for(r, tools[t], baseline, &p);
		for (size_t i = 0; i < np; i++)
			for (size_t k = 0; k < nsum; k++) {
				struct comparison c;
				if (!compare_cells(p[i].base, p[i].cell, &summarized[k], &c) ||
				    isnan(c.change_pct))
					continue;
				if (n == cap && !(v = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v))))
					exit(1);
				v[n].p = p[i];
				v[n].m = &summarized[k];
				v[n].c = c;
				n++;
			}
		free(p);
	}
	double *pv = calloc(n + 1, sizeof(*pv)), *adj = calloc(n + 1, sizeof(*adj));
	if (!pv || !adj)
		exit(1);
	for (size_t i = 0; i < n; i++)
		pv[i] = v[i].c.w.ok ? v[i].c.w.p : NAN;
	st_holm(pv, n, adj);
	for (size_t i = 0; i < n; i++)
		v[i].holm = adj[i];
	free(pv);
	free(adj);
	*out = v;
	return n;
}

static void member_text(const struct member *x, char *buf, size_t len)
{
	char na[64], nb[64], what[512];
	const struct comparison *c = &x->c;
	side_name(x->p.axis, x->p.base, na, sizeof(na));
	side_name(x->p.axis, x->p.cell, nb, sizeof(nb));
	pair_constant(&x->p, what, sizeof(what));
	int o = snprintf(buf, len, "C%d %s / C%d %s, %s (%s): ", x->p.cell->id, nb, x->p.base->id,
			 na, x->m->name, what);
	if (o < 0 || (size_t)o >= len)
		return;
	if (c->log_scale)
		snprintf(buf + o, len - (size_t)o, "%.3fx [%.3f, %.3f], p %.2g, Holm p %.2g%s.",
			 c->ratio.est, c->ratio.lo, c->ratio.hi, c->w.p, x->holm,
			 x->holm < ST_ALPHA ? " (significant after correction)"
			 : c->significant ? " (not significant after correction)" : "");
	else
		snprintf(buf + o, len - (size_t)o, "%.3fx, no interval (%zu and %zu runs%s).",
			 1 + c->change_pct / 100, c->a.n, c->b.n,
			 c->a.n >= 2 && c->b.n >= 2 ? ", no spread" : "");
}

static void write_family(FILE *f, const struct results *r, const char *baseline, bool md)
{
	struct member *v;
	size_t n = family_of(r, baseline, &v), tested = 0, kept = 0, starred = 0;
	for (size_t i = 0; i < n; i++) {
		tested += !isnan(v[i].holm);
		kept += v[i].holm < ST_ALPHA;
		starred += v[i].c.significant;
	}
	if (!n) {
		free(v);
		return;
	}
	char buf[1024];
	snprintf(buf, sizeof(buf), "Every tps ratio with its 95%% interval (ratio of the "
		 "geometric means of the runs, interval and p from Welch's t-test on log tps). "
		 "The report makes %zu such tests; the tables' stars are each at p < 0.05 alone, "
		 "so some would be expected by chance. Holm's correction across all %zu keeps "
		 "the familywise error at 0.05: %zu of the %zu starred differences stay "
		 "significant.", tested, tested, kept, starred);
	if (md)
		md_printf(f, "\n%s\n\n", buf);
	else {
		fputc('\n', f);
		text_para(f, "", buf, 0);
	}
	for (size_t i = 0; i < n; i++) {
		member_text(&v[i], buf, sizeof(buf));
		if (md) {
			md_printf(f, "- %s\n", buf);
		} else {
			text_para(f, "- ", buf, 2);
		}
	}
	free(v);
}

static void write_resolution(FILE *f, const struct results *r, const char *baseline, bool md)
{
	const char *modes[16], *tools[] = { "bufbench", "pgbench" };
	const size_t nsum = sizeof(summarized) / sizeof(summarized[0]);
	size_t nm = modes_of(r, modes, 16);
	char buf[1024];
	bool any = false;
	for (size_t i = 0; i < nm * 2 * nsum; i++) {
		struct mode_sum s;
		if (!summarize(r, baseline, modes[i / (2 * nsum)], tools[i / nsum % 2],
			       &summarized[i % nsum], &s))
			continue;
		if (!any)
			heading(f, md, intro);
		any = true;
		sum_text(&s, buf, sizeof(buf));
		if (md) {
			md_printf(f, "- %s\n", buf);
		} else {
			fputc('\n', f);
			text_para(f, "- ", buf, 2);
		}
	}
	if (!any)
		heading(f, md, "No cell has 2 runs: nothing can be resolved. Run with REPEAT=3 "
			"or more (PG_REPEAT for pgbench).");
	write_family(f, r, baseline, md);
}

void write_resolution_txt(FILE *f, const struct results *r, const char *baseline)
{
	write_resolution(f, r, baseline, false);
}

void write_resolution_md(FILE *f, const struct results *r, const char *baseline)
{
	write_resolution(f, r, baseline, true);
}
