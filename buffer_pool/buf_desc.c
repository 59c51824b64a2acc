#include "buf_desc.h"

#include "spin_delay.h"

/*
 * The header lock is held for a handful of instructions, never across a
 * system call, so plain spinning is enough here; the strategy lock, which
 * is held across page faults, is the one with the full s_lock algorithm.
 */
uint32_t buf_hdr_lock(struct buf_desc *d)
{
	for (;;) {
		uint32_t old = __atomic_fetch_or(&d->state, BM_LOCKED, __ATOMIC_ACQUIRE);
		if (!(old & BM_LOCKED))
			return old | BM_LOCKED;
		while (__atomic_load_n(&d->state, __ATOMIC_RELAXED) & BM_LOCKED)
			spin_delay();
	}
}
