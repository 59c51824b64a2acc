/*
 * Rows of costbench's documents (logs/costbench-*.json, and the
 * constructed tests' logs/wakefault-*.json, logs/remotewake-*.json), one
 * per kernel and model, a run's boots pooled:
 * what each row starts with, and the provenance its sources line prints.
 */
#ifndef PREEMPTLAB_REPORT_DOC_ROWS_H
#define PREEMPTLAB_REPORT_DOC_ROWS_H

#include <stddef.h>

#include "json_read.h"

struct doc_row {
	char kernel[64], model[32], why[200];
	/* The first document's provenance, and its file (several: a glob). */
	char release[128], virt[32], file[160];
	double cpus, icount_shift, hz;
	int ndocs;
};

/* The row of KERNEL and MODEL among ROWS' N (each SIZE bytes), or NULL. */
struct doc_row *doc_row_named(const void *rows, size_t n, size_t size, const char *kernel,
			      const char *model);
/* The row of J's kernel and model (its provenance's), or NULL. */
struct doc_row *doc_row_find(void *rows, size_t n, size_t size, const struct json_read_val *j);
/*
 * The row of J's kernel and model in *ROWS (N rows of SIZE bytes, each
 * starting with a struct doc_row), added zeroed if new; the document
 * NAME (under logs/, of PREFIX) counted in it.  NULL when out of memory.
 */
struct doc_row *doc_row_of(void **rows, size_t *n, size_t size, const struct json_read_val *j,
			   const char *prefix, const char *name);
/* The number at PATH under V, or 0 where there is none: a count a
 * document leaves out is a count of nothing. */
double doc_num(const struct json_read_val *v, const char *path);
/* By kernel (version order), then model rank. */
int doc_row_cmp(const void *a, const void *b);
/* "KERNEL/MODEL: release, file (N documents), virt (icount shift S), N CPUs" */
void doc_row_source(const struct doc_row *d, char *buf, size_t len);

#endif
