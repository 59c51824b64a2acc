/*
 * Locks: mutual exclusion under many processes for every kind, counters
 * that add up, and stuck-spinlock detection that ends the waiter instead
 * of hanging it.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "lab_lock.h"
#include "rseq_slice.h"

#define PROCS 8

struct shared {
	struct lab_lock lock;
	struct spin_shared spin;
	struct mcs_node nodes[PROCS];
	struct lockstats stats[PROCS];
	volatile uint64_t counter;
};

static struct shared *new_shared(enum lab_lock_kind kind, int stuck_limit)
{
	struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	lab_lock_init(&s->lock, kind);
	spin_shared_init(&s->spin, stuck_limit);
	return s;
}

static void worker(struct shared *s, uint32_t me, int iters)
{
	struct lock_ctx c = { &s->stats[me], s->nodes, me, 0, "test lock", NULL, NULL, 0 };
	spin_backend_start(&s->spin, me + 1);
	for (int i = 0; i < iters; i++) {
		lab_lock_acquire(&s->lock, &c);
		/* A non-atomic read-modify-write: loses updates without exclusion. */
		uint64_t v = s->counter;
		__asm__ __volatile__("" ::: "memory");
		s->counter = v + 1;
		lab_lock_release(&s->lock, &c);
	}
	spin_backend_exit(&s->spin);
}

/*
 * MCS hands the lock over in FIFO order, so with 8 processes on 2 CPUs
 * most handovers wait for a descheduled successor: fewer iterations keep
 * it to seconds.
 */
static void test_exclusion(enum lab_lock_kind kind, int iters)
{
	struct shared *s = new_shared(kind, 0);
	pid_t pids[PROCS];
	int ok_exit = 1;

	for (uint32_t i = 0; i < PROCS; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			worker(s, i, iters);
			_exit(0);
		}
	}
	for (int i = 0; i < PROCS; i++) {
		int st;
		waitpid(pids[i], &st, 0);
		ok_exit &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	const char *name = lab_lock_kind_name(kind);
	CHECK(ok_exit, "%s: all %d workers exited cleanly", name, PROCS);
	CHECK(s->counter == (uint64_t)PROCS * iters, "%s: counter %llu == %d (mutual exclusion)",
	      name, (unsigned long long)s->counter, PROCS * iters);

	struct lockstats sum;
	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < PROCS; i++)
		lockstats_add(&sum, &s->stats[i]);
	uint64_t held = 0, waited = 0;
	for (int i = 0; i < LOCKSTATS_BUCKETS; i++) {
		held += sum.hold_hist[i];
		waited += sum.wait_hist[i];
	}
	CHECK(sum.acquisitions == (uint64_t)PROCS * iters, "%s: %llu acquisitions counted", name,
	      (unsigned long long)sum.acquisitions);
	CHECK(held == sum.acquisitions, "%s: hold histogram covers every acquisition", name);
	CHECK(waited == sum.contended, "%s: wait histogram covers every contended acquisition",
	      name);
	CHECK(sum.contended <= sum.acquisitions && sum.max_hold_ns > 0,
	      "%s: %llu of %llu contended, max hold %llu ns", name,
	      (unsigned long long)sum.contended, (unsigned long long)sum.acquisitions,
	      (unsigned long long)sum.max_hold_ns);
	munmap(s, sizeof(*s));
}

/* A holder that never releases: the waiter must give up with the message. */
static void test_stuck(void)
{
	struct shared *s = new_shared(LOCK_TAS, 6);
	int pipefd[2];
	char buf[512] = "";

	if (pipe(pipefd) != 0)
		exit(1);
	s->lock.tas = 1;	/* held by a "dead" backend */
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		struct lock_ctx c = { &s->stats[0], s->nodes, 0, 0, "strategy lock", NULL, NULL, 0 };
		spin_backend_start(&s->spin, 7);
		alarm(60);	/* the suite never hangs, even if detection breaks */
		lab_lock_acquire(&s->lock, &c);
		_exit(0);
	}
	close(pipefd[1]);
	int st;
	waitpid(pid, &st, 0);
	ssize_t n = read(pipefd[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == SPIN_STUCK_EXIT,
	      "stuck lock ends the waiter with exit %d", SPIN_STUCK_EXIT);
	CHECK(strstr(buf, "stuck spinlock (strategy lock)") != NULL,
	      "stuck message names the lock: %.*s", (int)strcspn(buf, "\n"), buf);
	munmap(s, sizeof(*s));
}

