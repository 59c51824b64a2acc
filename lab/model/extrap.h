/*
 * The extrapolation rules (issue 27, part 5; docs/scale.md): inputs
 * measured at a few CPUs moved to another size, page size or pool, each
 * rule stated so that a failed prediction says which rule failed.
 *
 * p_f: a backend faults once per fault window of W descriptors (the
 *   fault-around pages, or one huge page, of 64-byte descriptors); with N
 *   backends interleaving their pops at random, a backend's pops in a
 *   window are Poisson with mean W/N, so the share of pops that are its
 *   first there is (N / W) (1 - e^(-W / N)).  The window holding the lock
 *   is faulted by the acquire's own TAS, outside the hold: times
 *   (windows - 1) / windows.  Few CPUs let one backend pop several times in
 *   a row: the pops come in runs of mean length L, and only a backend's
 *   first run in a window faults, so p_f = (N / W)(1 - e^(-W / (L N)))
 *   (L = 1 is the interleaving above).  L is solved from the measured p_f,
 *   moved to the target's runnable per CPU r = N / C as r^(-b) (b fitted on
 *   the 2-CPU cells at 8-256 clients: XR_RUNS_B), then toward 1 as the CPUs
 *   grow, 1 + (L - 1) C_measured / C (more backends running at once merge
 *   their pops); with no measured fault (p_f 0) L is the fit's own curve,
 *   XR_RUNS_A r^(-b) at XR_RUNS_C CPUs.  s = p_f / interleaved is printed.
 * T: a descheduled holder waits behind the others runnable on its CPU:
 *   the off-CPU part scales with runnable per CPU (N / C, at least 1)
 *   times the EEVDF slice (0.70 ms x (1 + ilog2 min(C, 8)), or the
 *   target's base_slice_us where it sets sched/base_slice_ns, rounded up
 *   to whole ticks); the free tail (the waiters' backoff) is kept as
 *   measured.
 * q, m, hold and the fault durations are used as measured: a fault's own
 *   cost does not grow with processes (page tables and mmap_lock are per
 *   process; stated assumption, no many-process microbenchmark here).
 * X0 grows with min(N, C) (inputs_x0_at); at another page size it is moved by
 *   the faults' own cost first (x0page.h).
 */
#ifndef PREEMPTLAB_MODEL_EXTRAP_H
#define PREEMPTLAB_MODEL_EXTRAP_H

#include <stddef.h>

#include "inputs.h"
#include "x0page.h"

/*
 * The run-length fit: ln L = ln A - B ln(N / C) by least squares over the
 * 2-CPU cells of docs/model/validation-612*, docs/model/calibrated-4k.json
 * (6.12, icount, pool 8192; L solved from each measured p_f: 48.8, 19.7,
 * 9.5 and 10.0, 5.0 at 8, 21, 64, 64, 256 clients).  test_model_extract
 * refits it from those files.
 */
#define XR_RUNS_A 102.37
#define XR_RUNS_B 0.6508
#define XR_RUNS_C 2

struct extrap_target {
	int cpus, clients, hz;
	char page[16];			/* "4k", "2m", "1g" */
	double pool_pages;		/* buffers (8 KB each in the lab; PG's too) */
	int fault_around_pages;		/* 4 KB pages a read fault maps (4k only) */
	double faults_per_txn;		/* > 0: the target's, for X0 per page size */
	double fault_map_scale;		/* > 0: many-process growth of a mapping fault */
	double base_slice_us;		/* > 0: sched/base_slice_ns as set (BASE_SLICE_US) */
};

/* What each rule did, for printing beside the prediction. */
struct extrap_trace {
	double w_measured, w_target;	/* descriptors per fault window */
	double pf_raw_measured, pf_raw_target;
	double s_measured, s_target;	/* p_f / interleaved, for the reader */
	double l_measured, l_target;	/* pops per run */
	int l_from_fit;			/* no measured fault: L from the fit's curve */
	int x0_moved;			/* X0 moved to another page size (x0 below) */
	char x0_why[384];		/* why not, when a move was asked and not made */
	struct x0page_trace x0;
	double slice_measured_ms, slice_target_ms;
	double run_measured, run_target;	/* runnable per CPU */
	double t_offcpu_target_us, t_target_us;
};

/*
 * The regression report's configuration (FACTS 1): 96 vCPUs, 1024
 * clients, shared_buffers 120 GB (15,728,640 buffers of 8 KB), the default
 * fault-around (64 KB, 16 pages).  Its kernel's HZ is not in the report
 * (linux-next, config not published): 250, the upstream default
 * (kernel/Kconfig.hz) and Debian's arm64 setting (linux-base-7.2.13+deb14-arm64
 * 7.2.13-1, /usr/lib/modules/7.2.13+deb14-arm64/config: CONFIG_HZ=250).
 * None ran 98,565.86 tps
 * (the revert); lazy 50,751.96 (0.51x).
 */
#define XR_REPORT_CPUS 96
#define XR_REPORT_CLIENTS 1024
#define XR_REPORT_POOL_PAGES 15728640.0
#define XR_REPORT_FAULT_AROUND 16
#define XR_REPORT_HZ 250
#define XR_REPORT_NONE_TPS 98565.86
#define XR_REPORT_LAZY_RATIO 0.515
void extrap_report_target(struct extrap_target *t, const char *page);

/* Descriptors one fault maps; 0 for an unknown page size. */
double extrap_window(const char *page, int fault_around_pages);
/* The interleaved share of pops that fault, windows with the lock excluded. */
double extrap_pf_raw(double clients, double window, double descriptors);
/* The same with pops in runs of mean length runs (1: extrap_pf_raw). */
double extrap_pf_runs(double clients, double window, double descriptors, double runs);
/* The run length that gives p_f (1 when p_f is at or above interleaved; 0 when p_f is 0). */
double extrap_runs_solve(double clients, double window, double descriptors, double p_f);
/* Least-squares fit of ln L = ln a - b ln r over n points. */
void extrap_runs_fit(const double *r, const double *l, int n, double *a, double *b);
/* EEVDF's base slice at cpus, rounded up to whole ticks, in ms. */
double extrap_slice_ms(int cpus, int hz);

/* A base slice set through debugfs (not scaled by the CPUs), in ticks, in ms. */
double extrap_slice_set_ms(double base_slice_us, int hz);

/* out = in moved to t; -1 with err when in lacks what a rule needs. */
int extrap_apply(const struct model_inputs *in, const struct extrap_target *t, struct model_inputs *out,
	     struct extrap_trace *tr, char *err, size_t errlen);

/*
 * Set X0 so that the closed form gives none xnone tps at cpus/clients
 * (closed_x0_for: 1/X = 1/X_free + k, the lock's capacity in X_free), the
 * interval moved with it.  The lab's X0 is emulated time on 2 CPUs; the
 * report's none tps is the real machine's.  -1 (in unchanged) when no X0
 * gives xnone: none's own stalls and lock service would take more than
 * all the time (X (m s + k) >= 1).
 */
int extrap_anchor_none(struct model_inputs *in, double xnone, int cpus, int clients);

#endif
