/*
 * The candidate channels of model-dependent outage (issue 37), each with
 * its own input, none of them q by model.  A channel adds, per transaction,
 *
 *     k_c,M = m * p_f * p_c,M * t_c
 *
 * (p_c,M: the probability, per faulting hold under model M, that the
 * channel stalls the lock; t_c: for how long).  Inputs come from
 * model-inputs.json's "channels" object; a channel without them is
 * *unmeasured*, and a prediction says it cannot include it: no number is
 * made up for it.
 *
 *   holder descheduling (q_M and T, measured: make model): a resched
 *     request that lands during the fault takes the holder off before
 *     release under every model, by different routes (FACTS 9: equal
 *     across models within the lab's intervals);
 *   blocked in fault: a faulting holder waits for a sleeping kernel lock
 *     (a descriptor page's folio lock) held by a task preempted inside its
 *     own fault ("blocked_in_fault": {"p": {model: value}, "t_us": value});
 *   wakeup latency: a holder that slept inside its fault waits to be run
 *     again; under lazy a remote wakeup sends no IPI, so it waits for the
 *     target CPU's tick ("wakeup_latency");
 *   faults spanning a tick: lazy's upgrade to a full request inside the
 *     fault ("tick_span");
 *   emulator freezes: icount's round robin freezes a vCPU mid-fault while
 *     the others run ("emulator_freeze"): included where the target is the
 *     emulated machine (2..measured vCPUs), excluded on real hardware
 *     (more vCPUs than measured: the 96-vCPU predictions).
 */
#ifndef PREEMPTLAB_MODEL_CHANNELS_H
#define PREEMPTLAB_MODEL_CHANNELS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "inputs.h"

enum channel { CH_BLOCKED, CH_WAKEUP, CH_TICK_SPAN, CH_EMU_FREEZE, CH_COUNT };

const char *ch_key(enum channel c);	/* the JSON key */
const char *ch_title(enum channel c);	/* for the reader */

/* Whether channel c applies at cpus (the emulator's freezes only on the emulated machine). */
bool ch_applies(const struct model_inputs *in, enum channel c, int cpus);
/* Whether c has inputs for model (and none, to compare against). */
bool ch_measured(const struct model_inputs *in, enum channel c, enum pmodel model);

/*
 * The channels' outage per transaction for model at cpus, seconds: the
 * applicable, measured ones at their central values, or drawn from their
 * intervals when rng is not NULL.
 */
double ch_k(const struct model_inputs *in, enum pmodel model, int cpus, double m, double p_f,
	    uint64_t *rng);

/*
 * One line per channel: included (measured), excluded (does not apply) or
 * not included (unmeasured).  Returns the number not included for lack of
 * inputs.
 */
int ch_describe(const struct model_inputs *in, enum pmodel model, int cpus, FILE *f);

#endif
