/*
 * Mitigations of the fill phase's first-touch faults under the strategy
 * lock (issue 26, docs/mitigations.md).  Four of them are another value of
 * a dimension the lab already had (rseq: the lock; hugepages: the page
 * size; pg19 and partitioned: the strategy) and only set it; two are new
 * code: prefault (here) and touch-before-lock (freelist.c).
 */
#ifndef PREEMPTLAB_MITIGATION_H
#define PREEMPTLAB_MITIGATION_H

#include <stddef.h>
#include <stdint.h>

enum mitigation_kind {
	MIT_NONE, MIT_PREFAULT, MIT_TOUCH, MIT_RSEQ, MIT_HUGEPAGES, MIT_PG19, MIT_PARTITIONED
};

struct mitigation {
	enum mitigation_kind kind;
	long param;		/* rseq:N's microseconds, partitioned:N's parts */
};

/* "none", "rseq:20", ...; -1 on anything else (or rseq outside 5..50 us). */
int mitigation_parse(const char *s, struct mitigation *m);
/* "rseq:20", "partitioned:8", "prefault". */
void mitigation_name(const struct mitigation *m, char *out, size_t len);

/* What one backend's prefault cost it. */
struct prefault_cost {
	uint64_t ns;		/* the madvise, wall clock: a loaded machine's preemptions included */
	uint64_t cpu_ns;	/* the madvise, this thread's CPU time: the work itself */
	uint64_t pages;		/* base pages of the range */
	int64_t pte_kb;		/* VmPTE after minus before (page-table pages are 4 KB: coarse) */
	int err;		/* errno of a failed madvise, else 0 */
};

/*
 * Populate this process's page tables for [addr, addr + len) without
 * writing anything (MADV_POPULATE_READ, Linux 5.14): afterwards no touch
 * of the range takes a minor fault, inside the lock or out.
 */
void mitigation_prefault(void *addr, size_t len, struct prefault_cost *c);

/* VmPTE of this process in kB (/proc/self/status), or -1. */
long vm_pte_kb(void);

#endif
