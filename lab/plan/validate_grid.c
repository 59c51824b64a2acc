/*
 * The leave-out validation grid of the strategy-lock model (issue 27,
 * docs/scale.md, docs/scenarios.md "validate"): which cells are predicted
 * before they are measured, and the `make bench` variables of the run
 * that measures them.  build/predict --predictions-grid (given the table
 * by scripts/model-validate.sh grid) only writes the predictions and the
 * commands this table names.
 *
 *   build/plan --validation-grid INPUTS KERNEL [MODELS]
 *
 * prints a TAB-separated table whose first line names its columns, one
 * row a cell, in the order they are predicted:
 *
 *   run     the run directory's suffix (RUNBASE-run), one a vCPU count
 *   cpus    the run's vCPUs
 *   pages   clients   the cell
 *   cell    PAGES:CLIENTS:CPUS, as model-validate.sh predict takes it
 *   models  the models predicted against none (comma list)
 *   bench   the run's make bench variables, blank-separated
 *
 * INPUTS is a model-inputs file (make model): its pool is the grid's pool,
 * and without MODELS every model it has a q for but none is predicted.
 *
 *   build/plan --capacity-grid [KERNEL]
 *
 * the lock-capacity law's grid (issue 36, build/capacity, scripts/
 * model-validate.sh capacity), one row a hot-lock run: run (its directory
 * under RUNBASE), fault_around_bytes, fault_around_pages, icount_shift,
 * cell (FA_PAGES:SHIFT, as build/capacity takes it) and bench.
 *
 * Exit 2 with one line naming what is wrong, as the planner does.
 */
#include "validate_grid.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "plan.h"
#include "vocab.h"

/* The grid: every vCPU count x page size x client count, in this order. */
static const long grid_cpus[] = { 1, 2 };
static const char *const grid_pages[] = { "4k", "2m" };
static const long grid_clients[] = { 8, 21, 64, 256 };
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What every run of the grid holds fixed: the calibration's lock and
 * workload, one second past the fill (--steady), five runs a cell for
 * the interval, the instruments the model's q and p_f come from, and
 * icount so that guest time is the model's time.
 */
static const char fixed_head[] = "LOCKS=tas WORKLOAD=simple-update";
static const char fixed_tail[] = "STEADY=1 DURATION=30 REPEAT=5 PGBENCH=off REPRO_MIN=off "
				 "EVIDENCE=on ACCEL=icount";

/* N items joined by commas into OUT. */
static void join_longs(const long *v, size_t n, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%ld", i ? "," : "", v[i]);
}

static void join_strs(const char *const *v, size_t n, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s", i ? "," : "", v[i]);
}

/* A model name the vocabulary knows, so that nothing else reaches the table. */
static void check_model(const char *inputs, const char *m)
{
	char choices[256];
	if (!vocab_find(&vocab_models, m, NULL))
		plan_die("%s: model '%s' is not a models value; use %s", inputs, m,
			 vocab_choices(&vocab_models, choices, sizeof(choices)));
}

/* MODELS as given (each checked), or every model INPUTS has a q for but none. */
static void grid_models(const struct json_read_val *root, const char *inputs, const char *given,
			char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	if (given && *given) {
		char copy[256];
		if (strlen(given) >= sizeof(copy))
			plan_die("MODELS %s: too long", given);
		snprintf(copy, sizeof(copy), "%s", given);
		for (char *save = NULL, *m = strtok_r(copy, ",", &save); m;
		     m = strtok_r(NULL, ",", &save))
			check_model("MODELS", m);
		snprintf(out, len, "%s", given);
		return;
	}
	/* none is what the ratios are against, so it is never predicted. */
	const struct json_read_val *q = json_read_get(root, "q");
	for (size_t i = 0; q && q->type == JR_OBJ && i < q->n; i++) {
		if (strcmp(q->keys[i], "none") == 0)
			continue;
		check_model(inputs, q->keys[i]);
		if (at < len)
			at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", q->keys[i]);
	}
	if (!out[0])
		plan_die("%s has a q for none only: nothing to compare with none", inputs);
}

