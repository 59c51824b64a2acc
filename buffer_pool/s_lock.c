/*
 * PostgreSQL's spinlock algorithm, reimplemented.
 *
 * The lock is one byte set with an atomic exchange.  A waiter first reads
 * the byte and only attempts the exchange when it looks free (TAS_SPIN), so
 * that waiters spin on a shared cache line instead of bouncing it with
 * writes.  After spins_per_delay unsuccessful iterations it sleeps, starting
 * at 1 ms and growing each sleep by a random factor between 1x and 2x, so
 * that waiters do not wake in lock step; past 1 s the delay wraps back to
 * 1 ms.  A waiter that has slept stuck_limit times (PostgreSQL: 1000, a few
 * minutes) concludes that the holder died with the lock held and ends the
 * process, as PostgreSQL PANICs with "stuck spinlock".
 *
 * spins_per_delay adapts per process: an acquisition that never slept means
 * spinning is worthwhile (we are on a multiprocessor and holders run), so
 * it grows by 100 up to 1000; one that had to sleep shrinks it by 1 down to
 * 10.  The asymmetry is deliberate: a uniprocessor, where spinning is pure
 * waste, is detected quickly, while a multiprocessor only drifts down after
 * many bad experiences.  At exit a backend folds its value into a shared
 * estimate ((15 * old + new) / 16) that new backends start from.
 *
 * Why this matters to the lab: a holder that is descheduled (preempted in a
 * page fault, say) leaves every waiter spinning for spins_per_delay
 * iterations and then sleeping for at least a millisecond: a delay of one
 * holder's scheduling turns into milliseconds of lost work per waiter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "lab_lock.h"
#include "spin_backoff.h"
#include "spin_delay.h"

#define DEFAULT_STUCK_LIMIT 1000

/* Process-local, as in PostgreSQL: each backend learns for itself. */
static int spins_per_delay = SPIN_DEFAULT_SPINS_PER_DELAY;
static int stuck_limit = DEFAULT_STUCK_LIMIT;
static bool spins_fixed;	/* spin_shared_fix: no adaptation, no fold */
static uint32_t rng_state = 2463534242u;

static uint32_t next_random(void)
{
	return spin_backoff_random(&rng_state);
}

void spin_shared_init(struct spin_shared *sh, int limit)
{
	sh->spins_per_delay = SPIN_DEFAULT_SPINS_PER_DELAY;
	sh->stuck_limit = limit > 0 ? limit : DEFAULT_STUCK_LIMIT;
	sh->fixed_spins_per_delay = 0;
}

void spin_shared_fix(struct spin_shared *sh, int n)
{
	sh->fixed_spins_per_delay = n > 0 ? n : 0;
	sh->spins_per_delay = n > 0 ? n : SPIN_DEFAULT_SPINS_PER_DELAY;
}

void spin_backend_start(struct spin_shared *sh, uint32_t seed)
{
	spins_per_delay = __atomic_load_n(&sh->spins_per_delay, __ATOMIC_RELAXED);
	stuck_limit = sh->stuck_limit;
	spins_fixed = sh->fixed_spins_per_delay > 0;
	if (spins_fixed)
		spins_per_delay = sh->fixed_spins_per_delay;
	rng_state = spin_backoff_seed(seed);
}

void spin_backend_exit(struct spin_shared *sh)
{
	if (spins_fixed)
		return;	/* nothing was learnt: the estimate stays the fixed value */
	int old = __atomic_load_n(&sh->spins_per_delay, __ATOMIC_RELAXED);
	int new;
	/* A lost update would only skew an estimate, but CAS is cheap here. */
	do {
		new = spin_backoff_fold(old, spins_per_delay);
	} while (!__atomic_compare_exchange_n(&sh->spins_per_delay, &old, new, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

int spin_local_spins_per_delay(void)
{
	return spins_per_delay;
}

uint32_t spin_local_rng_state(void)
{
	return rng_state;
}

static inline int tas_try(volatile uint8_t *lock)
{
	return __atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE);
}

/* TAS_SPIN: look before exchanging, so waiters only read the line. */
static inline int tas_spin(volatile uint8_t *lock)
{
	return *lock ? 1 : tas_try(lock);
}

static void sleep_usec(long usec)
{
	struct timespec ts = { usec / 1000000L, (usec % 1000000L) * 1000L };
	nanosleep(&ts, NULL);
}

static _Noreturn void stuck(const char *name, int delays, uint64_t waited_ns)
{
	fprintf(stderr,
		"bufbench: stuck spinlock (%s) detected in backend pid %d after %d sleeps "
		"(%.1f s): its holder never released it\n",
		name ? name : "lock", (int)getpid(), delays, waited_ns / 1e9);
	fflush(stderr);
	_exit(SPIN_STUCK_EXIT);
}

bool tas_acquire(volatile uint8_t *lock, struct lock_wait *w, const char *name)
{
	if (!tas_try(lock))
		return false;

	int spins = 0, delays = 0;
	long cur_delay = 0;
	uint64_t start = 0;

	while (tas_spin(lock)) {
		spin_delay();
		w->spins++;
		if (++spins < spins_per_delay)
			continue;
		if (delays == 0)
			start = clock_ns();
		if (++delays > stuck_limit)
			stuck(name, delays - 1, clock_ns() - start);
		cur_delay = spin_backoff_first(cur_delay);
		uint64_t slept = clock_ns();
		sleep_usec(cur_delay);
		w->sleep_ns += clock_ns() - slept;
		w->sleeps++;
		/* Grow by a random fraction of itself, rounding to nearest. */
		cur_delay = spin_backoff_grow(cur_delay, next_random());
		spins = 0;
	}

	if (!spins_fixed)
		spins_per_delay = spin_backoff_adapt(spins_per_delay, cur_delay != 0);
	return true;
}

/*
 * What one iteration of the wait loop above costs when it spins on a held
 * lock: the look (TAS_SPIN), the delay hint and the count.  Spins times
 * this is the CPU the waiters burned spinning, the quantity a profile's
 * share of s_lock measures; wait time is not (it includes sleeps and time
 * on the run queue).  The lock byte here is private and in cache, so a
 * spin on a contended line, which misses, costs more: a lower bound.  The
 * least of a few trials, the one the machine disturbed least.
 */
double tas_spin_cost_ns(void)
{
	enum { ITER = 20000, TRIALS = 7 };
	static volatile uint8_t held = 1;
	double best = 0;
	for (int t = 0; t < TRIALS; t++) {
		uint64_t spins = 0;
		uint64_t t0 = clock_ns();
		while (tas_spin(&held)) {
			spin_delay();
			if (++spins >= ITER)
				break;
		}
		double per = (double)(clock_ns() - t0) / ITER;
		if (t == 0 || per < best)
			best = per;
	}
	return best;
}

void tas_release(volatile uint8_t *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
