/*
 * lab/model/tsv_table.c and prerun.c: the planner's tables read by column
 * name, and what every file written before a run shares (the refusal of a
 * measured run, mkdir -p, the dated header with the inputs' checksum, a
 * grid run's bench-command.txt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "model/prerun.h"
#include "model/tsv_table.h"

static int table(const char *text, struct tsv_table *t, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc = tsv_table_read(f, t, err, len);
	fclose(f);
	return rc;
}

static void test_table(void)
{
	struct tsv_table t;
	char err[256] = "";
	int rc = table("run\tcell\tbench\nv1\t4k:8:1\tKERNEL=a VCPUS=1\nv2\t2m:21:2\tKERNEL=a VCPUS=2\n", &t, err,
		       sizeof(err));
	int cell = rc ? -1 : tsv_table_col(&t, "cell", err, sizeof(err));
	CHECK(rc == 0 && t.nrows == 2 && t.ncols == 3 && cell == 1 && !strcmp(tsv_table_get(&t, 1, cell), "2m:21:2") &&
		      !strcmp(tsv_table_get(&t, 0, 2), "KERNEL=a VCPUS=1"),
	      "a table's rows by column name (rc %d, %d rows, %s)", rc, t.nrows, err);
	CHECK(tsv_table_col(&t, "models", err, sizeof(err)) == -1 && !strcmp(err, "the table has no column models"),
	      "a missing column is named: %s", err);
	tsv_table_free(&t);

	rc = table("bench\tcell\trun\nKERNEL=a\t4k:8:1\tv1", &t, err, sizeof(err));
	cell = rc ? -1 : tsv_table_col(&t, "cell", err, sizeof(err));
	CHECK(rc == 0 && t.nrows == 1 && cell == 1 && !strcmp(tsv_table_get(&t, 0, tsv_table_col(&t, "run", err, 1)), "v1"),
	      "the same columns in another order, the last line without its newline, read the same");
	tsv_table_free(&t);

	rc = table("run\tcell\nv1\n", &t, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "line 2 has 1 fields, its header 2"), "a row of another width is refused: %s", err);
	rc = table("", &t, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "empty"), "an empty table (the planner failed) is refused: %s", err);
	rc = table("run\tcell\n", &t, err, sizeof(err));
	CHECK(rc == 0 && t.nrows == 0, "a header alone is a table of no rows");
	tsv_table_free(&t);
}

static void test_fresh(const char *dir)
{
	char run[512], path[600], err[1024] = "";
	snprintf(run, sizeof(run), "%s/a/b/run", dir);
	CHECK(prerun_fresh(run, err, sizeof(err)) == 0, "a run directory not yet made is fresh");
	CHECK(prerun_mkdir(run, err, sizeof(err)) == 0 && prerun_mkdir(run, err, sizeof(err)) == 0,
	      "mkdir -p makes its parents, and again is no error (%s)", err);
	snprintf(path, sizeof(path), "%s/runs", run);
	mkdir(path, 0777);
	CHECK(prerun_fresh(run, err, sizeof(err)) == 0, "an empty runs/ is fresh");
	snprintf(path, sizeof(path), "%s/runs/x.json", run);
	fclose(fopen(path, "w"));
	CHECK(prerun_fresh(run, err, sizeof(err)) == -1 && strstr(err, "/a/b/run already holds runs: a prediction must "
								  "come before the measurement"),
	      "a run holding a document is refused: %s", err);
}

static void test_header(const char *dir)
{
	/* sha256sum's of the file's bytes. */
	const char *hex = "89a283955f76292fdd2ae537dc79c0dd03d63361a178d385fa773770a7ba52ea";
	char path[512], buf[2048] = "", want[2048], err[256] = "";
	snprintf(path, sizeof(path), "%s/inputs.json", dir);
	FILE *f = fopen(path, "w");
	fputs("{\"cpus\": 2}\n", f);
	fclose(f);
	f = fmemopen(buf, sizeof(buf), "w");
	int rc = prerun_header(f, 1767225600, "abc1234-dirty", "RUN", "inputs", path, err, sizeof(err));
	fclose(f);
	snprintf(want, sizeof(want), "# written 2026-01-01T00:00:00Z, lab abc1234-dirty, before any run in RUN\n"
				     "# inputs %s sha256 %s\n", path, hex);
	CHECK(rc == 0 && !strcmp(buf, want), "the header: UTC time, revision, run, the file's sha256 (%s)", hex);
	f = fmemopen(buf, sizeof(buf), "w");
	rc = prerun_header(f, 0, "r", "RUN", "inputs", "/nonexistent/inputs.json", err, sizeof(err));
	fclose(f);
	CHECK(rc == -1 && strstr(err, "/nonexistent/inputs.json"), "an unreadable file is named: %s", err);

	f = fmemopen(buf, sizeof(buf), "w");
	prerun_grid_command(f, 1767225600, "KERNEL=7.2-lab VCPUS=1", "base-v1");
	fclose(f);
	CHECK(!strcmp(buf, "# Measure after the predictions above (2026-01-01T00:00:00Z); from the checkout:\n"
			   "make build-all\n"
			   "KERNEL=7.2-lab VCPUS=1 scripts/bench.sh base-v1\n"
			   "scripts/model-validate.sh compare base-v1\n"),
	      "a grid run's bench-command.txt: the time, make build-all, the bench and the compare");
}

int main(void)
{
	char dir[] = "/tmp/preemptlab-prerun-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	test_table();
	test_fresh(dir);
	test_header(dir);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return CHECK_DONE();
}
