/*
 * costbench --wake-in-fault N: what a wakeup landing inside a lock
 * holder's page fault does to it, under the running model (issue 36,
 * item 6: the constructed test of kernels/patches/0002).
 *
 * Two processes share one CPU.  The holder (SCHED_OTHER, as a backend)
 * sets a "holding" word, writes one fresh page of a shared anonymous
 * object (a first touch: one minor fault, as a backend reading a buffer
 * descriptor page it has not touched yet), clears the word: its critical
 * section is the fault.  The competitor (SCHED_FIFO, so that its wakeup
 * asks for the CPU at once under every model; or, with --competitor fair,
 * SCHED_OTHER at nice -20, whose wakeup EEVDF lets preempt by its short
 * virtual deadline, but through resched_curr_lazy) sleeps on an absolute
 * hrtimer armed for a chosen instant relative to the touch, and on waking
 * reads the word: set means the holder was taken off the CPU before it
 * released.  Under icount the guest's clock is its instruction count, so
 * the instant is exact and the test is deterministic.
 *
 * Each trial's wake instant is drawn uniformly from a quarter fault
 * before the touch to a quarter fault after it (the fault's length is
 * measured first, without a competitor); the trials whose wake fell
 * inside the fault are the test.  Two arms: the plain one, and one where
 * the holder requests an rseq slice extension before the touch, withdraws
 * after, and yields if granted.  What the models predict for a wake
 * inside the fault:
 *   - plain, every model: off CPU before release (full and lazy inside
 *     the fault, none and voluntary at its return to user mode);
 *   - requested, none and voluntary: the exit grants the extension, the
 *     holder releases and yields first;
 *   - requested, full and lazy (an RT wakeup is not lazy): preempted
 *     inside the fault, where the extension is never consulted;
 *   - requested, a fair waker: full as above; lazy sets only the lazy
 *     bit, which nothing acts on inside the fault (short of a tick), so
 *     the exit grants, as under none;
 *   - requested, with 0002 (KERNEL=7.2-rseqfault) and a fault shorter
 *     than the grant (SLICE_EXT_US): the in-fault preemption waits for the
 *     exit, which grants: released first, as under none.
 * With --contend-page alloc the competitor, once it has read the word,
 * reads the holder's page.  The holder's fault allocates that page's shmem
 * folio and holds its lock while it zeroes and maps it; a competitor that runs while
 * the holder is off CPU inside that stretch finds the folio locked and
 * sleeps in __folio_lock until the holder, run again, unlocks it: the
 * channel issue 36 names (a holder preempted inside its fault stalls the
 * next task to fault on the same page).  Under none the holder finishes
 * the fault, and unlocks, before it can be switched out: never.  The
 * competitor counts its own sleep (a voluntary switch over the read); with
 * --trace on the trace names the folio, its waiter and its holder.  With
 * --contend-page map the pages exist before the trials (made, then
 * unmapped), so the holder's fault only maps one: it holds the folio lock
 * from shmem_get_folio_gfp's folio_lock to the unlock after mapping, a
 * shorter stretch; this is the fault of a backend touching a shared
 * buffer page for the first time, which every backend takes once per page.
 * The document (schema preemptlab.costbench/1, mode wake_in_fault) has
 * every trial and the counts; the report sets the models side by side.
 */

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "costbench.h"
#include "rseq_slice.h"
#include "tracefs.h"

#define CALIBRATION_TOUCHES 16
/* The holder arms the competitor this long before its touch: the
 * competitor's wakeup and sleep happen well before the busy-wait ends. */
#define LEAD_FAULTS 20
#define LEAD_MIN_NS 200000
/* The fair competitor's slice request: the kernel's least (100 us). */
#define FAIR_SLICE_NS 100000
/* --contend-page map: the touched pages this many pages apart, so that the
 * reader's fault-around (64 KB by default) never maps the next trial's. */
#define MAP_STRIDE_PAGES 32

const char *const contend_page_name[3] = { "off", "alloc", "map" };

struct wake_shared {
	_Atomic uint32_t go;		/* futex word: the trial the competitor is to arm */
	_Atomic uint32_t armed;		/* the trial it is sleeping for */
	_Atomic uint32_t done;		/* the trial it has woken for */
	_Atomic int64_t target_ns;	/* CLOCK_MONOTONIC instant of its wakeup */
	_Atomic int holding;		/* the holder's critical section */
	_Atomic int saw_holding;	/* what the competitor read on waking */
	_Atomic int ready;		/* the competitor runs in its class */
	_Atomic int quit;
	/* --contend-page: the page the competitor reads on waking (the same
	 * address in both processes: mapped before the fork), and the read. */
	_Atomic uintptr_t page;
	_Atomic int blocked;
	_Atomic int64_t read_ns;
};

