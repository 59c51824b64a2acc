/*
 * lab/model/predictions.c: build/predict --predictions and
 * --predictions-grid with a stand-in predictor (the closed form's own
 * numbers are test_model_closed's and tests/e2e/model_extract.sh's):
 * the cell syntax and option limits, the file's header and rows as
 * build/model --validate reads them, a refusal mid-file, and a grid
 * refused whole when one of its runs is measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "model/predictions.h"
#include "model/sha256.h"

/* make model's inputs, measured at 2 CPUs (the default CPU count). */
#define INPUTS PREEMPTLAB_TOP "/docs/model/calibrated-72lab-4k-c21-twins.json"

static int calls;

/* A row from the cell itself, so that each row shows which cell and model made it; 9m refused. */
static int fake(const char *path, const struct pred_cell *c, int model, const struct pred_knobs *k,
		struct pred_row *out)
{
	(void)path;
	calls++;
	if (!strcmp(c->pages, "9m")) {
		fprintf(stderr, "predict: --extrapolate: page size 4k or 9m: no fault window known\n");
		return 2;
	}
	*out = (struct pred_row){ 1 - 0.001 * model, 0.99, 1.0049, 0.0181149 + k->fa_pages, 5019.4 + k->slice_us };
	return 0;
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	return buf;
}

/* FILE's text after its first line (the one with the time). */
static const char *after_first(const char *path)
{
	const char *s = slurp(path);
	return s && strchr(s, '\n') ? strchr(s, '\n') + 1 : "";
}

static void test_cells(void)
{
	struct pred_cell c;
	char err[256] = "";
	CHECK(pred_cell_parse("4k:64", 2, &c, err, sizeof(err)) == 0 && !strcmp(c.pages, "4k") && c.clients == 64 &&
		      c.cpus == 2,
	      "4k:64: the inputs' CPUs");
	CHECK(pred_cell_parse("2m:21:1", 2, &c, err, sizeof(err)) == 0 && !strcmp(c.pages, "2m") && c.clients == 21 &&
		      c.cpus == 1,
	      "2m:21:1: its own");
	const char *bad[] = { "4k", "4k:", ":21", "4k::1", "4k:21:", "4K:21", "4k:21:1:1", "4k:0", "4k:021",
			      "4k:x", "4k:21:5000", "4k:100001", "4k:-1", "4k 21" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = pred_cell_parse(bad[i], 2, &c, err, sizeof(err));
		CHECK(rc == -1 && strstr(err, "not PAGES:CLIENTS[:CPUS]") && !strncmp(err, bad[i], strlen(bad[i])),
		      "'%s' refused: %s", bad[i], err);
	}
	CHECK(pred_cell_parse("4k:21", 0, &c, err, sizeof(err)) == -1 && strstr(err, "write PAGES:CLIENTS:CPUS"),
	      "no CPUs in the cell or the inputs: %s", err);
	long v;
	CHECK(pred_whole("--base-slice-us", "50", 100, 100000, "microseconds", &v, err, sizeof(err)) == -1 &&
		      !strcmp(err, "--base-slice-us 50: expected microseconds, 100 to 100000"),
	      "below the range: %s", err);
	CHECK(pred_whole("--fault-around-pages", "", 1, 512, "a page count", &v, err, sizeof(err)) == -1 &&
		      !strcmp(err, "--fault-around-pages : expected a page count, 1 to 512"),
	      "no value: %s", err);
	const char *notwhole[] = { "016", "+16", "16 ", "1e2", "99999999999" };
	for (size_t i = 0; i < sizeof(notwhole) / sizeof(notwhole[0]); i++)
		CHECK(pred_whole("--fault-around-pages", notwhole[i], 1, 512, "a page count", &v, err, sizeof(err)) == -1,
		      "'%s' is not a whole number as written", notwhole[i]);
	CHECK(pred_whole("--fault-around-pages", "512", 1, 512, "a page count", &v, err, sizeof(err)) == 0 && v == 512,
	      "the top of the range");
}

static int predict(char *const *argv)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	return pred_main(argc, (char **)argv, fake);
}

