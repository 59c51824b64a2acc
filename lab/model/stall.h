/*
 * A stall channel's outage per transaction (issue 27, closed.h): a
 * faulting holder's share m p_f, the share of those q that stall, each for
 * T.  Below the closed form and the channels, which both add such terms.
 */
#ifndef PREEMPTLAB_MODEL_STALL_H
#define PREEMPTLAB_MODEL_STALL_H

/* k in seconds of outage per transaction; T in microseconds. */
double closed_k(double m, double p_f, double q, double t_us);

#endif
