/*
 * An MCS queued spinlock across processes.  Each waiter spins on its own
 * node, so a release touches one waiter's cache line instead of all of
 * them, and the lock is handed over in FIFO order.  It is the fairness
 * control: under MCS, a descheduled *waiter* also stalls everyone behind
 * it, which is why the lab compares it with tas rather than recommend it.
 *
 * Nodes are identified by backend index + 1 (0 means none) instead of
 * pointers, so the queue means the same thing in every process.
 */
#include <sched.h>

#include "lab_lock.h"
#include "spin_delay.h"

#define MCS_SPINS_BEFORE_YIELD 1000

bool mcs_acquire(uint32_t *tail, struct mcs_node *nodes, uint32_t me, struct lock_wait *w)
{
	struct mcs_node *n = &nodes[me];
	uint32_t id = me + 1;

	__atomic_store_n(&n->next, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&n->locked, 1, __ATOMIC_RELAXED);
	uint32_t prev = __atomic_exchange_n(tail, id, __ATOMIC_ACQ_REL);
	if (prev == 0)
		return false;
	__atomic_store_n(&nodes[prev - 1].next, id, __ATOMIC_RELEASE);
	while (__atomic_load_n(&n->locked, __ATOMIC_ACQUIRE)) {
		spin_delay();
		/*
		 * With more waiters than CPUs, the next in line may not be
		 * running; yielding now and then lets it run instead of burning
		 * our whole time slice (counted as a sleep).
		 */
		if (++w->spins % MCS_SPINS_BEFORE_YIELD == 0) {
			sched_yield();
			w->sleeps++;
		}
	}
	return true;
}

void mcs_release(uint32_t *tail, struct mcs_node *nodes, uint32_t me)
{
	struct mcs_node *n = &nodes[me];
	uint32_t id = me + 1;
	uint32_t next = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE);

	if (next == 0) {
		uint32_t expected = id;
		if (__atomic_compare_exchange_n(tail, &expected, 0, false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
		/* A successor swapped itself in but has not linked yet. */
		for (unsigned i = 1; (next = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE)) == 0; i++) {
			spin_delay();
			if (i % MCS_SPINS_BEFORE_YIELD == 0)
				sched_yield();
		}
	}
	__atomic_store_n(&nodes[next - 1].locked, 0, __ATOMIC_RELEASE);
}
