/*
 * A discrete-event simulation of the strategy lock under a preemption
 * model: C CPUs, N process-per-client backends pinned round robin, an
 * EEVDF-like scheduler per CPU, per-model points where a resched request
 * takes effect, holds that fault, and waiters that wait exactly as
 * buffer_pool/s_lock.c (its own functions, spin_backoff.c).  Assumptions
 * and their limits: docs/scale.md.
 */
#ifndef PREEMPTLAB_MODEL_SIM_H
#define PREEMPTLAB_MODEL_SIM_H

#include <stdint.h>

#include "inputs.h"

struct sim_params {
	int cpus, clients, hz;
	enum pmodel model;
	double m;		/* acquisitions per transaction */
	double work_ns;		/* CPU time between a release and the next need */
	/*
	 * Of work_ns, the kernel's: the faults a transaction takes outside the
	 * lock, at the start of its work.  A request that lands there waits
	 * for the return to user under none and voluntary (lazy: for the
	 * tick's upgrade), as in a holder's fault.  0: the work is all user
	 * mode.
	 */
	double work_kernel_ns;
	double hold_ns;		/* a hold without its fault */
	double p_f;		/* share of holds that fault */
	const struct inputs_dist *fault_us;
	double spin_iter_ns;
	double timer_slack_ns;
	int spins_per_delay0;
	double rseq_grant_ns;	/* 0: no slice extension; else 5000..50000 */
	double vcpu_rr_ns;	/* 0: CPUs run at once; else one runs at a time (icount) */
	double base_slice_ns;	/* 0: the kernel's default at cpus; else sched/base_slice_ns as set */
	/*
	 * The blocked-in-fault channel (channels.h): with probability block_p
	 * a faulting holder sleeps block_ns at the end of its fault (waiting
	 * for a kernel lock), off CPU with the strategy lock; its wakeup is
	 * placed and preempts as any wakeup under the model.  0: not measured.
	 */
	double block_p, block_ns;
	double duration_ns, warmup_ns;
	uint64_t seed;
};

struct sim_result {
	double tps;		/* transactions per second over the measured window */
	double acq_per_s;
	long acquisitions, faulted, desched_faulted, desched_holds;
	double q;		/* desched_faulted / faulted */
	double t_stall_us;	/* mean over descheduled holds: holder off CPU with the lock, plus the tail from release to the next acquisition */
	long stalls;
	double spin_share;	/* CPU time spent spinning / busy CPU time */
	long sleeps;
	long preemptions;
	long blocked;		/* faulting holds that slept in the blocked-in-fault channel */
	/* New resched requests held off by the running task's kernel section
	 * (none, voluntary; lazy until the tick): a holder's fault, or a
	 * non-holder's faults outside the lock (work_kernel_ns). */
	long deferred_holder, deferred_other;
};

/* Parameters from inputs, for a target size and model (no rseq, no round robin); the
 * blocked-in-fault channel where the inputs measure it for the model. */
void sim_params_from_inputs(struct sim_params *p, const struct model_inputs *in, int cpus,
			    int clients, enum pmodel model, uint64_t seed);

/* Run; 0 on success, -1 when out of memory or the parameters are invalid. */
int sim_run(const struct sim_params *p, struct sim_result *r);

/*
 * The first n sleep delays (us) a simulated waiter that never gets the lock
 * takes, and its random state after them, from the seed a backend starts
 * with: the simulation's own backoff path, for comparison with s_lock.c.
 */
uint32_t sim_backoff_sequence(uint32_t seed, long *delays_us, int n);

#endif
