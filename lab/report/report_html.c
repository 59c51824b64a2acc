/*
 * report.html: the report as one self-contained file a reader opens in a
 * browser.  The charts are inlined (the SVGs the report just wrote), the
 * style is in the file, nothing is fetched and no script runs; only the
 * flame graphs, which are large, are linked beside it.  Every string from
 * documents goes through the text sanitiser and then HTML escapes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "atscale.h"
#include "compare.h"
#include "escape.h"
#include "evidence.h"
#include "pairs.h"
#include "report.h"
#include "resolution.h"
#include "separates.h"
#include "textfmt.h"

/* s as HTML text: sanitised as for report.txt, then entities. */
static void h(FILE *f, const char *s)
{
	char *clean = esc_dup(s, ESC_TXT);
	for (const char *p = clean; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*p, f);
		}
	}
	free(clean);
}

/* An SVG the report wrote, inlined without its XML declaration. */
static void inline_svg(FILE *f, const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(f, "<p>(chart %s missing)</p>\n", name);
		return;
	}
	char line[8192];
	int started = 0;
	while (fgets(line, sizeof(line), in)) {
		if (!started && strncmp(line, "<svg", 4))
			continue;
		started = 1;
		fputs(line, f);
	}
	fclose(in);
}

static void cmp_row(FILE *f, const struct comparison *c)
{
	char a[32], b[32], mde[16];
	fputs("<tr><td>", f);
	h(f, c->m->name);
	fprintf(f, "</td><td>%s &plusmn;%.0f%%</td><td>%s &plusmn;%.0f%%</td>",
		fmt_val(c->a.median, a, sizeof(a)), c->a.pct_stddev,
		fmt_val(c->b.median, b, sizeof(b)), c->b.pct_stddev);
	if (isnan(c->change_pct))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td%s>%+.1f%%%s</td>", c->significant ? " class=\"sig\"" : "", c->change_pct,
			c->significant ? " *" : c->w.ok ? "" : " ?");
	fprintf(f, "<td>%s</td>", mde_text(c, mde, sizeof(mde)));
	if (c->w.ok)
		fprintf(f, "<td>%.3g</td></tr>\n", c->w.p);
	else
		fputs("<td>not computable</td></tr>\n", f);
}

static void html_block(FILE *f, const struct pair *p, const struct metric *ms, size_t nm)
{
	char what[512], na[64], nb[64];
	pair_constant(p, what, sizeof(what));
	side_name(p->axis, p->base, na, sizeof(na));
	side_name(p->axis, p->cell, nb, sizeof(nb));
	fprintf(f, "<h3>C%d ", p->cell->id);
	h(f, nb);
	fprintf(f, " vs C%d ", p->base->id);
	h(f, na);
	fputs("</h3>\n<p class=\"held\">", f);
	h(f, what);
	fprintf(f, "</p>\n<div class=\"scroll\"><table><tr><th>metric</th><th>C%d (base)</th>"
		   "<th>C%d</th><th>%%change</th><th>mde</th><th>p (Welch)</th></tr>\n",
		p->base->id, p->cell->id);
	for (size_t i = 0; i < nm; i++) {
		struct comparison cmp;
		if (ms[i].headline && compare_cells(p->base, p->cell, &ms[i], &cmp) &&
		    (cmp.a.median != 0 || cmp.b.median != 0 || metric_always(&ms[i])))
			cmp_row(f, &cmp);
	}
	fputs("</table></div>\n", f);
}

static void html_absolute(FILE *f, const struct cell *c, const struct metric *ms, size_t nm)
{
	fprintf(f, "<h3>C%d ", c->id);
	h(f, c->variant);
	fputs(" (nothing to compare with)</h3>\n<p class=\"held\">", f);
	h(f, c->group);
	fputs("</p>\n<div class=\"scroll\"><table><tr><th>metric</th><th>median</th><th>%stddev</th>"
	      "<th>min</th><th>max</th><th>runs</th></tr>\n", f);
	for (size_t i = 0; i < nm; i++) {
		struct side s;
		char v[3][32];
		if (!ms[i].headline || !side_of(c, &ms[i], &s))
			continue;
		fputs("<tr><td>", f);
		h(f, ms[i].name);
		fprintf(f, "</td><td>%s</td><td>%.1f%%</td><td>%s</td><td>%s</td><td>%zu</td></tr>\n",
			fmt_val(s.median, v[0], 32), s.pct_stddev, fmt_val(s.min, v[1], 32),
			fmt_val(s.max, v[2], 32), s.n);
	}
	fputs("</table></div>\n", f);
}

static const char style[] =
	"body{font-family:Verdana,'DejaVu Sans',sans-serif;max-width:1180px;margin:1em auto;"
	"padding:0 1em;color:#111;line-height:1.4}"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #999;margin-top:1.6em}h3{font-size:1em;margin-bottom:.2em}"
	".held{color:#555;margin:.1em 0 .4em;font-size:.9em}"
	".scroll{overflow-x:auto;max-width:100%}"
	"table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;padding:2px 6px;"
	"text-align:right}td:first-child,th:first-child{text-align:left}"
	".sig{font-weight:bold}"
	"figure{margin:1em 0;overflow-x:auto}figcaption{font-size:.9em;color:#333}"
	"svg{max-width:none;height:auto}"
	"pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap;word-break:break-all}"
	".finding{background:#f7f7f0;border-left:4px solid #E69F00;padding:.5em 1em}";

