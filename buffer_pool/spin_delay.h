/*
 * The CPU hint a spinning waiter gives each iteration: PAUSE on x86 (lets
 * the sibling hyperthread run and avoids a memory-order flush when the lock
 * is released), ISB on arm64, as PostgreSQL's SPIN_DELAY does.
 */
#ifndef PREEMPTLAB_SPIN_DELAY_H
#define PREEMPTLAB_SPIN_DELAY_H

static inline void spin_delay(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__(" rep; nop\n");
#elif defined(__aarch64__)
	__asm__ __volatile__(" isb\n");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif
