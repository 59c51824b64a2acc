/*
 * The closed form (issue 27): a faulting holder descheduled before release
 * stops the strategy lock for T, so each transaction costs on average
 * k = m * p_f * q_M * T of lock outage, and X = X0 / (1 + X k), i.e.
 * X = (sqrt(1 + 4 X0 k) - 1) / (2 k).  Small X0 k: X ~ X0 (1 - X0 k), a
 * few percent; large X0 k: X ~ sqrt(X0 / k), so a model that deschedules
 * faulting holders r times as often runs at 1/sqrt(r) of none.
 */
#ifndef PREEMPTLAB_MODEL_CLOSED_H
#define PREEMPTLAB_MODEL_CLOSED_H

#include <stdint.h>

#include "inputs.h"

/* k in seconds of outage per transaction; T in microseconds. */
double cf_k(double m, double p_f, double q, double t_us);
/* Fill tps for uncontended X0 (tps) and k (s); X0 when k is 0. */
double cf_throughput(double x0, double k);

struct cf_pred {
	double ratio;		/* X_model / X_none at the inputs' central values */
	double lo, hi;		/* 2.5th and 97.5th percentiles over the draws */
	double x_none, x_model;	/* central tps at the target size */
	double kx_none, kx_model; /* X k: the regime (<< 1 linear, >> 1 saturated) */
	int draws;
};

/*
 * Predict model against none at cpus/clients.  The interval draws every
 * input from its stated 95% interval (a normal on each side of the value,
 * truncated to its range), X0, m, p_f and T shared by both models, the two
 * q independent; seeded, so the same inputs give the same interval.
 * Returns -1 when the inputs lack q for the model.
 */
int cf_predict(const struct model_inputs *in, enum pmodel model, int cpus, int clients,
	       int draws, uint64_t seed, struct cf_pred *out);

/* One draw from a value's interval (exposed for the simulation's replicates). */
double mi_draw(const struct mi_value *v, uint64_t *rng, double min, double max);

#endif
