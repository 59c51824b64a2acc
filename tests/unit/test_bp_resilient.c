/*
 * The resilient lock (resilient_lock.c): a self-deadlock (AA) is seen at
 * the first failed attempt when the hold was recorded before the exchange,
 * and only after the timeout when it was recorded after it (the negative
 * control); a lock held elsewhere times out instead of spinning forever;
 * tas, which cannot tell, is caught by the lab's own table.
 */
#include <signal.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "lab_lock.h"
#include "resilient_lock.h"

static struct lock_ctx ctx = { NULL, NULL, 0, 0, "test lock", NULL, NULL, 0 };

static double ms_since(uint64_t t0)
{
	return (clock_ns() - t0) / 1e6;
}

static void reentry_while_held(enum lab_lock_kind kind, enum reentry want, const char *what)
{
	struct lab_lock l;
	uint64_t stall;
	lab_lock_init(&l, kind);
	lab_lock_acquire(&l, &ctx);
	enum reentry r = lab_lock_reentrant(&l, &ctx, &stall);
	lab_lock_release(&l, &ctx);
	CHECK(r == want && stall < 5000000, "%s: %s, after %.3f ms", lab_lock_kind_name(kind), what,
	      stall / 1e6);
	CHECK(!held_has(&l, 0) && !held_has((const void *)&l.tas, 0),
	      "%s: the table is empty again after the release", lab_lock_kind_name(kind));
}

/*
 * The window between the exchange and the record: an interruption there
 * finds the lock taken.  Recorded first (resilient), it knows the holder
 * is itself; recorded after (resilient-late), it waits for the timeout.
 */
static void interrupted_between(enum lab_lock_kind kind, enum reentry want, const char *what)
{
	struct lab_lock l;
	uint64_t stall;
	lab_lock_init(&l, kind);
	if (kind == LOCK_RESILIENT)
		held_push((const void *)&l.tas);	/* recorded, then ... */
	l.tas = 1;					/* ... exchanged: interrupted here */
	enum reentry r = lab_lock_reentrant(&l, &ctx, &stall);
	CHECK(r == want, "%s interrupted between exchange and record: %s (%.1f ms)",
	      lab_lock_kind_name(kind), what, stall / 1e6);
	if (kind == LOCK_RESILIENT)
		held_pop();
}

/* A holder in another process: waiting is right, forever is not. */
static void held_elsewhere(void)
{
	struct lab_lock *l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	lab_lock_init(l, LOCK_RESILIENT);
	l->tas = 1;
	uint64_t spins = 0, t0 = clock_ns();
	enum resilient_result r = resilient_acquire(&l->tas, false, &spins);
	double ms = ms_since(t0);
	CHECK(r == RES_TIMEOUT && ms >= 20 && ms < 1000,
	      "held by someone else: gives up after the 20 ms timeout (%.1f ms, %llu spins)", ms,
	      (unsigned long long)spins);
	CHECK(!held_has((const void *)&l->tas, 0), "...and leaves no entry in the table");

	/* A timeout long enough for any scheduler: only the release may end the wait. */
	resilient_set_timeout_ns(10000000000ull);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(5000);
		__atomic_store_n(&l->tas, 0, __ATOMIC_RELEASE);
		_exit(0);
	}
	t0 = clock_ns();
	r = resilient_acquire(&l->tas, false, &spins);
	CHECK(r == RES_ACQUIRED, "released by the other process within the timeout: acquired "
	      "(%.1f ms)", ms_since(t0));
	resilient_set_timeout_ns(20000000ull);
	resilient_release(&l->tas);
	waitpid(pid, NULL, 0);
	munmap(l, sizeof(*l));
}

static void table(void)
{
	int a, b;
	held_push(&a);
	held_push(&b);
	CHECK(held_has(&a, 1) && !held_has(&b, 1) && held_has(&b, 0),
	      "the table finds an entry below the top one, and the top one when asked");
	for (int i = 0; i < 40; i++)
		held_push(&a);
	for (int i = 0; i < 40; i++)
		held_pop();
	CHECK(held_has(&b, 0), "past its 16 entries it counts, forgets, and stays balanced");
	held_pop();
	held_pop();
	CHECK(!held_has(&a, 0) && !held_has(&b, 0), "empty after as many pops as pushes");
}

int main(void)
{
	resilient_set_timeout_ns(20000000ull);
	table();
	reentry_while_held(LOCK_RESILIENT, REENTRY_AA, "AA detected at the first failed attempt");
	reentry_while_held(LOCK_RESILIENT_LATE, REENTRY_AA,
			   "AA detected once the hold is recorded");
	reentry_while_held(LOCK_TAS, REENTRY_DEADLOCK,
			   "the lab's table sees the deadlock tas would spin into");
	interrupted_between(LOCK_RESILIENT, REENTRY_AA, "AA at once");
	interrupted_between(LOCK_RESILIENT_LATE, REENTRY_TIMEOUT, "only the timeout ends it");
	held_elsewhere();
	return CHECK_DONE();
}
