/*
 * "The model's own cost": costbench's documents (logs/costbench-*.json,
 * one per kernel and model, COSTBENCH=on) side by side, each operation's
 * cost against the kernel's least preemptible model, and how many points
 * of a cell's fill-phase loss that cost per fault and per system call
 * explains (issue 24): under icount every extra instruction is time,
 * whether or not a holder is ever preempted.
 */
#ifndef PREEMPTLAB_REPORT_MODELCOST_H
#define PREEMPTLAB_REPORT_MODELCOST_H

#include <stdbool.h>
#include <stdio.h>

#include "doc_rows.h"
#include "results.h"

#define MC_NOPS 7
#define MC_MAX_BATCHES 1024

struct mc_op {
	bool ok;		/* available and, for a fault, one fault per touch */
	double ns_med, instr_med;	/* medians over the batches */
	int n;
	double ns[MC_MAX_BATCHES];
};

struct mc_doc {
	struct doc_row row;	/* kernel, model and provenance: first, as doc_rows.h needs */
	char source[16];	/* where the instruction counts came from */
	struct mc_op op[MC_NOPS];
};

struct modelcost {
	struct mc_doc *d;
	size_t n;
};

extern const char *const mc_op_names[MC_NOPS];

/* Every logs/costbench-*.json of the run (and of make compare's sources),
 * the documents of one kernel/model (several boots) pooled. */
void modelcost_load(const struct results *r, struct modelcost *mc);
void modelcost_free(struct modelcost *mc);
const struct mc_doc *modelcost_find(const struct modelcost *mc, const char *kernel, const char *model);

/*
 * Points of tps (of base's fill time per transaction) that cell's model's
 * own cost per fault and system call adds over base's model, on the same
 * kernel, with the range from the ratios' 95% intervals in lo/hi; text
 * says how it was reached.  NAN (text says why) when it cannot be said.
 */
double modelcost_points(const struct modelcost *mc, const struct cell *base, const struct cell *cell,
			double *lo, double *hi, char *text, size_t len);

void write_modelcost_txt(FILE *f, const struct modelcost *mc);
void write_modelcost_md(FILE *f, const struct modelcost *mc);

#endif
