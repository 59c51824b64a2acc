/*
 * The closed form (issue 27, corrected by issue 37).
 *
 * A faulting holder descheduled before release stops the strategy lock for
 * T, and (the premise) the whole fill with it, so each transaction costs on
 * average k = m * p_f * q_M * T of outage on top of its stall-free time:
 *
 *     1/X = 1/X_free + k,   X = X_free / (1 + X_free k).
 *
 * The stall's time is counted once per transaction, so the share of time
 * stalled, X k = X_free k / (1 + X_free k), stays below 1 for any inputs.
 * (Issue 27's X = X0 / (1 + X k) counted it X times over and let X k reach
 * 8.7; its "1/sqrt(r) at saturation" followed from that error.)  At
 * saturation (X_free k >> 1) X -> 1/k, so a model with r times none's q at
 * equal T runs at 1/r of none, not 1/sqrt(r).
 *
 * X_free is the fill without stalls, bounded by the CPUs and by the lock's
 * own capacity.  The lock is a finite-source queue (the machine-repairman
 * model): N contenders, each away from the lock for a think time a between
 * needs, served one at a time for s = h + p_f d_f (the hold plus the mean
 * fault inside it).  Exact mean-value analysis gives its acquisitions per
 * second, at most min(N / (a + s), 1 / s); a is what the CPU-bound fill
 * leaves per acquisition, a = N / (m X0) - s, so a cold lock gives X_free
 * = X0 and a saturated one X_free = 1 / (m s).
 *
 * Why 1/X = 1/X_free + k composes the two: where the CPUs bound the fill,
 * the stall stops every backend (the premise), so it adds k to each
 * transaction's time; where the lock bounds it, a descheduled holder's
 * stall is lock-occupancy time, so the lock serves a transaction in
 * m s + k, which is again 1/X_free + k with X_free = 1/(m s).  Between the
 * two, the sum is an approximation (it lets no queued waiter's wait
 * overlap a stall).  MVA treats the think time as a pure delay, so waiters
 * that spin (taking CPU from the others) would do worse: X_free is an upper
 * bound there.
 */
#ifndef PREEMPTLAB_MODEL_CLOSED_H
#define PREEMPTLAB_MODEL_CLOSED_H

#include <stdint.h>

#include "inputs.h"
#include "stall.h"

/* 1/X = 1/x_free + k: fill tps for stall-free x_free (tps) and k (s). */
double closed_throughput(double x_free, double k);
/* X k, the share of time the fill stands stalled: below 1 for any inputs. */
double closed_stalled_share(double x_free, double k);

/*
 * The lock alone (machine repairman, exact MVA): acquisitions per second
 * of n sources with think time think_s and service time service_s.
 */
double closed_lock_rate(int n, double think_s, double service_s);

/* The lock's service time s = h + p_f d_f, in seconds (hold and fault in us). */
double closed_service_s(double hold_us, double p_f, double fault_us);

/*
 * Stall-free fill tps at n clients: x0_cpu (the CPU-bound fill, inputs_x0_at)
 * through the lock's capacity with m acquisitions per transaction and
 * service s.  x0_cpu when s is 0.
 */
double closed_free(double x0_cpu, int n, double m, double service_s);

/*
 * The inverse at a measured X: the x0_cpu that makes the model give X.
 * 0 with *x0 set, or -1 when no x0_cpu can: X k >= 1 (the stalls alone
 * take all the time) or X >= 1 / (m s + k) (beyond the lock's capacity).
 */
int closed_x0_for(double x, double k, int n, double m, double service_s, double *x0);

struct closed_pred {
	double ratio;		/* X_model / X_none at the inputs' central values */
	double lo, hi;		/* 2.5th and 97.5th percentiles over the draws */
	double x_none, x_model;	/* central tps at the target size */
	double kx_none, kx_model; /* X k: the stalled share, always < 1 */
	double x_free, x_lock;	/* stall-free tps, and the lock's cap 1 / (m s) */
	double service_us;	/* s = h + p_f d_f */
	int draws;
};

/*
 * Predict model against none at cpus/clients.  The interval draws every
 * input from its stated 95% interval (a normal on each side of the value,
 * truncated to its range), X0, m, p_f, the hold and T shared by both
 * models, the two q independent; seeded, so the same inputs give the same
 * interval.  Returns -1 when the inputs lack q for the model.
 */
int closed_predict(const struct model_inputs *in, enum pmodel model, int cpus, int clients,
	       int draws, uint64_t seed, struct closed_pred *out);


/* The percentile p of n sorted values (linear between ranks). */
double closed_pct(const double *sorted, int n, double p);

#endif
