/*
 * Which cells are compared with which.  The primary axis is the kernel or
 * preemption model (a cell against the baseline variant of its group).  A
 * cell whose group holds a single variant (a host run: one kernel, one
 * model, often "unknown") would otherwise be compared with nothing, so it
 * is compared along the axes the run did vary: page size (against the
 * smallest page, normally 4 KB) and lock (against tas), all else equal.
 */
#ifndef PREEMPTLAB_PAIRS_H
#define PREEMPTLAB_PAIRS_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

struct metric;

enum axis { AX_VARIANT, AX_PAGES, AX_LOCK };

struct pair {
	const struct cell *base, *cell;
	enum axis axis;
};

/*
 * Every comparison of one tool's cells, in cell order (variant pairs
 * first for a cell that has one).  `want` is the --baseline variant or
 * NULL.  Returns the count; *out is malloc'ed (free it).
 */
size_t pairs_for(const struct results *r, const char *tool, const char *want,
		 struct pair **out);

/* True when c takes part in no comparison of pairs[0..n). */
int cell_unpaired(const struct cell *c, const struct pair *p, size_t n);

/*
 * The per-cell tables of both tools, as report.txt and report.md both lay
 * them out: in cell order, each comparison a cell is the subject of
 * (block), and a cell in no comparison still shows its own numbers
 * (absolute).  Only the rendering differs between the two files.
 */
typedef void (*pair_block_fn)(FILE *f, const struct pair *p, const struct metric *ms, size_t nm);
typedef void (*cell_absolute_fn)(FILE *f, const struct cell *c, const struct metric *ms, size_t nm);
void write_cell_tables(FILE *f, const struct results *r, const char *baseline,
		       pair_block_fn block, cell_absolute_fn absolute);

/* How one side is named on this axis: "6.12/none", "4 KB", "tas". */
const char *side_name(enum axis a, const struct cell *c, char *buf, size_t len);

/* What the comparison holds constant, e.g. "bufbench select-only, 8
 * clients, host/unknown, lock tas, strategy pg". */
void pair_constant(const struct pair *p, char *buf, size_t len);

/* "kernel/model", "page size", "lock". */
const char *axis_name(enum axis a);

#endif
