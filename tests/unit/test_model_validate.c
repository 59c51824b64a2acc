/*
 * build/model --validate (lab/model/validate.c): predictions written before
 * a run against what it measured, on an EVIDENCE run (tests/data/run-model:
 * 6.12, icount, 21 clients, 4 KB, none and full, 3 runs each) and on the
 * same documents without their evidence (run-model-bare, made with
 * `jq 'del(.evidence)'`), as a bare leave-out grid is measured.  The
 * measured full/none ratio, 0.9935, is the ratio of the geometric means of
 * the documents' fill tps (none 6951.67 7036.73 7004.94, full 6949.11
 * 6978.68 6929.72), computed by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/extract.h"
#include "model/validate.h"

#define DATA PREEMPTLAB_TOP "/tests/data/"

static char tsv[] = "/tmp/preemptlab-validate-XXXXXX";

/* A predictions file as build/predict --predictions writes it (scripts/model-validate.sh predict). */
static void write_predictions(double full_ratio, double p_f)
{
	FILE *f = fopen(tsv, "w");
	fprintf(f, "# written 2026-01-01T00:00:00Z, lab test, before any run in RUN\n"
		   "pages\tclients\tmodel\tpredicted\tlo\thi\tp_f\tt_us\tcpus\n"
		   "4k\t21\tfull\t%.4f\t%.4f\t%.4f\t%.6f\t5000\t2\n",
		full_ratio, full_ratio - 0.01, full_ratio + 0.01, p_f);
	fclose(f);
}

/* mv_validate's text, in buf. */
static int validate(const char *run, char *buf, size_t len)
{
	char err[1024] = "";
	FILE *out = fmemopen(buf, len, "w");
	int rc = mv_validate(tsv, run, out, err, sizeof(err));
	fclose(out);
	return rc;
}

static void test_scan_timed(void)
{
	static struct extract_set s;
	char err[1024] = "";
	int rc = extract_scan(DATA "run-model-bare", &s, err, sizeof(err));
	CHECK(rc == MX_ERR && strstr(err, "EVIDENCE"), "make model still refuses a bare run: %s", err);

	rc = extract_scan_timed(DATA "run-model-bare", &s, err, sizeof(err));
	CHECK(rc == MX_OK && s.ngroups == 1 && s.bare == 6, "a bare run's 6 documents count for their times (rc %d, %d groups, %d bare)",
	      rc, s.ngroups, s.bare);
	if (rc != MX_OK || s.ngroups != 1)
		return;
	const struct extract_group *g = &s.g[0];
	CHECK(g->ntps[PM_NONE] == 3 && g->ntps[PM_FULL] == 3 && fabs(g->tps[PM_NONE][0] - 6951.67) < 0.01,
	      "3 none and 3 full fill tps, from the documents (first none %.2f)", g->tps[PM_NONE][0]);
	CHECK(g->holds == 0 && g->qn[PM_FULL] == 0 && g->nt == 0,
	      "and no counts: holds %.0f, q_full n %.0f, T runs %d", g->holds, g->qn[PM_FULL], g->nt);

	rc = extract_scan_timed(DATA "run-model", &s, err, sizeof(err));
	CHECK(rc == MX_OK && s.bare == 0 && s.g[0].holds == 49152,
	      "an EVIDENCE run is read as make model reads it (bare %d, holds %.0f)", s.bare, s.g[0].holds);
	rc = extract_scan_timed(DATA "run-model-inhold", &s, err, sizeof(err));
	CHECK(rc == MX_IN_HOLD, "an in-hold run is still refused (rc %d)", rc);
}

static void test_validate(void)
{
	static char buf[8192];
	int fd = mkstemp(tsv);
	if (fd < 0) {
		CHECK(0, "mkstemp");
		return;
	}
	close(fd);

	write_predictions(0.995, 0.0175);
	int rc = validate(DATA "run-model-bare", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, "0.994") && strstr(buf, " hit ") &&
		      strstr(buf, "1 of 1 cells") && strstr(buf, "p_f within 20%: 0 of 0") &&
		      strstr(buf, "6 runs without EVIDENCE"),
	      "bare: measured 0.994, a hit, p_f not judged:\n%s", buf);

	/* 0.994 [0.981, 1.006] lies inside 0.995 +- 0.02: equivalent at the fixed margin. */
	CHECK(strstr(buf, " yes\n") && strstr(buf, "within +-0.02 (the measured 95% interval inside): 1/1 cells"),
	      "bare: the measured interval inside the prediction +- 0.02: equivalent");

	write_predictions(0.90, 0.0175);
	rc = validate(DATA "run-model-bare", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, " miss ") && strstr(buf, "0 of 1 cells"),
	      "bare: a prediction 9 points off is a miss:\n%s", buf);
	CHECK(strstr(buf, " no\n") && strstr(buf, "interval inside): 0/1 cells"), "and not equivalent");
	/* 0.985 +- 0.02 = [0.965, 1.005]: the interval's top, 1.006, is outside. */
	write_predictions(0.985, 0.0175);
	rc = validate(DATA "run-model-bare", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, " hit ") && strstr(buf, "interval inside): 0/1 cells"),
	      "0.985: a hit within the old tolerance, but its measured interval reaches 1.006: not equivalent");

	/* run-model's fill p_f is 862 / 49152 = 0.01754. */
	write_predictions(0.995, 0.0175);
	rc = validate(DATA "run-model", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, "p_f within 20%: 1 of 1") && !strstr(buf, "without EVIDENCE"),
	      "evidence: p_f judged (0.0175 against 0.01754):\n%s", buf);
	write_predictions(0.995, 0.03);
	rc = validate(DATA "run-model", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, "p_f within 20%: 0 of 1"), "evidence: p_f 0.03 is a miss:\n%s", buf);
	unlink(tsv);
}

