/*
 * "At the report's scale" (issue 27, docs/scale.md): the strategy-lock
 * model fed with this run's own inputs (make model's extraction), once for
 * the run's configuration beside the ratio it measured, and once moved by
 * the stated rules to the regression report's 96 vCPUs and 1024 clients.
 * The first is a consistency check (q and T come from the same runs); only
 * the second says anything about the report, and only as far as the rules
 * hold (docs/scale.md has their validation).
 */
#include "atscale.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "model/blind.h"
#include "model/closed.h"
#include "model/extract.h"
#include "model/extrap.h"
#include "statistics.h"
#include "textfmt.h"

#define DRAWS 4000
#define SEED 27
/* The blind prediction anchors X0 per draw through the lock's queue: fewer draws. */
#define BLIND_DRAWS 400

struct as_row {
	const struct extract_group *g;
	enum pmodel m;
	struct ratio meas;
	struct closed_pred here;
	struct bl_result there;
	double pf_there, t_there;
	int there_ok;
	int unreachable;	/* no draw gives none the report's tps */
};

static const char intro[] =
	"The model of docs/scale.md (1/X = 1/X_free + k, k = m p_f q_M T, X_free bounded by "
	"the lock's capacity 1/(m (h + p_f d_f))) fed with this run's "
	"own fill-phase inputs (make model RUN=: m, p_f, q_M with Wilson intervals, T = mean "
	"off-CPU interval of a holder + mean free tail, X0 from none's tps). 'here' is this "
	"run's configuration: q and T come from the same runs, so it checks consistency, not "
	"prediction. 'at 96/1024' is the blind prediction over the whole 1,200 s run (fill, "
	"then steady state): the rules' own spans drawn (p_f between the 2-CPU runs of pops and "
	"perfect interleaving at 1024 clients and a 120 GB pool, T between the free tail and "
	"runnable per CPU x EEVDF slice at HZ 250, m up to 2, the fault's length 10.6 us to the "
	"emulator's, q moved with it), none anchored at the report's 98,566 tps; p_f and T "
	"columns are the rules' central values. The report measured lazy/none 0.51x there. "
	"Intervals: 2.5-97.5th percentiles of 4000 draws of the inputs (400 at 96/1024; seed "
	"27); measured: geometric means, Welch on log tps.";

/* This run's inputs for one group, through the same text make model writes. */
static int inputs_of(const struct extract_group *g, const char *dir, struct model_inputs *in)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	int rc = extract_write(f, g, dir, err, sizeof(err));
	fclose(f);
	int ok = rc == MX_OK && inputs_parse(buf, "this run's inputs", in, err, sizeof(err));
	free(buf);
	return ok ? 0 : -1;
}

static int row_of(const struct extract_group *g, const struct model_inputs *in, enum pmodel m,
		  struct as_row *w)
{
	memset(w, 0, sizeof(*w));
	w->g = g;
	w->m = m;
	if (g->ntps[m] < 1 || !in->have_q[m])
		return 0;
	w->meas = st_ratio(g->tps[PM_NONE], (size_t)g->ntps[PM_NONE], g->tps[m], (size_t)g->ntps[m]);
	if (closed_predict(in, m, g->cpus, g->clients, DRAWS, SEED, &w->here) != 0)
		return 0;
	struct extrap_target t;
	struct model_inputs moved;
	struct extrap_trace tr;
	char err[256];
	extrap_report_target(&t, g->page);
	if (extrap_apply(in, &t, &moved, &tr, err, sizeof(err)) == 0) {
		struct bl_bounds b;
		w->pf_there = moved.p_f.v;
		w->t_there = moved.t_stall_us.v;
		/* The blind prediction: whole run, the rules' spans drawn (blind.h). */
		if (bl_bounds_for(in, &t, &b, err, sizeof(err)) == 0) {
			w->there_ok = bl_predict_run(in, &b, m, XR_REPORT_NONE_TPS, BL_RUN_S, BLIND_DRAWS, SEED,
						     &w->there) == 0;
			w->unreachable = !w->there_ok;
		}
	}
	return 1;
}