static void test_write(const char *dir)
{
	char run[512], file[600], runs[600];
	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(file, sizeof(file), "%s/predictions.tsv", run);
	char *ok[] = { "predict", "--predictions", "--lab-revision", "rev1", "--fault-around-pages", "4",
		       "--base-slice-us", "8000", INPUTS, run, "full,lazy", "4k:21", "2m:64:1", NULL };
	int rc = predict(ok);
	/* The checksum's own test is test_model_prerun's. */
	char hex[65], want[1024];
	sha256_file(INPUTS, hex);
	snprintf(want, sizeof(want), "# inputs " INPUTS " sha256 %s\n"
		 "# build/predict --inputs INPUTS --cpus C --clients N --extrapolate --pages P --model M "
		 "--fault-around-pages 4 --base-slice-us 8000\n"
		 "pages\tclients\tmodel\tpredicted\tlo\thi\tp_f\tt_us\tcpus\n"
		 "4k\t21\tfull\t0.998\t0.990\t1.005\t4.018\t13019\t2\n"
		 "4k\t21\tlazy\t0.997\t0.990\t1.005\t4.018\t13019\t2\n"
		 "2m\t64\tfull\t0.998\t0.990\t1.005\t4.018\t13019\t1\n"
		 "2m\t64\tlazy\t0.997\t0.990\t1.005\t4.018\t13019\t1\n", hex);
	const char *got = after_first(file);
	CHECK(rc == 0 && !strcmp(got, want), "predictions.tsv: the checksum, the command, the columns, a row a cell "
					       "and model in order (rc %d)", rc);
	CHECK(!strncmp(slurp(file), "# written 20", 12) && strstr(slurp(file), "Z, lab rev1, before any run in ") &&
		      strstr(slurp(file), "/run\n"),
	      "its first line dates it and names the revision and the run");

	snprintf(run, sizeof(run), "%s/half", dir);
	snprintf(file, sizeof(file), "%s/predictions.tsv", run);
	char *half[] = { "predict", "--predictions", "--lab-revision", "r", INPUTS, run, "full", "4k:21", "9m:21", "4k:8",
			 NULL };
	calls = 0;
	rc = predict(half);
	got = after_first(file);
	CHECK(rc == 1 && strstr(got, "4k\t21\tfull\t") && !strstr(got, "9m") && !strstr(got, "4k\t8\t") && calls == 2,
	      "a refused cell stops the file after the rows before it (rc %d, %d predictions)", rc, calls);

	struct {
		const char *what, *model, *cell, *opt, *val;
	} refused[] = {
		{ "a malformed cell", "full", "4k", "--lab-revision", "r" },
		{ "a model not known", "full,fast", "4k:21", "--lab-revision", "r" },
		{ "a base slice out of range", "full", "4k:21", "--base-slice-us", "50" },
		{ "a fault-around out of range", "full", "4k:21", "--fault-around-pages", "513" },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(run, sizeof(run), "%s/refused%zu", dir, i);
		char *argv[] = { "predict", "--predictions", "--lab-revision", "r", (char *)refused[i].opt,
				 (char *)refused[i].val, INPUTS, run, (char *)refused[i].model, "4k:21",
				 (char *)refused[i].cell, NULL };
		calls = 0;
		rc = predict(argv);
		struct stat st;
		CHECK(rc != 0 && calls == 0 && stat(run, &st) != 0, "%s: refused before anything is written (rc %d)",
		      refused[i].what, rc);
	}
	snprintf(run, sizeof(run), "%s/measured", dir);
	snprintf(runs, sizeof(runs), "%s/measured/runs", dir);
	mkdir(run, 0777);
	mkdir(runs, 0777);
	snprintf(file, sizeof(file), "%s/measured/runs/x.json", dir);
	fclose(fopen(file, "w"));
	char *measured[] = { "predict", "--predictions", "--lab-revision", "r", INPUTS, run, "full", "4k:21", NULL };
	calls = 0;
	rc = predict(measured);
	snprintf(file, sizeof(file), "%s/predictions.tsv", run);
	struct stat st;
	CHECK(rc == 1 && calls == 0 && stat(file, &st) != 0, "a measured run is refused");
	char *missing[] = { "predict", "--predictions", INPUTS, run, "full", "4k:21", NULL };
	char *few[] = { "predict", "--predictions", "--lab-revision", "r", INPUTS, run, "full", NULL };
	CHECK(predict(missing) == 2 && predict(few) == 2, "no --lab-revision, or no cell: the usage (exit 2)");
}

