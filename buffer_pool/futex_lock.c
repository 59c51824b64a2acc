/*
 * A sleeping mutex on a futex word (Drepper, "Futexes Are Tricky", the
 * three-state version): 0 free, 1 held, 2 held and someone may sleep.  It
 * is the control for the spinlock: a waiter gives its CPU away at once, so
 * a descheduled holder costs the waiters a wakeup, not a spin.
 *
 * The word lives in a MAP_SHARED segment used by several processes, so the
 * futex calls must not use FUTEX_PRIVATE_FLAG.
 */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "lab_lock.h"

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static uint32_t cmpxchg(uint32_t *p, uint32_t expected, uint32_t desired)
{
	__atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQUIRE,
				    __ATOMIC_RELAXED);
	return expected;
}

bool futex_lock_acquire(uint32_t *f, struct lock_wait *w)
{
	uint32_t c = cmpxchg(f, 0, 1);
	if (c == 0)
		return false;
	if (c != 2)
		c = __atomic_exchange_n(f, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		uint64_t slept = clock_ns();
		futex(f, FUTEX_WAIT, 2);
		w->sleep_ns += clock_ns() - slept;
		w->sleeps++;
		c = __atomic_exchange_n(f, 2, __ATOMIC_ACQUIRE);
	}
	return true;
}

void futex_lock_release(uint32_t *f)
{
	if (__atomic_fetch_sub(f, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(f, 0, __ATOMIC_RELEASE);
		futex(f, FUTEX_WAKE, 1);
	}
}
