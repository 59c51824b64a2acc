/*
 * The arithmetic of PostgreSQL's spinlock wait (s_lock.c), as pure
 * functions of their inputs.  s_lock.c waits with these, and the model's
 * simulation (lab/model/sim.c) schedules its simulated waiters with the
 * very same functions, so the two cannot drift apart: a change to the
 * backoff here changes both, and test_model_sim checks that they agree.
 */
#ifndef PREEMPTLAB_SPIN_BACKOFF_H
#define PREEMPTLAB_SPIN_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

#define SPIN_MIN_SPINS_PER_DELAY 10
#define SPIN_MAX_SPINS_PER_DELAY 1000
#define SPIN_DEFAULT_SPINS_PER_DELAY 100
/* The most --spins-per-delay fixed:N takes (an emulation knob, not PostgreSQL's range). */
#define SPIN_FIXED_MAX 1000000
#define SPIN_MIN_DELAY_USEC 1000L
#define SPIN_MAX_DELAY_USEC 1000000L

/* A backend's random stream: seed 0 falls back to a fixed nonzero state. */
uint32_t spin_backoff_seed(uint32_t seed);
/* xorshift32: advances *state and returns the new value. */
uint32_t spin_backoff_random(uint32_t *state);
/* The delay of the next sleep: 1 ms when this wait has not slept yet. */
long spin_backoff_first(long cur_delay_usec);
/* After a sleep: grow by a random fraction (r / UINT32_MAX) of itself,
 * rounded to nearest; past 1 s wrap back to 1 ms. */
long spin_backoff_grow(long cur_delay_usec, uint32_t r);
/* spins_per_delay after an acquisition: +100 (to 1000) when it never
 * slept, -1 (to 10) when it did. */
int spin_backoff_adapt(int spins_per_delay, bool slept);
/* The shared estimate after a backend exits: (15 * old + local) / 16. */
int spin_backoff_fold(int shared_old, int local);

#endif