/* A positive whole number at KEY, or -1. */
static double whole(const struct json_read_val *root, const char *key)
{
	double x;
	if (!json_read_num(root, key, &x) || !(x >= 1 && x <= 1e15) || floor(x) != x)
		return -1;
	return x;
}

/* The kernel names a run directory and a make variable: a catalog name. */
static void check_kernel(const char *kernel)
{
	if (strspn(kernel, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
	    strlen(kernel))
		plan_die("%s: not a kernel name", kernel);
}

int validation_grid(const char *inputs, const char *kernel, const char *models)
{
	char err[512];
	check_kernel(kernel);
	struct json_read_val *root = json_read_parse_file(inputs, err, sizeof(err));
	if (!root)
		plan_die("%s", err);
	char pred[256];
	grid_models(root, inputs, models, pred, sizeof(pred));
	/*
	 * The calibration's pool (its descriptors are what faults), the
	 * relation 1.0625x of it as the calibration's 64M/68M: the fill regime.
	 */
	double pages = whole(root, "pool_pages"), block = whole(root, "block_size");
	if (pages < 0 || block < 0)
		plan_die("%s has no pool_pages and block_size (a model-inputs file from make model?)",
			 inputs);
	long pool_mb = (long)(pages * block / 1048576.0);
	long rel_mb = pool_mb + pool_mb / 16;
	json_read_free(root);

	char all_pages[64], all_clients[64];
	join_strs(grid_pages, N(grid_pages), all_pages, sizeof(all_pages));
	join_longs(grid_clients, N(grid_clients), all_clients, sizeof(all_clients));
	printf("run\tcpus\tpages\tclients\tcell\tmodels\tbench\n");
	for (size_t v = 0; v < N(grid_cpus); v++)
		for (size_t p = 0; p < N(grid_pages); p++)
			for (size_t c = 0; c < N(grid_clients); c++)
				printf("v%ld\t%ld\t%s\t%ld\t%s:%ld:%ld\t%s\tKERNEL=%s VCPUS=%ld "
				       "MODELS=none,%s PAGES=%s CLIENTS=%s %s POOL=%ldM "
				       "RELATION=%ldM %s\n",
				       grid_cpus[v], grid_cpus[v], grid_pages[p], grid_clients[c],
				       grid_pages[p], grid_clients[c], grid_cpus[v], pred, kernel,
				       grid_cpus[v], pred, all_pages, all_clients, fixed_head,
				       pool_mb, rel_mb, fixed_tail);
	return 0;
}

/*
 * The capacity grid: fault-around (one descriptor page a fault, the
 * kernel's 64 KB, 256 KB) x ICOUNT_SHIFT (0, 2, 3: the fault's cost
 * against the hold's), each a hot-lock run under none, on 7.2-lab unless
 * asked: the kernel with none and the fault-around knob.
 */
static const struct { const char *bytes; long pages; } cap_fa[] = {
	{ "4K", 1 }, { "64K", 16 }, { "256K", 64 },
};
static const long cap_shift[] = { 0, 2, 3 };

int capacity_grid(const char *kernel)
{
	if (!kernel || !*kernel)
		kernel = "7.2-lab";
	check_kernel(kernel);
	printf("run\tfault_around_bytes\tfault_around_pages\ticount_shift\tcell\tbench\n");
	for (size_t f = 0; f < N(cap_fa); f++)
		for (size_t s = 0; s < N(cap_shift); s++)
			printf("fa%ld-s%ld\t%s\t%ld\t%ld\t%ld:%ld\tKERNEL=%s MODELS=none BASELINE= "
			       "SCENARIO=hot-lock FAULT_AROUND_BYTES=%s ICOUNT_SHIFT=%ld PGBENCH=off\n",
			       cap_fa[f].pages, cap_shift[s], cap_fa[f].bytes, cap_fa[f].pages,
			       cap_shift[s], cap_fa[f].pages, cap_shift[s], kernel, cap_fa[f].bytes,
			       cap_shift[s]);
	return 0;
}