static void fmt_ratio(char *buf, size_t len, double v, double lo, double hi, int ok)
{
	if (ok)
		snprintf(buf, len, "%.3fx [%.3f, %.3f]", v, lo, hi);
	else
		snprintf(buf, len, "%.3fx", v);
}

/* The groups the rows came from, for the provenance that follows the table. */
static struct extract_set set;

/* One row per model against none per cell family; returns the rows, -1 when refused. */
static int rows(const struct results *r, FILE *f, enum esc_mode mode, char *why, size_t whylen)
{
	int rc = extract_scan(r->dir, &set, why, whylen);
	if (rc != MX_OK) {
		set.ngroups = 0;
		return rc == MX_IN_HOLD ? -1 : 0;
	}
	static const char *const fmt[] = {
		[ESC_TXT] = "%-5s %4d %7d %-14s %-24s %-24s %-24s %7.3g %9.3g %8.0f\n",
		[ESC_MD] = "| %s | %d | %d | %s | %s | %s | %s | %.3g | %.3g | %.0f |\n",
		[ESC_HTML] = "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td>"
			     "<td>%s</td><td>%.3g</td><td>%.3g</td><td>%.0f</td></tr>\n",
	};
	int n = 0;
	for (int i = 0; i < set.ngroups; i++) {
		struct model_inputs in;
		if (set.g[i].ntps[PM_NONE] < 1 || inputs_of(&set.g[i], r->dir, &in) != 0)
			continue;
		for (int m = PM_VOLUNTARY; m < PM_COUNT; m++) {
			struct as_row w;
			if (!row_of(&set.g[i], &in, (enum pmodel)m, &w))
				continue;
			char meas[48], here[48], there[48], name[32];
			snprintf(name, sizeof(name), "%s/none", pmodel_name(w.m));
			fmt_ratio(meas, sizeof(meas), w.meas.est, w.meas.lo, w.meas.hi, w.meas.ok);
			fmt_ratio(here, sizeof(here), w.here.ratio, w.here.lo, w.here.hi, 1);
			if (w.there_ok)
				fmt_ratio(there, sizeof(there), w.there.run.med, w.there.run.lo, w.there.run.hi, 1);
			else
				snprintf(there, sizeof(there), "%s",
					 w.unreachable ? "none's 98,566 unreachable" : "no rule applies");
			esc_printf(f, mode, fmt[mode], w.g->page, w.g->cpus, w.g->clients, name, meas, here,
				   there, in.q[m].v / fmax(in.q[PM_NONE].v, 1e-12), w.pf_there, w.t_there);
			n++;
		}
	}
	return n;
}

/*
 * Where each family's inputs came from: a number in the table is only as
 * good as the runs, kernel and emulator behind it (FACTS 6).
 */