void write_html(FILE *f, const struct report *rp)
{
	const struct results *r = rp->r;
	const char *base = strrchr(r->dir, '/');
	base = base && base[1] ? base + 1 : r->dir;
	char buf[4096];
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>preemptlab: ", f);
	h(f, base);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n<h1>preemptlab report: ", style);
	h(f, base);
	fprintf(f, "</h1>\n<p>%zu runs in %zu cells. Also as <a href=\"report.md\">report.md</a>, "
		   "mail-ready <a href=\"report.txt\">report.txt</a>, <a href=\"summary.txt\">summary.txt</a>.</p>\n",
		r->nruns, r->ncells);
	fputs("<h2>Finding</h2>\n<div class=\"finding\"><p>", f);
	if (rp->fd.preamble[0]) {
		h(f, rp->fd.preamble);
		fputs("</p><p>", f);
	}
	h(f, rp->fd.headline);
	fputs("</p>", f);
	if (rp->fd.caveats[0]) {
		fputs("<p><em>", f);
		h(f, rp->fd.caveats);
		fputs("</em></p>", f);
	}
	if (rp->fd.regzbot[0]) {
		fputs("<p>Suggested (verify before sending): <code>#regzbot introduced: ", f);
		h(f, rp->fd.regzbot);
		/* What it rests on, as report.txt and report.md say it. */
		fputs("</code> &mdash; ", f);
		h(f, rp->fd.regzbot_why);
		fputs("</p>", f);
	}
	fputs("</div>\n", f);
	if (rp->ncharts) {
		fputs("<h2>Charts</h2>\n", f);
		for (int i = 0; i < rp->ncharts; i++) {
			fputs("<figure>\n", f);
			inline_svg(f, r->dir, rp->charts[i]);
			fputs("<figcaption>", f);
			h(f, rp->chart_titles[i]);
			fputs(" (<a href=\"", f);
			h(f, rp->charts[i]);
			fputs("\">SVG</a>)</figcaption></figure>\n", f);
		}
	}
	/* As in report.txt and report.md: what separates the models, where two or more
	 * have the census, and the model on this run's own inputs, where it has evidence. */
	if (evidence_present(r)) {
		if (separates_present(r))
			write_separates_html(f, r);
		write_atscale_html(f, r);
	}
	fputs("<h2>Results</h2>\n<p>Medians &plusmn; %stddev over repetitions; %change of medians "
	      "against the baseline cell; * = p &lt; 0.05 (Welch); ? = not computable; mde = the "
	      "smallest change the runs could resolve. Headline metrics only: report.md has every "
	      "field.</p>\n", f);
	write_cell_tables(f, r, rp->baseline, html_block, html_absolute);
	if (rp->prof.n) {
		fputs("<h2>Flame graphs</h2>\n<ul>\n", f);
		for (size_t i = 0; i < rp->prof.n; i++) {
			const struct profile *p = &rp->prof.p[i];
			fprintf(f, "<li>C%d ", p->cell->id);
			h(f, p->cell->variant);
			fputs(", ", f);
			h(f, p->cell->group);
			fprintf(f, ": %.0f samples", p->f.total);
			if (p->svg[0]) {
				fputs(": <a href=\"", f);
				h(f, p->svg);
				fputs("\">flame graph</a>", f);
			}
			fputs("</li>\n", f);
		}
		if (rp->diff_svg[0]) {
			fputs("<li>differential: <a href=\"", f);
			h(f, rp->diff_svg);
			fputs("\">", f);
			h(f, rp->diff_svg);
			fputs("</a></li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (rp->ovh && rp->ovh->n) {
		fputs("<h2>Instrument overhead</h2>\n<p>Each instrumented run against the bare run "
		      "of the same cell, seed and boot; per instrument the geometric mean of the "
		      "paired ratios and its 95% t interval.</p>\n", f);
		overhead_html(f, rp->ovh);
	}
	fputs("<h2>Environment</h2>\n<ul>\n", f);
	for (size_t i = 0; i < env_nrows; i++) {
		if (!env_rows[i].html)
			continue;
		env_value(r, &env_rows[i], buf, sizeof(buf));
		if (!env_rows[i].fn && !buf[0])
			continue;
		fprintf(f, "<li>%s: ", env_rows[i].label);
		h(f, buf);
		fputs("</li>\n", f);
	}
	if (rp->ovh) {
		overhead_line(r, rp->ovh, buf, sizeof(buf));
		fputs("<li>instrument overhead: ", f);
		h(f, buf);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n<h2>Reproduce</h2>\n<pre>./configure --install-deps\n", f);
	char *cmd = repro_command(r);
	h(f, cmd);
	free(cmd);
	fputs("</pre>\n</body></html>\n", f);
}
