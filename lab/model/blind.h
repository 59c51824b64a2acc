/*
 * The blind prediction for a big machine (issue 37, part 4): the closed
 * form over the whole run (the fill, then steady state after it), with the
 * extrapolation rules' own uncertainty drawn, not only the inputs'.
 *
 * Each rule's span, stated where it comes from:
 *   p_f: pops per run L between its 2-CPU value moved by runnable per CPU
 *     only (the runs of pops kept as on 2 CPUs) and 1 (perfect
 *     interleaving): the runs-of-pops rule's move in C is untested upward;
 *   T: between the free tail alone (the simulation at 96 CPUs: holders
 *     rarely wait behind others) and the T rule (runnable per CPU x slice,
 *     refuted at an 8 ms slice on 2 vCPUs: T grew 5%, not 3.7x);
 *   m: between the lab's (bufbench, 64 MB pool) and BL_M_HI;
 *   the fault's own length d_f: between BL_FAULT_LO_US and the inputs'
 *     (the emulator's, 57 us); q moves with it (a resched request lands
 *     inside a fault in proportion to its length), the same factor for
 *     every model, so q_M / q_none stays as measured.
 * Each is drawn log-uniformly between its ends; q and the hold from their
 * measured intervals.  X0 is anchored per draw so that none averages the
 * target's measured tps over the run (the report's 98,566 over 1,200 s);
 * draws where no X0 can give that are counted and left out (the inputs
 * then describe another machine).
 *
 * The run: the fill takes P / (m X_fill) seconds (P free buffers, m pops
 * per transaction); after it the lock is taken only when the clock hand
 * wraps, so the steady state runs at the stall-free X0 (stated assumption:
 * no other model-dependent cost in steady state), under every model.
 */
#ifndef PREEMPTLAB_MODEL_BLIND_H
#define PREEMPTLAB_MODEL_BLIND_H

#include <stdint.h>

#include "extrap.h"
#include "inputs.h"

/*
 * m's upper end: pgbench simple-update reads one pgbench_accounts heap
 * page and its index leaf at random per transaction; at scale 8470 (~110
 * GB of heap, ~18 GB of index, FACTS 1) against a 120 GB pool both miss
 * through most of the fill, so at most ~2 buffers are allocated per
 * transaction (history's insert page is shared).
 */
#define BL_M_HI 2.0
/*
 * d_f's lower end: the host's fault CPU time, median 10.6-15.6 us at 1024
 * processes (costbench --procs, docs/model/faultbench-host): a real
 * machine's fault, though x86 and not Graviton4.
 */
#define BL_FAULT_LO_US 10.6
#define BL_RUN_S 1200.0

enum bl_input { BL_PF, BL_T, BL_M, BL_FAULT, BL_Q, BL_INPUTS };
const char *bl_input_name(enum bl_input i);
/* The big-machine measurement that would pin input i. */
const char *bl_measurement(enum bl_input i);

struct bl_span {
	double lo, hi;
};

struct bl_bounds {
	struct bl_span pf, l, t_us, m, fault_us;
	double fault_measured_us;	/* the inputs' mean fault, q's reference */
	double window, pool;
	int clients, cpus;
};

struct bl_stat {
	double med, lo, hi;	/* median, 2.5th and 97.5th percentiles */
};

struct bl_result {
	struct bl_stat run, fill;	/* model / none: whole run; fill phase alone */
	struct bl_stat fill_s_none, fill_s_model;	/* the fill's length, s */
	int draws, kept;
	double width;			/* run.hi - run.lo */
	double width_fixed[BL_INPUTS];	/* the same with input i at its middle */
};

/* The rules' spans at t from in (as measured); -1 with err when a rule lacks its inputs. */
int bl_bounds_for(const struct model_inputs *in, const struct extrap_target *t, struct bl_bounds *b,
		  char *err, size_t errlen);

/*
 * model against none over a run of run_s seconds with none anchored at
 * x_none_run tps averaged over it.  -1 when the inputs lack q for model
 * or no draw is consistent with x_none_run.
 */
int bl_predict(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model,
	       double x_none_run, double run_s, int draws, uint64_t seed, struct bl_result *out);
/* The same without the pinned-input sweeps (width_fixed left 0): a sixth of the work. */
int bl_predict_run(const struct model_inputs *in, const struct bl_bounds *b, enum pmodel model,
		   double x_none_run, double run_s, int draws, uint64_t seed, struct bl_result *out);

#endif
