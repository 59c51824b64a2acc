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
#include "lab_lock.h"
#include "spin_delay.h"

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
		w->spins++;
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
		while ((next = __atomic_load_n(&n->next, __ATOMIC_ACQUIRE)) == 0)
			spin_delay();
	}
	__atomic_store_n(&nodes[next - 1].locked, 0, __ATOMIC_RELEASE);
}