static _Noreturn void competitor(struct wake_shared *s)
{
	for (uint32_t t = 1;; t++) {
		while (atomic_load(&s->go) < t)
			costbench_futex_wait(&s->go, t - 1, NULL);
		if (atomic_load(&s->quit))
			_exit(0);
		int64_t at = atomic_load(&s->target_ns);
		struct timespec ts = { at / 1000000000, at % 1000000000 };
		atomic_store(&s->armed, t);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		atomic_store(&s->saw_holding, atomic_load(&s->holding));
		char *page = (char *)atomic_load(&s->page);
		if (page) {
			/* A read of a page another process is faulting on: it finds
			 * the folio locked only while that fault holds it. */
			long v0 = costbench_switches(true);
			int64_t a = costbench_now_ns();
			(void)*(volatile char *)page;
			atomic_store(&s->read_ns, costbench_now_ns() - a);
			atomic_store(&s->blocked, costbench_switches(true) != v0);
		}
		atomic_store(&s->done, t);
	}
}

/* One trial: arm the competitor for touch + offset, touch, release. */
static void trial(struct wake_shared *s, uint32_t n, char *page, bool contend, int64_t lead,
		  int64_t offset, bool request, struct costbench_wake_trial *t)
{
	int64_t start = costbench_now_ns() + lead;
	atomic_store(&s->target_ns, start + offset);
	atomic_store(&s->page, contend ? (uintptr_t)page : 0);
	atomic_store(&s->go, n);
	costbench_futex_wake(&s->go);
	while (atomic_load(&s->armed) < n)
		;
	long sw0 = costbench_switches(false);
	while (costbench_now_ns() < start)
		;
	if (request)
		rseq_slice_request();
	atomic_store(&s->holding, 1);
	int64_t a = costbench_now_ns();
	*(volatile char *)page = 1;
	int64_t b = costbench_now_ns();
	atomic_store(&s->holding, 0);
	enum rseq_slice_outcome o = request ? rseq_slice_withdraw() : SLICE_NOT_NEEDED;
	t->yielded = o == SLICE_GRANTED && rseq_slice_yield();
	while (atomic_load(&s->done) < n)
		;
	t->wake_after_touch_ns = atomic_load(&s->target_ns) - a;
	t->touch_ns = b - a;
	t->touch_at_ns = a;
	t->release_at_ns = b;
	t->competitor_blocked = contend && atomic_load(&s->blocked);
	t->competitor_read_ns = contend ? atomic_load(&s->read_ns) : 0;
	t->off_cpu_before_release = atomic_load(&s->saw_holding);
	t->involuntary_switches = costbench_switches(false) - sw0;
	t->outcome = o == SLICE_GRANTED ? "granted" : o == SLICE_REVOKED ? "revoked" : "not_needed";
}

static void unavailable(struct costbench_wake *w, const char *what, int err)
{
	snprintf(w->why, sizeof(w->why), "%s: %s", what, strerror(err));
}

/*
 * The competitor's class, set in the child; false when it cannot have it.
 * Fair: nice -20 and EEVDF's shortest slice request (sched_runtime, 6.12
 * on), so that its wakeup may preempt a holder inside its protected slice
 * (RUN_TO_PARITY yields to a shorter slice only: PREEMPT_SHORT), and a
 * timer slack of 1 ns: a fair task's default 50 us would move its wakeup
 * past the fault (an RT task has none).
 */
static bool competitor_class(enum wake_competitor comp)
{
	if (comp == WAKE_FAIR) {
		/* The kernel's struct sched_attr, first version (glibc 2.36 has none). */
		struct {
			uint32_t size, policy;
			uint64_t flags;
			int32_t nice;
			uint32_t priority;
			uint64_t runtime, deadline, period;
		} a = { .size = sizeof(a), .policy = SCHED_OTHER, .nice = -20, .runtime = FAIR_SLICE_NS };
		if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) != 0)
			return false;
		return syscall(SYS_sched_setattr, 0, &a, 0) == 0 || setpriority(PRIO_PROCESS, 0, -20) == 0;
	}
	struct sched_param sp = { .sched_priority = 1 };
	return sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
}