static void provenance(FILE *f, enum esc_mode mode, const char *dir)
{
	for (int i = 0; i < set.ngroups; i++) {
		const struct extract_group *g = &set.g[i];
		if (g->ntps[PM_NONE] < 1)
			continue;
		char runs[128] = "";
		size_t o = 0;
		for (int m = 0; m < PM_COUNT; m++)
			if (g->ntps[m] && o < sizeof(runs))
				o += (size_t)snprintf(runs + o, sizeof(runs) - o, "%s%s %d", o ? ", " : "",
						      pmodel_name(m), g->ntps[m]);
		/* The markup is the format's own text: only the values are escaped. */
#define PROV_LINE "%s pages, %d CPUs, %d clients: make model RUN=%s, fill phase of %d runs (%s); " \
		  "kernel %s, %s, lab %s; HZ %d (%s); fault-around %d pages; pool %.0f buffers; "   \
		  "fault costs: %s"
		static const char *const fmt[] = {
			[ESC_TXT] = PROV_LINE,
			[ESC_MD] = "- " PROV_LINE "\n",
			[ESC_HTML] = "<li>" PROV_LINE "</li>\n",
		};
#undef PROV_LINE
		/* report.txt wraps for mail: the line is made first, then set as a paragraph. */
		char *buf = NULL;
		size_t len = 0;
		FILE *out = mode == ESC_TXT ? open_memstream(&buf, &len) : f;
		if (!out)
			continue;
		esc_printf(out, mode, fmt[mode], g->page, g->cpus, g->clients, dir, g->runs, runs,
			   g->kernel, g->virt, g->revision, g->hz, g->hz_source, g->fault_around_pages,
			   g->pool_pages, g->costs.docs ? g->costs.source : "provenance fault_cost_ns only");
		if (mode == ESC_TXT) {
			fclose(out);
			text_para(f, "  ", buf, 4);
			free(buf);
		}
	}
}

static const char header_txt[] = "%-5s %4s %7s %-14s %-24s %-24s %-24s %7s %9s %8s\n";

void write_atscale_txt(FILE *f, const struct results *r)
{
	char why[1024] = "";
	text_para(f, "", intro, 0);
	fputc('\n', f);
	fprintf(f, header_txt, "page", "cpus", "clients", "model", "measured here (95%)",
		"model here", "model at 96/1024", "q/qnone", "p_f there", "T there");
	int n = rows(r, f, ESC_TXT, why, sizeof(why));
	if (n < 0)
		text_para(f, "The model refuses this run's inputs: ", why, 0);
	else if (n == 0)
		text_para(f, "", "No cell family here has none beside another model with evidence "
			"(EVIDENCE=on): nothing to run the model on.", 0);
	if (n > 0) {
		fprintf(f, "\nInputs (provenance):\n");
		provenance(f, ESC_TXT, r->dir);
	}
	fputc('\n', f);
}

void write_atscale_md(FILE *f, const struct results *r)
{
	char why[1024] = "";
	md_printf(f, "\n## At the report's scale\n\n%s\n\n", intro);
	md_printf(f, "| page | cpus | clients | model | measured here (95%%) | model here | "
		     "model at 96/1024 | q/qnone | p_f there | T there (us) |\n"
		     "|---|---|---|---|---|---|---|---|---|---|\n");
	int n = rows(r, f, ESC_MD, why, sizeof(why));
	if (n < 0)
		md_printf(f, "\nThe model refuses this run's inputs: %s\n", why);
	else if (n == 0)
		md_printf(f, "\nNo cell family here has none beside another model with evidence.\n");
	if (n > 0) {
		md_printf(f, "\nInputs (provenance):\n\n");
		provenance(f, ESC_MD, r->dir);
	}
}

void write_atscale_html(FILE *f, const struct results *r)
{
	char why[1024] = "";
	esc_printf(f, ESC_HTML, "<h2>At the report's scale</h2>\n<p>%s</p>\n", intro);
	fputs("<div class=\"scroll\"><table><tr><th>page</th><th>cpus</th><th>clients</th>"
	      "<th>model</th><th>measured here (95%)</th><th>model here</th><th>model at 96/1024</th>"
	      "<th>q/qnone</th><th>p_f there</th><th>T there (us)</th></tr>\n", f);
	int n = rows(r, f, ESC_HTML, why, sizeof(why));
	fputs("</table></div>\n", f);
	if (n < 0)
		esc_printf(f, ESC_HTML, "<p>The model refuses this run's inputs: %s</p>\n", why);
	else if (n == 0)
		fputs("<p>No cell family here has none beside another model with evidence.</p>\n", f);
	if (n > 0) {
		fputs("<p>Inputs (provenance):</p>\n<ul>\n", f);
		provenance(f, ESC_HTML, r->dir);
		fputs("</ul>\n", f);
	}
}
