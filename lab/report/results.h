/*
 * A results directory as the report sees it: every runs/<name>.json document,
 * grouped into cells.  A cell is one point of the matrix (tool, kernel,
 * model, page size, lock, strategy, workload, clients); its documents are
 * the repetitions the statistics run over.
 */
#ifndef PREEMPTLAB_RESULTS_H
#define PREEMPTLAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "json_read.h"

struct run {
	char *path;        /* runs/<name>.json */
	char *name;        /* <name>, also the stem of perf/<name>.folded */
	struct json_read_val *doc;
	unsigned inst;     /* RI_* (instruments.h): the instruments it carried */
	/* As measured, before any timing was set aside (NAN where absent):
	 * what the overhead table pairs (overhead.c). */
	double tps_raw, fill_tps_raw;
	int timed_by_twin; /* its timings set aside: its cell has bare runs */
};

struct cell {
	/* The identity of the cell. */
	const char *tool, *kernel_label, *kernel_release, *model;
	long page_kb;
	const char *lock, *strategy, *workload;
	const char *mitigation;  /* config.mitigation; "none" before issue 26 */
	long clients;
	const char *source; /* make compare: the label of the run it came from */
	/* Derived. */
	char variant[160];  /* "kernel_label/model", how people name it; under
			     * make compare "kernel/model/host" */
	char group[200];    /* what a comparison holds constant */
	int id;             /* C1, C2, ... in sort order */
	struct run **runs;
	size_t nruns;
};

/* make compare: one of the run directories compared. */
struct source {
	char *dir;
	char *label;              /* the machine's name, made unique */
	struct json_read_val *manifest;  /* its manifest.json, or NULL */
};

struct results {
	char *dir;                /* the run, or make compare's output */
	struct run *runs;
	size_t nruns;
	struct cell *cells;
	size_t ncells;
	struct json_read_val *manifest;  /* manifest.json, or NULL */
	size_t skipped;           /* documents that could not be used */
	char **excluded;          /* "NAME: why" of failed or interrupted runs */
	size_t nexcluded;
	char **refused;           /* "NAME: why" of runs whose timings are not compared */
	size_t nrefused;
	/* Issue 24: instrumented runs whose cell's timings come from bare twins,
	 * instrumented runs with no bare run in their cell, bare runs, and
	 * SCENARIO=overhead's warm-up runs (a boot's first: not compared). */
	size_t ntwinned, nuntwinned, nbare, nwarm;
	struct source *sources;   /* make compare only; NULL for one run */
	size_t nsources;
};

/*
 * Load dir/runs/<name>.json and dir/manifest.json.  Documents that do not parse
 * or lack the fields of docs/json.md are reported on stderr and skipped;
 * runs that failed or were interrupted (results.error, results.interrupted,
 * complete false) are left out of every cell and listed in excluded.
 * Returns -1 with a one-line message in err when nothing usable is there.
 */
int results_load(struct results *r, const char *dir, char *err, size_t errlen);
void results_free(struct results *r);
/*
 * make compare: the runs of several directories as one set of cells, each
 * cell also keyed by its run's label (its machine's name; the directory
 * name added where one machine ran the same kernel twice), written to out.
 */
int results_load_many(struct results *r, char **dirs, size_t n, const char *out, char *err,
		      size_t errlen);

/* Sort order of mitigations: the vocabulary's, none first. */
int mitigation_rank(const char *m);
/* Sort order of preemption models, least preemptible first. */
int model_rank(const char *model);
/* Compare variants: kernel label (version order), model, release. */
int variant_cmp(const struct cell *a, const struct cell *b);

/*
 * The fields cells are ordered by, each in the vocabulary's order (models
 * least preemptible first, locks, strategies and workloads as
 * buffer_pool/vocab.c lists them, names outside it after, by name),
 * kernels by version.  Every listing takes its precedence of fields from
 * here: results_load's (tool, group, variant), the summary's (kernel
 * first).
 */
enum cell_key { CK_END, CK_TOOL, CK_WORKLOAD, CK_LOCK, CK_STRATEGY, CK_MITIGATION, CK_PAGE_KB,
		CK_CLIENTS, CK_KERNEL, CK_MODEL, CK_RELEASE };
int cell_order_cmp(const struct cell *a, const struct cell *b, const enum cell_key *keys);

/* The median of a number over the cell's runs (those that have it): one
 * run slowed by the machine's load does not move it.  False when none has. */
bool cell_median(const struct cell *c, const char *path, double *out);

/* "4 KB", "2 MB", "1 GB". */
const char *page_name(long kb, char *buf, size_t len);

/* A run document made under an emulator (QEMU TCG, with or without
 * icount): provenance.emulated, or for documents from before that field
 * a virtualization that starts with "tcg", which is how it is set. */
int doc_emulated(const struct json_read_val *d);

#endif
