/*
 * costbench --remote-wake N: how long a task woken from another CPU waits
 * to run on a CPU that is busy in user space, under the running model
 * (issue 36, item 5; docs/measurements/2026-12-07-remote-wake-ipi.md).
 *
 * Under lazy, a fair-class wakeup that should preempt sets only
 * TIF_NEED_RESCHED_LAZY, and __resched_curr() sends no IPI for it: the
 * target acts at its next kernel entry, its tick if it stays in user
 * space.  Under none and full the same wakeup sends the IPI at once.  A
 * backend spinning in s_lock is such a target, and a PostgreSQL semaphore
 * or futex wake (LWLock release) is such a wakeup.
 *
 * The wakee (SCHED_OTHER) is pinned to the target CPU and sleeps on a
 * futex; the waker, this process, is pinned to another.  Each trial the
 * waker waits until the wakee says it will sleep, then sleeps 200 us and
 * a drawn 0-2 ms (so that the wakes fall evenly over the target's tick
 * period), reads the clock and wakes it, then sleeps until the wakee has
 * run; the wakee reads the clock when it runs.  Four arms:
 *   - idle spinner: the target runs a SCHED_IDLE task spinning in user
 *     space, which a normal wakee always preempts (wakeup_preempt_fair):
 *     EEVDF's choice is certain, the model's bit and IPI are left;
 *   - fair spinner: the spinner is SCHED_OTHER, as a spinning backend,
 *     and EEVDF decides too (slice protection may defer the wakee);
 *   - idle target: nothing runs there, the control: the target does the
 *     wakeup in its own IPI (the wakelist) under every model;
 *   - idle spinner, waker spins: as the first, but the waker busy-waits
 *     through the drawn wait and for the wakee instead of sleeping.  On
 *     hardware that changes nothing.  Under single-threaded icount the
 *     vCPUs take turns on one host thread, and an interrupt raised for
 *     another vCPU from the running one waits for the running one's turn
 *     to end (its next timer deadline, or its idling): the emulator's own
 *     delay, named by the difference between this arm and the first.
 * The waker does the wakeup itself only where the two CPUs share a
 * last-level cache (ttwu_queue_cond); the document records what the
 * cache topology says.
 */

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "costbench.h"
#include "provenance.h"

const struct costbench_remote_arm costbench_remote_arms[CB_REMOTE_ARMS] = {
	{ "idle_spinner", SCHED_IDLE, true },
	{ "fair_spinner", SCHED_OTHER, true },
	{ "idle_target", -1, true },
	{ "idle_spinner_waker_spins", SCHED_IDLE, false },
};

/* The wakes are drawn over this, twice the longest tick period measured
 * against (HZ 1000's 1 ms). */
#define DELAY_SPAN_NS 2000000
/* The wakee sleeps within this of saying it will (a futex_wait's
 * entry); the waker leaves it that long, without looking at it (reading
 * its /proc state was a system call of the waker's in every trial), and
 * the wakee records whether it slept. */
#define SETTLE_NS 200000
/* A wakee that has not run this long after its wake has been lost. */
#define STUCK_NS 5000000000LL

struct remote_shared {
	_Atomic uint32_t go;		/* futex word: the trial the wakee may take */
	_Atomic uint32_t waiting;	/* the trial it is going to sleep for */
	_Atomic uint32_t done;		/* futex word: the trial it has run for */
	_Atomic int64_t woke_ns;
	_Atomic int woke_cpu;
	_Atomic int slept;		/* its wait did switch it out */
	_Atomic int spinning;		/* the spinner has its policy and runs */
	_Atomic int stop_spinner;
	_Atomic int quit;
};

static _Noreturn void wakee(struct remote_shared *s, int cpu)
{
	if (costbench_pin_to(cpu) != 0)
		_exit(3);
	for (uint32_t t = 1;; t++) {
		long nv = costbench_switches(true);
		atomic_store(&s->waiting, t);
		while (atomic_load(&s->go) < t)
			costbench_futex_wait(&s->go, t - 1, NULL);
		atomic_store(&s->woke_ns, costbench_now_ns());
		atomic_store(&s->woke_cpu, sched_getcpu());
		atomic_store(&s->slept, costbench_switches(true) > nv);
		atomic_store(&s->done, t);
		costbench_futex_wake(&s->done);
		if (atomic_load(&s->quit))
			_exit(0);
	}
}

/* Spins in user space on the target, as a backend in s_lock does. */
static _Noreturn void spinner(struct remote_shared *s, int cpu, int policy)
{
	struct sched_param sp = { 0 };
	if (costbench_pin_to(cpu) != 0 || sched_setscheduler(0, policy, &sp) != 0)
		_exit(3);
	atomic_store(&s->spinning, 1);
	while (!atomic_load(&s->stop_spinner))
		;
	_exit(0);
}

/* Waits until *word reaches n; false past STUCK_NS. */
static bool await(_Atomic uint32_t *word, uint32_t n)
{
	int64_t until = costbench_now_ns() + STUCK_NS;
	while (atomic_load(word) < n)
		if (costbench_now_ns() > until)
			return false;
	return true;
}

/* As await, asleep on the futex: the waker's CPU idles meanwhile. */
static bool await_sleeping(_Atomic uint32_t *word, uint32_t n)
{
	int64_t until = costbench_now_ns() + STUCK_NS;
	static const struct timespec tenth = { 0, 100000000 };
	for (uint32_t v; (v = atomic_load(word)) < n;) {
		costbench_futex_wait(word, v, &tenth);
		if (costbench_now_ns() > until)
			return false;
	}
	return true;
}