/* spins_per_delay adapts up without sleeps and folds into the shared estimate. */
static void test_adaptive(void)
{
	struct shared *s = new_shared(LOCK_TAS, 0);
	spin_backend_start(&s->spin, 3);
	int before = 0, after = 0;
	struct lock_wait w = { 0, 0, 0 };
	bool contended = false;
	/*
	 * Contended but never sleeping: a child releases the lock shortly.  On
	 * a loaded machine the child can release it before this process gets
	 * to its first attempt, and then nothing was contended: try again (an
	 * uncontended acquisition leaves spins_per_delay alone).
	 */
	for (int attempt = 0; attempt < 50 && !contended; attempt++) {
		before = spin_local_spins_per_delay();
		memset(&w, 0, sizeof(w));
		s->lock.tas = 1;
		pid_t pid = fork();
		if (pid == 0) {
			for (volatile int i = 0; i < 100000; i++)
				;
			__atomic_store_n(&s->lock.tas, 0, __ATOMIC_RELEASE);
			_exit(0);
		}
		contended = tas_acquire(&s->lock.tas, &w, "t");
		waitpid(pid, NULL, 0);
		after = spin_local_spins_per_delay();
		__atomic_store_n(&s->lock.tas, 0, __ATOMIC_RELEASE);
	}
	CHECK(contended && (w.sleeps > 0 || after == before + 100),
	      "spins_per_delay %d -> %d after a contended acquisition with %llu sleeps", before,
	      after, (unsigned long long)w.sleeps);
	spin_backend_exit(&s->spin);
	CHECK(s->spin.spins_per_delay == (100 * 15 + after) / 16,
	      "shared estimate folded as (15*old+new)/16: %d", s->spin.spins_per_delay);
	munmap(s, sizeof(*s));
}

/*
 * spin_shared_fix (bufbench --spins-per-delay fixed:N): every wait spins
 * exactly N times between sleeps, an acquisition that slept does not
 * lower it (adaptive: -1), and the shared estimate stays N at exit.
 */
static void test_fixed(void)
{
	enum { N = 500 };
	struct shared *s = new_shared(LOCK_TAS, 0);
	spin_shared_fix(&s->spin, N);
	spin_backend_start(&s->spin, 5);
	CHECK(spin_local_spins_per_delay() == N, "fixed: a backend starts at %d (asked %d)",
	      spin_local_spins_per_delay(), N);
	struct lock_wait w = { 0, 0, 0 };
	s->lock.tas = 1;
	pid_t pid = fork();
	if (pid == 0) {
		usleep(3000);	/* past the first 1 ms sleep of the waiter */
		__atomic_store_n(&s->lock.tas, 0, __ATOMIC_RELEASE);
		_exit(0);
	}
	bool contended = tas_acquire(&s->lock.tas, &w, "t");
	waitpid(pid, NULL, 0);
	CHECK(contended && w.sleeps >= 1, "fixed: the wait slept (%llu sleeps)",
	      (unsigned long long)w.sleeps);
	/* Acquired right after a sleep or during the N spins that follow it. */
	CHECK(w.spins >= w.sleeps * N && w.spins < (w.sleeps + 1) * N,
	      "fixed: %d spins between sleeps (%llu spins, %llu sleeps)", N,
	      (unsigned long long)w.spins, (unsigned long long)w.sleeps);
	CHECK(spin_local_spins_per_delay() == N, "fixed: still %d after a wait that slept "
	      "(adaptive would be %d)", spin_local_spins_per_delay(), N - 1);
	__atomic_store_n(&s->lock.tas, 0, __ATOMIC_RELEASE);
	spin_backend_exit(&s->spin);
	CHECK(s->spin.spins_per_delay == N, "fixed: shared estimate stays %d", s->spin.spins_per_delay);
	/* Back to adaptive: a fresh backend adapts again. */
	spin_shared_fix(&s->spin, 0);
	spin_backend_start(&s->spin, 6);
	CHECK(spin_local_spins_per_delay() == 100 && s->spin.fixed_spins_per_delay == 0,
	      "fix(0): adaptive again from PostgreSQL's 100 (%d)", spin_local_spins_per_delay());
	munmap(s, sizeof(*s));
}

static void test_rseq_reports(void)
{
	char err[256] = "";
	int rc = rseq_slice_enable(err, sizeof(err));
	if (rc == 0)
		CHECK(1, "rseq slice extension enabled on this kernel");
	else
		CHECK(strlen(err) > 20, "rseq unavailable is explained: %s", err);
}

int main(void)
{
	test_exclusion(LOCK_TAS, 50000);
	test_exclusion(LOCK_FUTEX, 50000);
	test_exclusion(LOCK_MCS, 3000);
	test_stuck();
	test_adaptive();
	test_fixed();
	test_rseq_reports();
	return CHECK_DONE();
}
