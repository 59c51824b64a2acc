/* PostgreSQL's spinlock backoff arithmetic (see spin_backoff.h). */
#include "spin_backoff.h"

uint32_t spin_backoff_seed(uint32_t seed)
{
	return seed ? seed : 2463534242u;
}

uint32_t spin_backoff_random(uint32_t *state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

long spin_backoff_first(long cur_delay_usec)
{
	return cur_delay_usec == 0 ? SPIN_MIN_DELAY_USEC : cur_delay_usec;
}

long spin_backoff_grow(long cur_delay_usec, uint32_t r)
{
	long d = cur_delay_usec + (long)(cur_delay_usec * ((double)r / UINT32_MAX) + 0.5);
	return d > SPIN_MAX_DELAY_USEC ? SPIN_MIN_DELAY_USEC : d;
}

int spin_backoff_adapt(int spins_per_delay, bool slept)
{
	if (!slept) {
		if (spins_per_delay < SPIN_MAX_SPINS_PER_DELAY)
			return spins_per_delay + 100 < SPIN_MAX_SPINS_PER_DELAY ?
				       spins_per_delay + 100 : SPIN_MAX_SPINS_PER_DELAY;
		return spins_per_delay;
	}
	return spins_per_delay > SPIN_MIN_SPINS_PER_DELAY ? spins_per_delay - 1 : spins_per_delay;
}

int spin_backoff_fold(int shared_old, int local)
{
	return (shared_old * 15 + local) / 16;
}