/*
 * Skill against the null "1.000x" (issue 37): the null scores exactly 0, a
 * model that tracks the measured effects beats it, one that predicts
 * effects that are not there loses to it.
 */
static void test_skill(void)
{
	/* Measured ratios of a grid: losses growing with the clients, one gain. */
	double meas[] = { 0.994, 0.990, 0.977, 0.924, 0.941, 1.036, 0.958, 0.969 };
	double tol[] = { 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03 };
	int n = 8;
	double null[8], good[8], bad[8];
	for (int i = 0; i < n; i++) {
		null[i] = 1;
		/* Tracks the losses (within 0.01 of each). */
		good[i] = meas[i] + (i % 2 ? 0.008 : -0.008);
		/* Predicts effects of 10 points where the cells measured a few. */
		bad[i] = 2 - meas[i] - 0.1;
	}
	struct mv_skill k;
	mv_skill(null, meas, tol, n, 1, &k);
	CHECK(k.skill == 0 && k.lo == 0 && k.hi == 0 && !k.beats && k.tests == 0,
	      "the null predictor scores 0 [%.3f, %.3f], tests nothing, does not count", k.lo, k.hi);
	double sn = 0, sm = 0;
	int tests = 0;
	for (int i = 0; i < n; i++) {
		tests += fabs(good[i] - 1) > tol[i];
		sn += (meas[i] - 1) * (meas[i] - 1);
		sm += (meas[i] - good[i]) * (meas[i] - good[i]);
	}
	mv_skill(good, meas, tol, n, 1, &k);
	CHECK(fabs(k.skill - (1 - sm / sn)) < 1e-12 && k.skill > 0.9 && k.lo > 0 && k.beats && k.tests == tests && tests > 0,
	      "a model within 0.008 of each cell: skill %.3f = 1 - %.5f/%.5f by hand, [%.3f, %.3f], "
	      "%d cells test it: counts", k.skill, sm, sn, k.lo, k.hi, k.tests);
	mv_skill(bad, meas, tol, n, 1, &k);
	CHECK(k.skill < 0 && k.lo < 0 && !k.beats, "a model predicting effects not measured: skill %.2f [%.2f, %.2f], "
	      "does not count", k.skill, k.lo, k.hi);
	struct mv_skill k2;
	mv_skill(bad, meas, tol, n, 1, &k2);
	CHECK(k2.lo == k.lo && k2.hi == k.hi, "the bootstrap is seeded: the same interval twice");

	/* The committed 7.2-lab grid: the SSE 0.1089 (model) against 0.1062 (null). */
	static double p[MV_MAX_CELLS], m[MV_MAX_CELLS], t[MV_MAX_CELLS];
	char err[256] = "";
	int got = mv_read_table(PREEMPTLAB_TOP "/docs/model/validation-72lab/validation.txt", p, m, t,
				MV_MAX_CELLS, err, sizeof(err));
	mv_skill(p, m, t, got > 0 ? got : 0, 37, &k);
	CHECK(got == 24 && fabs(k.sse_model - 0.1089) < 5e-5 && fabs(k.sse_null - 0.1062) < 5e-5 && k.skill < 0 &&
		      !k.beats && k.tests == 0,
	      "validation-72lab: %d cells, SSE model %.4f, null %.4f: skill %.3f [%.3f, %.3f], no cell a test %s",
	      got, k.sse_model, k.sse_null, k.skill, k.lo, k.hi, err);
	got = mv_read_table(PREEMPTLAB_TOP "/docs/model/validation-612-c256/validation.txt", p, m, t,
			    MV_MAX_CELLS, err, sizeof(err));
	CHECK(got == -1 && strstr(err, "no measured cells"), "a table with no measured cell: %s", err);
}

int main(void)
{
	test_scan_timed();
	test_validate();
	test_skill();
	return CHECK_DONE();
}
