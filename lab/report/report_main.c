/*
 * build/report RUN [--baseline KERNEL/MODEL]: regenerates report.txt,
 * report.md, the SVG charts and the flame graphs of RUN from its raw
 * results, so a report can be remade after the fact (or after a fix to
 * the report) without rerunning anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "flame.h"
#include "outfile.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: report RUNDIR [--baseline KERNEL/MODEL] [--reproduce-command]\n"
		   "  writes RUNDIR/report.txt, report.md, *.svg from RUNDIR/runs/*.json\n"
		   "  (and flame graphs from RUNDIR/perf/*.folded when profiled)\n");
}

void write_flamegraphs(struct report *rp)
{
	const struct results *r = rp->r;
	struct outfile o;
	for (size_t i = 0; i < rp->prof.n; i++) {
		struct profile *p = &rp->prof.p[i];
		char slug[256], title[1024], name[300];
		cell_slug(p->cell, slug, sizeof(slug));
		snprintf(name, sizeof(name), "flame-%s.svg", slug);
		FILE *f = out_open(&o, r->dir, name);
		if (!f)
			continue;
		snprintf(title, sizeof(title), "C%d %s: %s", p->cell->id, p->cell->variant, p->cell->group);
		struct flame_opts fo = { title, "perf record call graphs; width = samples; hover a frame for its count", 1200, 0.1 };
		flame_svg(f, &p->f, &fo);
		if (out_commit(&o) == 0)
			snprintf(p->svg, sizeof(p->svg), "%s", name);
	}
	const struct profile *pb = rp->fd.base ? profile_of(&rp->prof, rp->fd.base) : NULL;
	const struct profile *pw = rp->fd.worst ? profile_of(&rp->prof, rp->fd.worst) : NULL;
	if (pb && pw) {
		char name[300], title[1024], sub[1024];
		snprintf(name, sizeof(name), "flame-diff-C%d-C%d.svg", pb->cell->id, pw->cell->id);
		FILE *f = out_open(&o, r->dir, name);
		if (!f)
			return;
		snprintf(title, sizeof(title), "Differential: C%d %s against C%d %s (%s)", pw->cell->id,
			 pw->cell->variant, pb->cell->id, pb->cell->variant, pw->cell->group);
		snprintf(sub, sizeof(sub), "shape of C%d %s; red = larger share of samples than in C%d %s, blue = smaller",
			 pw->cell->id, pw->cell->variant, pb->cell->id, pb->cell->variant);
		struct flame_opts fo = { title, sub, 1200, 0.1 };
		flame_diff_svg(f, &pb->f, &pw->f, &fo);
		if (out_commit(&o) == 0)
			snprintf(rp->diff_svg, sizeof(rp->diff_svg), "%s", name);
	}
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *baseline = NULL;
	int print_repro = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--baseline") && i + 1 < argc) {
			baseline = argv[++i];
		} else if (!strncmp(argv[i], "--baseline=", 11)) {
			baseline = argv[i] + 11;
		} else if (!strcmp(argv[i], "--reproduce-command")) {
			print_repro = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || dir) {
			fprintf(stderr, "report: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		usage(stderr);
		return 2;
	}
	if (baseline && !strchr(baseline, '/')) {
		fprintf(stderr, "report: --baseline wants KERNEL/MODEL, e.g. --baseline 6.12/none\n");
		return 2;
	}
	/* Trailing slashes would show up in titles. */
	char *d = strdup(dir);
	for (size_t l = strlen(d); l > 1 && d[l - 1] == '/'; l--)
		d[l - 1] = 0;

	struct results r;
	char err[1024];
	if (results_load(&r, d, err, sizeof(err))) {
		txt_printf(stderr, "report: %s\n", err);
		results_free(&r);  /* what was loaded before it gave up */
		free(d);
		return 1;
	}
	if (print_repro) {
		char *cmd = repro_command(&r);
		printf("%s\n", cmd);
		free(cmd);
		results_free(&r);
		free(d);
		return fflush(stdout) ? 1 : 0;
	}
	if (baseline) {
		int found = 0;
		char all[1024] = "";
		for (size_t k = 0; k < r.ncells; k++) {
			if (!strcmp(r.cells[k].variant, baseline))
				found = 1;
			if (!strstr(all, r.cells[k].variant) && strlen(all) + strlen(r.cells[k].variant) + 3 < sizeof(all))
				strcat(strcat(all, all[0] ? ", " : ""), r.cells[k].variant);
		}
		if (!found) {
			txt_printf(stderr, "report: --baseline %s matches no cell; this run has: %s\n", baseline, all);
			results_free(&r);
			free(d);
			return 2;
		}
	}

	struct report rp;
	memset(&rp, 0, sizeof(rp));
	rp.r = &r;
	rp.baseline = baseline;
	find_headline(&r, baseline, &rp.fd);
	rp.ovh = calloc(1, sizeof(*rp.ovh));
	if (rp.ovh)
		overhead_compute(&r, rp.ovh);
	profiles_load(&rp.prof, &r);
	rp.nmicro = micro_load(d, rp.micro, sizeof(rp.micro) / sizeof(rp.micro[0]));
	if (r.nexcluded) {
		size_t l = strlen(rp.fd.caveats);
		snprintf(rp.fd.caveats + l, sizeof(rp.fd.caveats) - l,
			 "%s%zu run(s) failed or were interrupted and are left out of every "
			 "statistic (listed in summary.txt).", l ? " " : "", r.nexcluded);
	}
	/* Profiled runs with bare twins lend the report no timing (results.c). */
	if (rp.prof.n && r.nuntwinned) {
		size_t l = strlen(rp.fd.caveats);
		snprintf(rp.fd.caveats + l, sizeof(rp.fd.caveats) - l,
			 "%sProfiled cells ran under perf record (PROFILE=on): their rates "
			 "include perf's overhead (the host's dwarf unwinding costs most).", l ? " " : "");
	}
	write_charts(&rp);
	write_flamegraphs(&rp);

	static const struct {
		const char *name;
		void (*write)(FILE *f, const struct report *rp);
	} outs[] = { { "report.txt", write_txt }, { "summary.txt", write_summary },
		     { "report.md", write_md }, { "report.html", write_html } };
	int rc = 0;
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		struct outfile o;
		FILE *f = out_open(&o, d, outs[i].name);
		if (f)
			outs[i].write(f, &rp);
		rc |= !f || out_commit(&o) != 0;
	}
	if (!rc)
		fprintf(stderr, "report: wrote %s/report.txt, summary.txt, report.md, report.html, %d chart(s), %zu flame graph(s)%s\n",
			d, rp.ncharts, rp.prof.n, rp.diff_svg[0] ? " and a differential one" : "");
	profiles_free(&rp.prof);
	free(rp.ovh);
	results_free(&r);
	free(d);
	return rc;
}
