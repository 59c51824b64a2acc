/*
 * The model's own random numbers (splitmix64): deterministic for a seed,
 * independent of the simulated backends' s_lock streams.
 */
#ifndef PREEMPTLAB_MODEL_RNG_H
#define PREEMPTLAB_MODEL_RNG_H

#include <math.h>
#include <stdint.h>

static inline uint64_t mrng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double mrng_unit(uint64_t *s)
{
	return (double)(mrng_next(s) >> 11) * 0x1.0p-53;
}

/* Standard normal (Box-Muller; one value per call keeps the stream simple). */
static inline double mrng_normal(uint64_t *s)
{
	double u1 = mrng_unit(s), u2 = mrng_unit(s);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

#endif
