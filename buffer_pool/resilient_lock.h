/*
 * The resilient lock: a lesson from the kernel's rqspinlock (FACTS.md §6).
 * A test-and-set lock that can fail instead of spinning forever:
 *
 *   - before the atomic exchange, the lock is recorded in this process's
 *     table of held locks, so that code interrupting the acquisition (a
 *     signal handler here, an NMI in the kernel) sees it;
 *   - at the first failed attempt it looks for the lock in that table: if
 *     it is there below its own entry, this process already holds it (or
 *     is taking it) and waiting would deadlock on itself (AA), so it gives
 *     up at once;
 *   - otherwise it spins, and gives up after a timeout (250 ms unless set)
 *     with a counted error.
 *
 * The negative control (late) records the entry only after the exchange
 * succeeds.  An interruption between the exchange and the record then
 * finds nothing in the table, and its acquisition spins until the timeout:
 * the order of the two steps is the whole difference.
 *
 * The table is process-private: forked backends have their own, and a
 * signal handler shares its process's.  Every lab lock kind records its
 * holds there (lab_lock.c), so that the lab can also tell when a tas
 * acquisition from a handler would deadlock.
 */
#ifndef PREEMPTLAB_RESILIENT_LOCK_H
#define PREEMPTLAB_RESILIENT_LOCK_H

#include <stdbool.h>
#include <stdint.h>

enum resilient_result { RES_ACQUIRED, RES_AA, RES_TIMEOUT };

void resilient_set_timeout_ns(uint64_t ns);

/* The held-lock table (LIFO). */
void held_push(const void *lock);
void held_pop(void);
/* Whether lock is recorded below the top `skip_top` entries. */
bool held_has(const void *lock, int skip_top);

/* late: record after the exchange (the negative control). */
enum resilient_result resilient_acquire(volatile uint8_t *lock, bool late, uint64_t *spins);
void resilient_release(volatile uint8_t *lock);

#endif
