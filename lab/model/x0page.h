/*
 * X0 at another page size (docs/scale.md, "X0 per page size").  At 2 vCPUs
 * 4 KB pages ran at ~0.5x of 2 MB under none, with almost no stalls: the
 * difference is the CPU the faults themselves take, which the closed form
 * (stalls only) does not have.  So X0 is split into the CPU a transaction
 * spends outside faults and its faults' own cost:
 *
 *   c = min(N, C) / X0          CPU per transaction at the measurement
 *   c = base + A_P a_P + M_P b_P
 *
 * A_P allocating faults per transaction: the fill writes every pool page
 * once, so m x block_size / page_size (m pops per transaction, one buffer
 * each); M_P the rest of the fill's minor faults per transaction, each a
 * mapping fault (a backend mapping a page another one allocated); a_P and
 * b_P their costs (costbench fault_P_alloc / fault_P_map).  base is kept;
 * the target page size Q gets its own A_Q, M_Q and costs, and
 * X0_Q = min(N, C) / (base + A_Q a_Q + M_Q b_Q).
 *
 * The target's faults per transaction: given (--faults-per-txn), else
 * measured by the same run at Q (make model writes faults_per_txn_by_page
 * when one run has both page sizes: HUGEPAGES=compare), else the
 * occupancy rule: a backend's fill touches k addresses uniformly over the
 * segment, so it faults on U (1 - e^(-k/U)) of its U pages; k is solved
 * from the measured page size and the same k gives the target's.  When
 * the measured page size is saturated (every backend mapped nearly every
 * huge page, as 2 MB is), k cannot be solved: the reverse needs one of the
 * first two.
 */
#ifndef PREEMPTLAB_MODEL_X0PAGE_H
#define PREEMPTLAB_MODEL_X0PAGE_H

#include <stddef.h>

#include "inputs.h"

struct x0page_trace {
	int from, to;			/* enum inputs_page */
	double cpu_us;			/* CPU per transaction at the measurement */
	double allocs_from, maps_from;	/* per transaction */
	double allocs_to, maps_to;
	double fault_us_from, fault_us_to;	/* the faults' own CPU per transaction */
	double base_us;
	double map_scale;		/* many-process growth of a mapping fault (faultbench.h) */
	double k_touches;		/* occupancy rule: touches per backend over the fill */
	const char *faults_to_source;	/* "given", "measured", "occupancy rule" */
	double factor;			/* X0 at the target / X0 measured */
};

/* Bytes of a page size (enum inputs_page). */
double x0page_page_bytes(int page);

/*
 * out = in with X0 (value and interval) moved to page (and its
 * faults_per_txn to the target's), at the measurement's own CPUs, clients
 * and pool (inputs_x0_at moves X0 to the target's size afterwards);
 * faults_given > 0 overrides the target's faults per transaction,
 * map_scale (1: none) multiplies the target's mapping fault cost (the
 * many-process microbenchmark's growth to the target's clients).  -1 with
 * err when a number the rule needs is missing.
 */
int x0page_move(const struct model_inputs *in, const char *page, double faults_given, double map_scale,
	     struct model_inputs *out, struct x0page_trace *tr, char *err, size_t errlen);

#endif
