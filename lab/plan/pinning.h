/*
 * KVM at scale: which host CPU each vCPU thread is pinned to.  A pure
 * function of the host's CPU topology (read from sysfs, or from a
 * description in `lscpu -p=CPU,SOCKET,CORE` form for planning another
 * machine) and the vCPU count, so it is tested without KVM.
 */
#ifndef PREEMPTLAB_PLAN_PINNING_H
#define PREEMPTLAB_PLAN_PINNING_H

#include <stddef.h>

#define PIN_MAX_CPUS 4096

struct host_cpu {
	int cpu, socket, core;
};

struct host_topology {
	struct host_cpu cpu[PIN_MAX_CPUS];
	int n;
	char source[256];	/* "sysfs" or the description's path */
};

/*
 * Reads "CPU,SOCKET,CORE" lines (# comments skipped), as `lscpu -p=CPU,SOCKET,CORE`
 * prints them.  Returns 0, or -1 with the reason in err.
 */
int topology_parse(const char *text, struct host_topology *t, char *err, size_t errlen);
/* The running machine's online CPUs, from /sys/devices/system/cpu. */
int topology_read_sysfs(struct host_topology *t, char *err, size_t errlen);

/*
 * pin[i] = the host CPU of vCPU i, for vcpus <= t->n: one thread of each
 * physical core first (socket by socket, so a guest smaller than the host
 * stays on as few sockets as it can and no two of its vCPUs share a core),
 * then the cores' second threads in the same order.  Returns 0, or -1 when
 * there are more vCPUs than host CPUs.
 */
int pin_plan(const struct host_topology *t, int vcpus, int *pin);

/* "0-3,8,10-11": the CPU list of pin[0..n) in vCPU order, ranges merged. */
void pin_format(const int *pin, int n, char *buf, size_t len);

#endif
