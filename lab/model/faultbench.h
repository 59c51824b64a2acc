/*
 * The many-process fault microbenchmark (costbench --procs, lab/costbench/
 * procs.c) as predict --extrapolate uses it: the fault-duration rule says a
 * fault's own cost does not grow with the number of backends; the sweep
 * measures how it does grow, and predict moves the inputs' fault durations
 * (and the mapping-fault cost of X0 per page size) by the growth of the
 * median per-fault CPU time from the measured clients to the target's.
 */
#ifndef PREEMPTLAB_MODEL_FAULTBENCH_H
#define PREEMPTLAB_MODEL_FAULTBENCH_H

#include <stdbool.h>
#include <stddef.h>

#define FB_MAX 16

struct faultbench_sweep {
	int n;
	double procs[FB_MAX];
	double cpu_p50_ns[FB_MAX];	/* the fault's own cost */
	double wall_p99_ns[FB_MAX];	/* with time off CPU: for the reader */
	char source[160];
};

/* A costbench --procs document; false with err (not one, no points, bad order). */
bool faultbench_read(const char *path, struct faultbench_sweep *s, char *err, size_t errlen);

/*
 * The median fault CPU time at n processes: log-linear in n between the
 * measured counts, the nearest measured count outside them (*clamped set).
 */
double faultbench_cpu_at(const struct faultbench_sweep *s, double n, bool *clamped);

/* faultbench_cpu_at(to) / faultbench_cpu_at(from). */
double faultbench_growth(const struct faultbench_sweep *s, double from, double to, bool *clamped);

#endif