static void test_grid(const char *dir)
{
	static const char table[] =
		"run\tcpus\tpages\tclients\tcell\tmodels\tbench\n"
		"v1\t1\t4k\t8\t4k:8:1\tfull\tKERNEL=k VCPUS=1\n"
		"v1\t1\t2m\t8\t2m:8:1\tfull\tKERNEL=k VCPUS=1\n"
		"v2\t2\t4k\t8\t4k:8:2\tfull,lazy\tKERNEL=k VCPUS=2\n";
	char base[512], path[600];
	snprintf(base, sizeof(base), "%s/grid", dir);
	/* v2 measured already. */
	snprintf(path, sizeof(path), "%s/grid-v2", dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/grid-v2/runs", dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/grid-v2/runs/x.json", dir);
	fclose(fopen(path, "w"));
	FILE *f = fmemopen((void *)table, strlen(table), "r");
	calls = 0;
	int rc = pred_grid(f, "r", INPUTS, base, fake);
	fclose(f);
	snprintf(path, sizeof(path), "%s/grid-v1", dir);
	struct stat st;
	CHECK(rc == 1 && calls == 0 && stat(path, &st) != 0, "one run measured: neither is written (rc %d)", rc);
	snprintf(path, sizeof(path), "rm -rf '%s/grid-v2'", dir);
	if (system(path) != 0)
		return;
	f = fmemopen((void *)table, strlen(table), "r");
	rc = pred_grid(f, "r", INPUTS, base, fake);
	fclose(f);
	snprintf(path, sizeof(path), "%s/grid-v1/predictions.tsv", dir);
	const char *got = after_first(path);
	CHECK(rc == 0 && strstr(got, "cpus\n4k\t8\tfull\t0.998\t0.990\t1.005\t0.01811\t5019\t1\n"
				     "2m\t8\tfull\t0.998\t0.990\t1.005\t0.01811\t5019\t1\n") &&
		      !strstr(got, "--fault-around-pages"),
	      "run v1: its two cells for its model");
	snprintf(path, sizeof(path), "%s/grid-v2/predictions.tsv", dir);
	got = after_first(path);
	CHECK(strstr(got, "cpus\n4k\t8\tfull\t0.998\t0.990\t1.005\t0.01811\t5019\t2\n"
			  "4k\t8\tlazy\t0.997\t0.990\t1.005\t0.01811\t5019\t2\n"),
	      "run v2: its cell for each of its models");
	snprintf(path, sizeof(path), "%s/grid-v2/bench-command.txt", dir);
	got = after_first(path);
	char want[1200];
	snprintf(want, sizeof(want), "make build-all\nKERNEL=k VCPUS=2 scripts/bench.sh %s-v2\n"
				     "scripts/model-validate.sh compare %s-v2\n", base, base);
	CHECK(!strcmp(got, want) && !strncmp(slurp(path), "# Measure after the predictions above (20", 41),
	      "run v2's bench-command.txt: its bench variables into its directory");
	static const char nocell[] = "run\tmodels\tbench\nv1\tfull\tK\n";
	f = fmemopen((void *)nocell, strlen(nocell), "r");
	snprintf(base, sizeof(base), "%s/nocell", dir);
	calls = 0;
	rc = pred_grid(f, "r", INPUTS, base, fake);
	fclose(f);
	snprintf(path, sizeof(path), "%s/nocell-v1", dir);
	CHECK(rc == 1 && calls == 0 && stat(path, &st) != 0, "a table without the cell column writes nothing");
}

int main(void)
{
	char dir[] = "/tmp/preemptlab-predictions-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	test_cells();
	test_write(dir);
	test_grid(dir);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return CHECK_DONE();
}