int costbench_wake_run(const struct costbench_wake_opts *o, struct costbench_wake *w)
{
	int trials = o->trials;
	enum wake_competitor comp = o->competitor;
	memset(w, 0, sizeof(*w));
	w->competitor = comp;
	w->contend_page = o->contend_page;
	w->holder_pid = (int)getpid();
	size_t step = (size_t)sysconf(_SC_PAGESIZE) * (o->contend_page == CONTEND_MAP ? MAP_STRIDE_PAGES : 1);
	size_t ntouch = CALIBRATION_TOUCHES + 2 * (size_t)trials;
	char *pages = mmap(NULL, ntouch * step, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct wake_shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED || s == MAP_FAILED) {
		unavailable(w, "mmap", errno);
		return -1;
	}
	memset(s, 0, sizeof(*s));
	w->cpu = sched_getcpu();
	if (w->cpu < 0 || costbench_pin_to(w->cpu) != 0) {
		unavailable(w, "pinning to one CPU", errno);
		return -1;
	}
	/* Before the fork, so that the competitor is traced too (event-fork);
	 * before the calibration, so that fault_ns is the traced fault's. */
	struct tracefs tfs = { 0 };
	if (o->trace_dump && costbench_wake_trace_open(&tfs, pages, ntouch * step, w) != 0)
		fprintf(stderr, "costbench: --trace: %s\n", w->trace_why);
	if (o->contend_page == CONTEND_MAP) {
		/* Make every page, then drop this process's mappings of them (a
		 * shared mapping's MADV_DONTNEED keeps the pages): each touch
		 * below is then a fault that maps an existing page. */
		for (size_t i = 0; i < ntouch; i++)
			*(volatile char *)(pages + i * step) = 1;
		if (madvise(pages, ntouch * step, MADV_DONTNEED) != 0) {
			unavailable(w, "madvise(MADV_DONTNEED)", errno);
			tracefs_close(&tfs);
			return -1;
		}
	}
	/* The fault's own length, with nothing to wake. */
	int64_t cal[CALIBRATION_TOUCHES];
	for (int i = 0; i < CALIBRATION_TOUCHES; i++) {
		int64_t a = costbench_now_ns();
		*(volatile char *)(pages + (size_t)i * step) = 1;
		cal[i] = costbench_now_ns() - a;
	}
	qsort(cal, CALIBRATION_TOUCHES, sizeof(cal[0]), costbench_cmp_i64);
	w->fault_ns = cal[CALIBRATION_TOUCHES / 2];
	int64_t lead = LEAD_FAULTS * w->fault_ns > LEAD_MIN_NS ? LEAD_FAULTS * w->fault_ns : LEAD_MIN_NS;

	char err[200];
	w->request_available = rseq_slice_enable(err, sizeof(err)) == 0;
	if (!w->request_available)
		snprintf(w->request_why, sizeof(w->request_why), "%s", err);

	pid_t pid = fork();
	if (pid < 0) {
		unavailable(w, "fork", errno);
		tracefs_close(&tfs);
		return -1;
	}
	if (pid == 0) {
		if (!competitor_class(comp))
			_exit(3);
		atomic_store(&s->ready, 1);
		competitor(s);
	}
	int status;
	while (!atomic_load(&s->ready)) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			unavailable(w, comp == WAKE_FAIR ? "a nice -20 competitor (needs root or RLIMIT_NICE)" :
				    "a SCHED_FIFO competitor (needs root or RLIMIT_RTPRIO)", EPERM);
			tracefs_close(&tfs);
			return -1;
		}
		sched_yield();
	}
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint32_t n = 0;
	for (int arm = 0; arm < 2; arm++) {
		if (arm == 1 && !w->request_available)
			break;
		for (int i = 0; i < trials; i++) {
			struct costbench_wake_trial *t = &w->trial[arm][i];
			double u = costbench_uniform(&seed) * 1.5 - 0.25;
			char *page = pages + (CALIBRATION_TOUCHES + (size_t)arm * (size_t)trials + (size_t)i) * step;
			trial(s, ++n, page, o->contend_page != CONTEND_OFF, lead, (int64_t)(u * (double)w->fault_ns),
			      arm == 1, t);
			w->ntrials[arm]++;
		}
	}
	atomic_store(&s->quit, 1);
	atomic_store(&s->go, n + 1);
	costbench_futex_wake(&s->go);
	waitpid(pid, &status, 0);
	if (tfs.dir[0])
		costbench_wake_trace_close(&tfs, o->trace_dump, w);
	munmap(pages, ntouch * step);
	munmap(s, sizeof(*s));
	return 0;
}
