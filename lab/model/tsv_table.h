/*
 * A TAB-separated table whose first line names its columns (build/plan
 * --validation-grid and --capacity-grid), read whole and looked up by
 * column name: a column the planner adds or moves changes nothing here.
 */
#ifndef PREEMPTLAB_MODEL_TSV_TABLE_H
#define PREEMPTLAB_MODEL_TSV_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct tsv_table {
	int ncols, nrows;
	char **field;	/* (nrows + 1) x ncols, the header's row first */
	char *text;	/* the whole input, cut at each TAB and newline */
};

/* Every line of F; 0, or -1 with ERR (no header, a row of another width). */
int tsv_table_read(FILE *f, struct tsv_table *t, char *err, size_t errlen);
/* The column named NAME, or -1 with ERR naming it. */
int tsv_table_col(const struct tsv_table *t, const char *name, char *err, size_t errlen);
/* ROW's (0 the first after the header) field in column COL. */
const char *tsv_table_get(const struct tsv_table *t, int row, int col);
void tsv_table_free(struct tsv_table *t);

#endif
