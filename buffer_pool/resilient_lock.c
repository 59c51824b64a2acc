#include "resilient_lock.h"

#include "clock.h"
#include "spin_delay.h"

#define HELD_MAX 16

/*
 * n counts every push, also past HELD_MAX (those entries are not kept,
 * as in rqspinlock): pops stay balanced and nothing overflows.  The
 * compiler barriers order the entry before the count and the count before
 * the exchange, as a signal handler on this thread sees them.
 */
static struct {
	int n;
	const void *lock[HELD_MAX];
} held;

static uint64_t timeout_ns = 250000000ull;

void resilient_set_timeout_ns(uint64_t ns)
{
	timeout_ns = ns;
}

void held_push(const void *lock)
{
	if (held.n < HELD_MAX)
		held.lock[held.n] = lock;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	held.n++;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void held_pop(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (held.n > 0)
		held.n--;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

bool held_has(const void *lock, int skip_top)
{
	int n = held.n - skip_top;
	if (n > HELD_MAX)
		n = HELD_MAX;
	for (int i = 0; i < n; i++)
		if (held.lock[i] == lock)
			return true;
	return false;
}

static inline bool try_exchange(volatile uint8_t *lock)
{
	return __atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) == 0;
}

enum resilient_result resilient_acquire(volatile uint8_t *lock, bool late, uint64_t *spins)
{
	if (!late)
		held_push((const void *)lock);
	if (try_exchange(lock)) {
		if (late)
			held_push((const void *)lock);
		return RES_ACQUIRED;
	}
	/* First failure: is the holder this very process? */
	if (held_has((const void *)lock, late ? 0 : 1)) {
		if (!late)
			held_pop();
		return RES_AA;
	}
	uint64_t deadline = clock_ns() + timeout_ns;
	for (uint64_t i = 1;; i++) {
		spin_delay();
		if (!*lock && try_exchange(lock)) {
			*spins += i;
			if (late)
				held_push((const void *)lock);
			return RES_ACQUIRED;
		}
		/* The clock only every 256 spins: it costs more than a spin. */
		if ((i & 255) == 0 && clock_ns() > deadline) {
			*spins += i;
			if (!late)
				held_pop();
			return RES_TIMEOUT;
		}
	}
}

void resilient_release(volatile uint8_t *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
	held_pop();
}
