/*
 * EEVDF's slice, as the model's closed form (extrap.c) and its simulation
 * (sim.c) both take it.
 */
#ifndef PREEMPTLAB_MODEL_EEVDF_H
#define PREEMPTLAB_MODEL_EEVDF_H

/*
 * normalized_sysctl_sched_base_slice in kernel/sched/fair.c: 0.70 ms in
 * Debian's 6.12 through 7.2 sources (0.75 ms before 6.12).
 */
#define EEVDF_BASE_SLICE_NS 700000.0

/*
 * The slice at C CPUs as the kernel scales it by default
 * (SCHED_TUNABLESCALING_LOG: 1 + ilog2 min(C, 8)), in ns.
 */
double eevdf_slice_ns(int cpus);

#endif
