/*
 * The kernel's tick, from its build configuration: CONFIG_HZ and the
 * tickless mode.  The models differ by when a resched request is acted
 * on, and lazy's is promoted only at the next tick, so a model comparison
 * means nothing without the tick it ran under (7.2-lab is built HZ 1000,
 * Debian's kernels HZ 250).  A running kernel does not say its HZ; its
 * config does: the one the plan shipped with a guest (--unit-conf's
 * kernel_config), /boot/config-RELEASE, or /proc/config.gz.
 */
#ifndef PREEMPTLAB_TICK_OF_KERNEL_H
#define PREEMPTLAB_TICK_OF_KERNEL_H

#include <stddef.h>
#include <stdio.h>

struct kernel_tick {
	int hz;			/* CONFIG_HZ; -1 unknown */
	char nohz[16];		/* "full", "idle", "periodic", or "unknown" */
	char source[512];	/* the file read, or "unknown: <why>" */
};

/* Parse a config's text (CONFIG_HZ=N, CONFIG_NO_HZ_FULL=y, CONFIG_NO_HZ_IDLE=y,
 * CONFIG_HZ_PERIODIC=y): fills hz and nohz; 0 when CONFIG_HZ was found, else -1. */
int kernel_tick_parse(FILE *f, struct kernel_tick *t);

/*
 * Read the first readable of the paths (NULL ends the list; a name
 * ending ".gz" is read through gzip -dc): source names it; when none is
 * readable or none has CONFIG_HZ, hz is -1 and source says why.  0 when
 * CONFIG_HZ was read, else -1.
 */
int kernel_tick_read(const char *const *paths, struct kernel_tick *t);

/*
 * Where no config says it (Debian's 7.0 linux-binary ships none): jiffies
 * counted over about 200 ms of the kernel's own clock, both from
 * /proc/timer_list (root), snapped to the nearest CONFIG_HZ choice (100,
 * 250, 300, 1000) when within 5% of it (taken again, up to three times,
 * when it is not).  why: the configs' reason, kept
 * in source.  0 when measured, else -1 with source saying why.
 */
int kernel_tick_measure(struct kernel_tick *t, const char *why);

/* From two /proc/timer_list texts' "now at N nsecs" and first "jiffies: N"
 * lines: the jiffies rate per second, or -1 when either lacks them. */
double kernel_tick_rate(const char *before, const char *after);

#endif
