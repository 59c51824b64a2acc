/*
 * build/compare --out DIR [--baseline RUN] RUN RUN...: one report over the
 * cells of several run directories (two boots, two kernels, a fleet's
 * machines), matched by the same keys as within one run, each column named
 * kernel/model/host.  The renderers are build/report's; only the loading
 * (results_load_many) and the "Runs compared" block are its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "escape.h"
#include "outfile.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: compare --out DIR [--baseline RUN] RUN RUN...\n"
		   "  writes DIR/report.txt, report.md, summary.txt and charts over the\n"
		   "  runs/*.json of every RUN; BASELINE: one of the RUNs\n");
}

/* A directory as given, without trailing slashes. */
static char *trimmed(const char *s)
{
	char *d = strdup(s);
	if (!d)
		exit(1);
	for (size_t l = strlen(d); l > 1 && d[l - 1] == '/'; l--)
		d[l - 1] = 0;
	return d;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *baseline = NULL;
	char **dirs = calloc((size_t)argc, sizeof(*dirs));
	size_t n = 0;
	if (!dirs)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--baseline") && i + 1 < argc)
			baseline = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			txt_printf(stderr, "compare: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else
			dirs[n++] = trimmed(argv[i]);
	}
	if (!out || n < 2) {
		fprintf(stderr, "compare: give --out DIR and two or more run directories "
				"(make compare RUNS=\"results/A results/B\")\n");
		usage(stderr);
		return 2;
	}
	/*
	 * One directory given twice (A A, A ./A, a link to A) would count its
	 * runs twice: n doubled, the spread made to look like none (issue 28,
	 * D7).  The same device and inode is the same directory.
	 */
	for (size_t i = 0; i < n; i++) {
		struct stat si, sj;
		if (stat(dirs[i], &si))
			continue;
		for (size_t j = 0; j < i; j++)
			if (!stat(dirs[j], &sj) && si.st_ino == sj.st_ino && si.st_dev == sj.st_dev) {
				txt_printf(stderr, "compare: %s and %s are the same directory; "
						   "name each run once\n", dirs[j], dirs[i]);
				return 2;
			}
	}
	/* BASELINE names one of the runs; it becomes that run's label. */
	long base_ix = -1;
	if (baseline) {
		char *b = trimmed(baseline);
		struct stat sb, sd;
		for (size_t i = 0; i < n && base_ix < 0; i++)
			if (!strcmp(dirs[i], b) ||
			    (!stat(dirs[i], &sd) && !stat(b, &sb) && sd.st_ino == sb.st_ino && sd.st_dev == sb.st_dev))
				base_ix = (long)i;
		free(b);
		if (base_ix < 0) {
			txt_printf(stderr, "compare: BASELINE=%s is not one of RUNS; name one of them\n", baseline);
			return 2;
		}
	}
	if (mkdir(out, 0777) && errno != EEXIST) {
		txt_printf(stderr, "compare: cannot make %s: %s\n", out, strerror(errno));
		return 1;
	}
	struct results r;
	char err[1024];
	if (results_load_many(&r, dirs, n, out, err, sizeof(err))) {
		txt_printf(stderr, "compare: %s\n", err);
		results_free(&r);
		return 1;
	}
	struct report rp;
	memset(&rp, 0, sizeof(rp));
	rp.r = &r;
	rp.baseline = base_ix >= 0 ? r.sources[base_ix].label : NULL;
	find_headline(&r, rp.baseline, &rp.fd);
	rp.ovh = calloc(1, sizeof(*rp.ovh));
	if (rp.ovh)
		overhead_compute(&r, rp.ovh);
	if (r.nexcluded) {
		size_t l = strlen(rp.fd.caveats);
		snprintf(rp.fd.caveats + l, sizeof(rp.fd.caveats) - l,
			 "%s%zu run(s) failed or were interrupted and are left out of every "
			 "statistic.", l ? " " : "", r.nexcluded);
	}
	write_charts(&rp);
	static const struct {
		const char *name;
		void (*write)(FILE *f, const struct report *rp);
	} outs[] = { { "report.txt", write_txt }, { "summary.txt", write_summary },
		     { "report.md", write_md } };
	int rc = 0;
	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		struct outfile o;
		FILE *f = out_open(&o, out, outs[i].name);
		if (f)
			outs[i].write(f, &rp);
		rc |= !f || out_commit(&o) != 0;
	}
	if (!rc)
		txt_printf(stderr, "compare: %zu runs of %zu directories in %zu cells: wrote %s/report.txt, "
			   "report.md, summary.txt, %d chart(s)\n", r.nruns, n, r.ncells, out, rp.ncharts);
	free(rp.ovh);
	results_free(&r);
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	return rc;
}
