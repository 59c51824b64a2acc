/*
 * costbench --procs N[,N...]: what one fault costs when N processes fault
 * on the same shared pages at once (issue 27: the model assumes a fault's
 * own cost does not grow with the number of backends, since page tables
 * and mmap_lock are per process; what they share is the shmem object,
 * its pages' reference counts and the page cache's xarray).
 *
 * The parent writes every page of one MAP_SHARED|MAP_ANONYMOUS object, as
 * the postmaster initialises the pool before forking, then forks N
 * children; they wait at a barrier and each reads one byte per fault-around
 * window (64 KB: one read fault maps the window) in the same order, as
 * backends first-touching the descriptor pages do.  Each touch is timed
 * twice: wall clock (a preempted fault counts its time off CPU: what a
 * lock holder's waiters see) and the thread's CPU clock (the fault's own
 * cost; an empty pair's median is subtracted).  Faults are counted with
 * getrusage around the loop, which touches nothing else shared.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "costbench.h"

#define WINDOW (16L * 4096)	/* fault_around_bytes' default */

struct shared_ctl {
	atomic_int ready;
	atomic_int go;
};

static double clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static long minflt(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Time each touch of n, stride bytes apart (the timed loop, warmed up by the same code). */
__attribute__((noinline)) static void touch_loop(const char *base, long n, long stride, double empty, double *wall, double *cpu)
{
	volatile const char *p = base;
	for (long i = 0; i < n; i++) {
		double w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		(void)p[i * stride];
		double c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID), w1 = clock_ns(CLOCK_MONOTONIC);
		wall[i] = w1 - w0;
		cpu[i] = c1 - c0 - empty;
	}
}

/* One child: wait for the others, fault on every window, report through out. */
static void child(const char *region, long pages, struct shared_ctl *ctl, int nprocs, double *wall_out,
		  double *cpu_out, long *faults_out)
{
	/* Everything the timed loop writes is private and already touched. */
	double *wall = malloc(sizeof(double) * (size_t)pages), *cpu = malloc(sizeof(double) * (size_t)pages);
	if (!wall || !cpu)
		_exit(2);
	memset(wall, 0, sizeof(double) * (size_t)pages);
	memset(cpu, 0, sizeof(double) * (size_t)pages);
	/* Both clocks once before counting: the vDSO's data page faults on first use. */
	double empty[32];
	for (int i = 0; i < 32; i++) {
		double w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		empty[i] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		(void)(clock_ns(CLOCK_MONOTONIC) - w0);
	}
	qsort(empty, 32, sizeof(double), cmp_double);
	atomic_fetch_add(&ctl->ready, 1);
	while (atomic_load(&ctl->ready) < nprocs || !atomic_load(&ctl->go))
		sched_yield();
	/*
	 * The loop once over one private page already touched: nothing faults
	 * in the counted pass but its touches (under qemu-user, translating
	 * the loop's code faults in the emulator itself).
	 */
	static char warm[64];
	memset(warm, 1, sizeof(warm));
	touch_loop(warm, pages, 0, empty[16], wall, cpu);
	long f0 = minflt();
	touch_loop(region, pages, WINDOW, empty[16], wall, cpu);
	long f = minflt() - f0;
	memcpy(wall_out, wall, sizeof(double) * (size_t)pages);
	memcpy(cpu_out, cpu, sizeof(double) * (size_t)pages);
	*faults_out = f;
	_exit(0);
}

static void quantiles(double *v, long n, struct costbench_procs_q *q)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += v[i];
	q->mean = sum / (double)n;
	q->p50 = v[n / 2];
	q->p90 = v[(long)(0.90 * (double)(n - 1))];
	q->p99 = v[(long)(0.99 * (double)(n - 1))];
	q->max = v[n - 1];
}

int costbench_procs_run(int nprocs, long pages, struct costbench_procs *out)
{
	memset(out, 0, sizeof(*out));
	out->procs = nprocs;
	out->pages = pages;
	size_t len = (size_t)(pages * WINDOW);
	size_t rlen = sizeof(struct shared_ctl) + (size_t)nprocs * (size_t)pages * 2 * sizeof(double) +
		      (size_t)nprocs * sizeof(long);
	char *region = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *res = mmap(NULL, rlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED || res == MAP_FAILED) {
		snprintf(out->why, sizeof(out->why), "mmap: %s", strerror(errno));
		return -1;
	}
	/* The pages exist in the shared object before any child maps them. */
	memset(region, 1, len);
	memset(res, 0, rlen);
	struct shared_ctl *ctl = (struct shared_ctl *)res;
	double *wall = (double *)(res + sizeof(*ctl));
	double *cpu = wall + (size_t)nprocs * (size_t)pages;
	long *faults = (long *)(cpu + (size_t)nprocs * (size_t)pages);
	int started = 0, rc = 0;
	pid_t *pids = calloc((size_t)nprocs, sizeof(pid_t));
	if (!pids)
		return -1;
	for (; started < nprocs; started++) {
		pid_t pid = fork();
		if (pid == 0)
			child(region, pages, ctl, nprocs, wall + (size_t)started * (size_t)pages,
			      cpu + (size_t)started * (size_t)pages, &faults[started]);
		if (pid < 0) {
			snprintf(out->why, sizeof(out->why), "fork %d of %d: %s", started + 1, nprocs,
				 strerror(errno));
			rc = -1;
			break;
		}
		pids[started] = pid;
	}
	if (rc == 0) {
		while (atomic_load(&ctl->ready) < nprocs)
			usleep(1000);
		double t0 = clock_ns(CLOCK_MONOTONIC);
		atomic_store(&ctl->go, 1);
		for (int i = 0; i < started; i++) {
			int st;
			if (waitpid(pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				rc = -1;
		}
		out->wall_s = (clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
		if (rc != 0)
			snprintf(out->why, sizeof(out->why), "a child failed");
	} else {
		/* Those started wait at the barrier for a go that never comes. */
		for (int i = 0; i < started; i++) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
	if (rc == 0) {
		long n = (long)nprocs * pages;
		out->each_faulted = 1;
		for (int i = 0; i < nprocs; i++) {
			out->faults += faults[i];
			if (faults[i] != pages)
				out->each_faulted = 0;
		}
		quantiles(wall, n, &out->wall);
		quantiles(cpu, n, &out->cpu);
	}
	free(pids);
	munmap(region, len);
	munmap(res, rlen);
	return rc;
}
