/*
 * The kernel's own count of rseq slice extensions: with CONFIG_RSEQ_STATS,
 * /sys/kernel/debug/rseq/stats sums per-CPU counters, among them the grants
 * it made (sgrant), the grants whose timer ran out (sexpir), the ones it
 * took back on the way out (srevok), the rseq_slice_yield() calls that came
 * in time (syield) and the other system calls that ended a grant (sabort).
 * Read around a run, they check bufbench's count from user space against
 * the kernel's; they are machine-wide, so only a machine that runs nothing
 * else that uses the extension (a guest) gives the run's own figures.
 */
#ifndef PREEMPTLAB_RSEQ_KSTATS_H
#define PREEMPTLAB_RSEQ_KSTATS_H

#include <stdbool.h>
#include <stdint.h>

#define RSEQ_KSTATS_PATH "/sys/kernel/debug/rseq/stats"

struct rseq_kstats {
	bool valid;
	uint64_t granted, expired, revoked, yielded, aborted;
};

/* Parse the stats file's text; false when it has no slice counters. */
bool rseq_kstats_parse(const char *text, struct rseq_kstats *s);

/* Read RSEQ_KSTATS_PATH; s->valid false when it cannot be read. */
void rseq_kstats_read(struct rseq_kstats *s);

/* after - before, counter by counter; invalid unless both are valid. */
struct rseq_kstats rseq_kstats_delta(const struct rseq_kstats *before,
				     const struct rseq_kstats *after);

#endif