/* One arm's trials, numbered from *n on. */
static int run_arm(struct remote_shared *s, int arm, int trials, uint32_t *n,
		   uint64_t *seed, struct costbench_remote *r)
{
	const struct costbench_remote_arm *how = &costbench_remote_arms[arm];
	pid_t spin_pid = 0;
	if (how->spinner_policy >= 0) {
		atomic_store(&s->spinning, 0);
		atomic_store(&s->stop_spinner, 0);
		if ((spin_pid = fork()) < 0) {
			snprintf(r->arm_why[arm], sizeof(r->arm_why[arm]), "fork: %s", strerror(errno));
			return 0;
		}
		if (spin_pid == 0)
			spinner(s, r->target_cpu, how->spinner_policy);
		int status;
		while (!atomic_load(&s->spinning))
			if (waitpid(spin_pid, &status, WNOHANG) == spin_pid) {
				snprintf(r->arm_why[arm], sizeof(r->arm_why[arm]),
					 "the spinner could not take its CPU or policy");
				return 0;
			}
	}
	int rc = 0;
	if (r->trace_ipis && !r->trace_why[0])
		costbench_ipi_trace_on(true);
	struct irq_counts before = irq_counts_read(r->target_cpu);
	for (int i = 0; i < trials; i++) {
		struct costbench_remote_trial *t = &r->trial[arm][i];
		uint32_t k = ++*n;
		if (!await(&s->waiting, k)) {
			snprintf(r->why, sizeof(r->why), "the wakee did not come back to wait (trial %u)", k);
			rc = -1;
			break;
		}
		t->delay_ns = (int64_t)(costbench_uniform(seed) * DELAY_SPAN_NS);
		int64_t at = costbench_now_ns() + SETTLE_NS + t->delay_ns;
		/* A sleeping waker's CPU idles until the wake, so that nothing it
		 * raised before is still pending on the target's side then: under
		 * icount an interrupt raised from one vCPU waits for that vCPU's
		 * turn to end. */
		if (how->waker_sleeps) {
			struct timespec ts = { at / 1000000000, at % 1000000000 };
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
		}
		while (costbench_now_ns() < at)
			;
		int64_t t0 = costbench_now_ns();
		atomic_store(&s->go, k);
		costbench_futex_wake(&s->go);
		if (!(how->waker_sleeps ? await_sleeping(&s->done, k) : await(&s->done, k))) {
			snprintf(r->why, sizeof(r->why), "the wakee did not run within 5 s of its wake (trial %u)", k);
			rc = -1;
			break;
		}
		t->latency_ns = atomic_load(&s->woke_ns) - t0;
		t->cpu = atomic_load(&s->woke_cpu);
		t->asleep = atomic_load(&s->slept);
		r->ntrials[arm]++;
	}
	struct irq_counts after = irq_counts_read(r->target_cpu);
	if (r->trace_ipis && !r->trace_why[0]) {
		costbench_ipi_trace_on(false);
		costbench_ipi_trace_collect(r->target_cpu, r->wakee_pid, &r->senders[arm]);
	}
	r->ipis[arm] = irq_counts_delta(before, after);
	if (spin_pid > 0) {
		atomic_store(&s->stop_spinner, 1);
		waitpid(spin_pid, NULL, 0);
	}
	return rc;
}

/* The first two CPUs this process may run on: target, then waker. */
static int pick_cpus(struct costbench_remote *r)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		snprintf(r->why, sizeof(r->why), "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	r->target_cpu = r->waker_cpu = -1;
	for (int c = 0; c < CPU_SETSIZE && r->waker_cpu < 0; c++)
		if (CPU_ISSET(c, &set)) {
			if (r->target_cpu < 0)
				r->target_cpu = c;
			else
				r->waker_cpu = c;
		}
	if (r->waker_cpu < 0) {
		snprintf(r->why, sizeof(r->why),
			 "needs two CPUs and may use %d (a guest: VCPUS=2 or more)", CPU_COUNT(&set));
		return -1;
	}
	return 0;
}

int costbench_remote_run(int trials, bool trace, struct costbench_remote *r)
{
	memset(r, 0, sizeof(*r));
	r->trace_ipis = trace;
	if (pick_cpus(r) != 0)
		return -1;
	costbench_llc_shared(r);
	r->hrtick = prov_sched_hrtick();
	struct remote_shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED) {
		snprintf(r->why, sizeof(r->why), "mmap: %s", strerror(errno));
		return -1;
	}
	memset(s, 0, sizeof(*s));
	if (costbench_pin_to(r->waker_cpu) != 0) {
		snprintf(r->why, sizeof(r->why), "pinning to CPU %d: %s", r->waker_cpu, strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		wakee(s, r->target_cpu);
	r->wakee_pid = (int)pid;
	if (trace && costbench_ipi_trace_open(r->trace_why, sizeof(r->trace_why)) != 0)
		fprintf(stderr, "costbench: --trace-ipis: %s\n", r->trace_why);
	uint64_t seed = 0x2545f4914f6cdd1dull;
	uint32_t n = 0;
	int rc = 0;
	for (int arm = 0; arm < CB_REMOTE_ARMS && rc == 0; arm++)
		rc = run_arm(s, arm, trials, &n, &seed, r);
	atomic_store(&s->quit, 1);
	atomic_store(&s->go, n + 1);
	costbench_futex_wake(&s->go);
	if (rc != 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (trace && !r->trace_why[0])
		costbench_ipi_trace_close();
	munmap(s, sizeof(*s));
	return rc;
}
