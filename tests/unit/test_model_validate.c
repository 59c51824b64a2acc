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

/* A predictions file as scripts/model-validate.sh writes it. */
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
	static struct mx_set s;
	char err[1024] = "";
	int rc = mx_scan(DATA "run-model-bare", &s, err, sizeof(err));
	CHECK(rc == MX_ERR && strstr(err, "EVIDENCE"), "make model still refuses a bare run: %s", err);

	rc = mx_scan_timed(DATA "run-model-bare", &s, err, sizeof(err));
	CHECK(rc == MX_OK && s.ngroups == 1 && s.bare == 6, "a bare run's 6 documents count for their times (rc %d, %d groups, %d bare)",
	      rc, s.ngroups, s.bare);
	if (rc != MX_OK || s.ngroups != 1)
		return;
	const struct mx_group *g = &s.g[0];
	CHECK(g->ntps[PM_NONE] == 3 && g->ntps[PM_FULL] == 3 && fabs(g->tps[PM_NONE][0] - 6951.67) < 0.01,
	      "3 none and 3 full fill tps, from the documents (first none %.2f)", g->tps[PM_NONE][0]);
	CHECK(g->holds == 0 && g->qn[PM_FULL] == 0 && g->nt == 0,
	      "and no counts: holds %.0f, q_full n %.0f, T runs %d", g->holds, g->qn[PM_FULL], g->nt);

	rc = mx_scan_timed(DATA "run-model", &s, err, sizeof(err));
	CHECK(rc == MX_OK && s.bare == 0 && s.g[0].holds == 49152,
	      "an EVIDENCE run is read as make model reads it (bare %d, holds %.0f)", s.bare, s.g[0].holds);
	rc = mx_scan_timed(DATA "run-model-inhold", &s, err, sizeof(err));
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

	write_predictions(0.90, 0.0175);
	rc = validate(DATA "run-model-bare", buf, sizeof(buf));
	CHECK(rc == MX_OK && strstr(buf, " miss ") && strstr(buf, "0 of 1 cells"),
	      "bare: a prediction 9 points off is a miss:\n%s", buf);

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

int main(void)
{
	test_scan_timed();
	test_validate();
	return CHECK_DONE();
}
