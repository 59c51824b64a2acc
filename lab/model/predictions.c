#include "predictions.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "inputs.h"
#include "prerun.h"
#include "tsv_table.h"

#define MAX_MODELS 16

static int say(int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("predict: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return rc;
}

/* Digits only, no sign, no leading zero: what a page count or a size is written as. */
static int whole(const char *s, long min, long max, long *out)
{
	size_t n = strspn(s, "0123456789");
	if (n == 0 || n > 9 || s[n] || s[0] == '0')
		return -1;
	long v = strtol(s, NULL, 10);
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pred_whole(const char *opt, const char *value, long min, long max, const char *what, long *out,
	       char *err, size_t errlen)
{
	if (whole(value, min, max, out) == 0)
		return 0;
	snprintf(err, errlen, "%s %s: expected %s, %ld to %ld", opt, value, what, min, max);
	return -1;
}

int pred_cell_parse(const char *s, int default_cpus, struct pred_cell *c, char *err, size_t errlen)
{
	size_t np = strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz");
	const char *rest = s + np;
	char num[16];
	long clients, cpus = default_cpus;
	size_t nc = rest[0] == ':' ? strcspn(rest + 1, ":") : 0;
	if (np == 0 || np >= sizeof(c->pages) || nc == 0 || nc >= sizeof(num)) {
		snprintf(err, errlen, "%s: not PAGES:CLIENTS[:CPUS]", s);
		return -1;
	}
	memcpy(num, rest + 1, nc);
	num[nc] = '\0';
	rest += 1 + nc;
	/* The limits are build/predict's --clients and --cpus. */
	if (whole(num, 1, 100000, &clients) != 0 || (*rest && whole(rest + 1, 1, 4096, &cpus) != 0)) {
		snprintf(err, errlen, "%s: not PAGES:CLIENTS[:CPUS] (clients 1 to 100000, CPUs 1 to 4096)", s);
		return -1;
	}
	if (cpus < 1) {
		snprintf(err, errlen, "%s: the inputs give no CPU count: write PAGES:CLIENTS:CPUS", s);
		return -1;
	}
	memcpy(c->pages, s, np);
	c->pages[np] = '\0';
	c->clients = (int)clients;
	c->cpus = (int)cpus;
	return 0;
}

/* MODELS' comma list into OUT (enum pmodel); the count, or -1 said. */
static int parse_models(const char *models, int *out)
{
	char copy[256];
	int n = 0;
	if (snprintf(copy, sizeof(copy), "%s", models) >= (int)sizeof(copy))
		return say(-1, "MODELS %s: too long", models);
	for (char *save = NULL, *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		enum pmodel pm;
		if (pmodel_parse(m, &pm) != 0)
			return say(-1, "model %s: none, voluntary, full or lazy", m);
		if (n == MAX_MODELS)
			return say(-1, "MODELS %s: more than %d", models, MAX_MODELS);
		out[n++] = (int)pm;
	}
	if (n == 0)
		return say(-1, "MODELS '%s': no model", models);
	return n;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The cells, each checked before a byte is written; NULL said. */
static struct pred_cell *parse_cells(const char *inputs, const char *const *cells, int ncells)
{
	static struct model_inputs in;
	char err[1024];
	if (!inputs_read(inputs, &in, err, sizeof(err))) {
		say(2, "%s", err);
		return NULL;
	}
	struct pred_cell *c = calloc((size_t)ncells, sizeof(*c));
	for (int i = 0; c && i < ncells; i++)
		if (pred_cell_parse(cells[i], in.cpus, &c[i], err, sizeof(err)) != 0) {
			say(1, "%s", err);
			free(c);
			return NULL;
		}
	return c;
}

/* The rows, one a cell and model, each as build/predict --tsv computes it. */
static int write_rows(FILE *f, const char *out, const char *inputs, const char *const *cells,
		      const struct pred_cell *c, int ncells, const int *model, int nm,
		      const struct pred_knobs *k, pred_fn fn)
{
	for (int i = 0; i < ncells; i++)
		for (int m = 0; m < nm; m++) {
			struct pred_row r;
			if (fn(inputs, &c[i], model[m], k, &r) != 0)
				return say(1, "refused cell %s, model %s; %s is incomplete", cells[i],
					   pmodel_name(model[m]), out);
			fprintf(f, "%s\t%d\t%s\t" PRED_NUMS "\t%d\n", c[i].pages, c[i].clients,
				pmodel_name(model[m]), r.ratio, r.lo, r.hi, r.p_f, r.t_us, c[i].cpus);
			/* What was predicted stays, should a later cell be refused. */
			fflush(f);
		}
	return 0;
}

int pred_write(const char *rev, const char *inputs, const char *run, const char *models,
	       const char *const *cells, int ncells, const struct pred_knobs *k, pred_fn fn)
{
	char err[1024], out[4096];
	int model[MAX_MODELS], nm;
	if (!is_file(inputs))
		return say(1, "%s: no such inputs file", inputs);
	if (prerun_fresh(run, err, sizeof(err)) != 0)
		return say(1, "%s", err);
	if ((nm = parse_models(models, model)) < 0)
		return 2;
	struct pred_cell *c = parse_cells(inputs, cells, ncells);
	if (!c)
		return 1;
	snprintf(out, sizeof(out), "%s/predictions.tsv", run);
	FILE *f = NULL;
	int rc = 1;
	if (prerun_mkdir(run, err, sizeof(err)) != 0) {
		say(1, "%s", err);
		goto done;
	}
	if (!(f = fopen(out, "w"))) {
		say(1, "%s: cannot write", out);
		goto done;
	}
	if (prerun_header(f, time(NULL), rev, run, "inputs", inputs, err, sizeof(err)) != 0) {
		say(1, "%s", err);
		goto done;
	}
	fprintf(f, "# build/predict --inputs INPUTS --cpus C --clients N --extrapolate --pages P --model M");
	if (k->fa_pages)
		fprintf(f, " --fault-around-pages %d", k->fa_pages);
	if (k->slice_us)
		fprintf(f, " --base-slice-us %ld", k->slice_us);
	fprintf(f, "\npages\tclients\tmodel\tpredicted\tlo\thi\tp_f\tt_us\tcpus\n");
	if ((rc = write_rows(f, out, inputs, cells, c, ncells, model, nm, k, fn)) == 0)
		printf("preemptlab: predictions in %s\n", out);
done:
	if (f && fclose(f) != 0 && rc == 0)
		rc = say(1, "%s: write failed", out);
	free(c);
	return rc;
}

/* The grid's columns, by name. */
enum { G_RUN, G_CELL, G_MODELS, G_BENCH, G_COLS };
static const char *const grid_col[G_COLS] = { "run", "cell", "models", "bench" };

/* RUN's first row at or after ROW, or -1. */
static int row_of(const struct tsv_table *t, const int *col, const char *run, int row)
{
	for (; row < t->nrows; row++)
		if (strcmp(tsv_table_get(t, row, col[G_RUN]), run) == 0)
			return row;
	return -1;
}

/* The grid's run R (its first row): its predictions, then the command that measures them. */
static int grid_run(const struct tsv_table *t, const int *col, int r, const char *rev, const char *inputs,
		    const char *base, pred_fn fn)
{
	const char *name = tsv_table_get(t, r, col[G_RUN]);
	const char **cells = calloc((size_t)t->nrows, sizeof(*cells));
	char run[4096], cmd[4200];
	int n = 0;
	if (!cells)
		return say(1, "out of memory");
	for (int row = r; (row = row_of(t, col, name, row)) >= 0; row++)
		cells[n++] = tsv_table_get(t, row, col[G_CELL]);
	snprintf(run, sizeof(run), "%s-%s", base, name);
	const struct pred_knobs k = { 0, 0 };
	int rc = pred_write(rev, inputs, run, tsv_table_get(t, r, col[G_MODELS]), cells, n, &k, fn);
	free(cells);
	if (rc)
		return rc;
	snprintf(cmd, sizeof(cmd), "%s/bench-command.txt", run);
	FILE *f = fopen(cmd, "w");
	if (!f)
		return say(1, "%s: cannot write", cmd);
	prerun_grid_command(f, time(NULL), tsv_table_get(t, r, col[G_BENCH]), run);
	if (fclose(f) != 0)
		return say(1, "%s: write failed", cmd);
	printf("preemptlab: measure with %s\n", cmd);
	return 0;
}

int pred_grid(FILE *table, const char *rev, const char *inputs, const char *base, pred_fn fn)
{
	struct tsv_table t;
	char err[1024], run[4096];
	int col[G_COLS], rc = 0;
	if (tsv_table_read(table, &t, err, sizeof(err)) != 0)
		return say(1, "build/plan --validation-grid: %s", err);
	for (int i = 0; i < G_COLS; i++)
		if ((col[i] = tsv_table_col(&t, grid_col[i], err, sizeof(err))) < 0) {
			tsv_table_free(&t);
			return say(1, "build/plan --validation-grid: %s", err);
		}
	if (!is_file(inputs))
		rc = say(1, "%s: no such inputs file", inputs);
	/* Every run checked before any is written: no half-rewritten grid. */
	for (int r = 0; !rc && r < t.nrows; r++) {
		snprintf(run, sizeof(run), "%s-%s", base, tsv_table_get(&t, r, col[G_RUN]));
		if (prerun_fresh(run, err, sizeof(err)) != 0)
			rc = say(1, "%s", err);
	}
	for (int r = 0; !rc && r < t.nrows; r++)
		if (row_of(&t, col, tsv_table_get(&t, r, col[G_RUN]), 0) == r)
			rc = grid_run(&t, col, r, rev, inputs, base, fn);
	tsv_table_free(&t);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: predict --predictions --lab-revision REV [--fault-around-pages F] "
			"[--base-slice-us U] INPUTS RUN MODELS PAGES:CLIENTS[:CPUS]...\n"
			"       predict --predictions-grid --lab-revision REV INPUTS RUNBASE "
			"< (build/plan --validation-grid's table)\n");
	return 2;
}

int pred_main(int argc, char **argv, pred_fn fn)
{
	int grid = strcmp(argv[1], "--predictions-grid") == 0, i = 2;
	const char *rev = NULL;
	struct pred_knobs k = { 0, 0 };
	char err[512];
	long v;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		const char *val = i + 1 < argc ? argv[i + 1] : "";
		if (strcmp(argv[i], "--lab-revision") == 0 && i + 1 < argc) {
			rev = val;
		} else if (!grid && strcmp(argv[i], "--fault-around-pages") == 0) {
			/* build/predict's own limits, checked before predictions.tsv is begun. */
			if (pred_whole(argv[i], val, 1, 512, "a page count", &v, err, sizeof(err)) != 0)
				return say(1, "%s", err);
			k.fa_pages = (int)v;
		} else if (!grid && strcmp(argv[i], "--base-slice-us") == 0) {
			if (pred_whole(argv[i], val, 100, 100000, "microseconds", &v, err, sizeof(err)) != 0)
				return say(1, "%s", err);
			k.slice_us = v;
		} else {
			return usage();
		}
	}
	if (!rev || (grid ? argc - i != 2 : argc - i < 4))
		return usage();
	if (grid)
		return pred_grid(stdin, rev, argv[i], argv[i + 1], fn);
	return pred_write(rev, argv[i], argv[i + 1], argv[i + 2], (const char *const *)argv + i + 3,
			  argc - i - 3, &k, fn);
}
