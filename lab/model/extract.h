/*
 * make model RUN=DIR: the model's inputs (docs/scale.md) from what an
 * EVIDENCE run measured, one group per page size and client count.  Every
 * number keeps the interval its runs support, so a prediction from them
 * carries the measurement's uncertainty.
 */
#ifndef PREEMPTLAB_MODEL_EXTRACT_H
#define PREEMPTLAB_MODEL_EXTRACT_H

#include <stddef.h>
#include <stdio.h>

#include "channels.h"
#include "costs.h"
#include "inputs.h"

#define MX_MAX_GROUPS 32
#define MX_MAX_RUNS 64

/* Exit codes of make model: 3 is the refusal of an in-hold instrument. */
enum { MX_OK = 0, MX_ERR = 2, MX_IN_HOLD = 3 };

struct extract_group {
	char page[16];			/* provenance.page_policy */
	int clients, cpus, hz;
	char hz_source[256];
	char kernel[64], virt[32];
	/* provenance.lab_revision of the group's runs ("a85a679", "-dirty" for
	 * uncommitted changes; several joined by '+'); build/model adds the
	 * hash of a dirty tree's recorded diff. */
	char revision[256];
	int fault_around_pages;		/* provenance's measurement, -1 unknown */
	double pool_pages, block_size;	/* the pool: its descriptors are what faults */
	int runs;
	/* Fill-phase tps of each model's runs. */
	int ntps[PM_COUNT];
	double tps[PM_COUNT][MX_MAX_RUNS];
	/* q_M pooled over a model's runs: faulting holds switched before
	 * release; qb of them blocked inside the fault (the blocked_in_fault
	 * channel's, taken out of q where it is written). */
	double qk[PM_COUNT], qn[PM_COUNT], qb[PM_COUNT];
	double holds, holds_fault;	/* fill holds recorded, and those that faulted */
	double switched;		/* fill holds whose holder went off CPU */
	double m[MX_MAX_RUNS];		/* acquisitions per transaction, per run */
	double t_us[MX_MAX_RUNS];	/* per run: mean off-CPU interval + mean tail gap */
	int nt;
	double offcpu_ns, offcpu_count, tail_us_sum, tail_count;
	double hold_hist[32];		/* fill holds, log2 ns buckets, pooled */
	double fault_ns[MX_MAX_RUNS];	/* provenance.fault_cost_ns, per run */
	int nfault;
	/* X0 per page size (x0page.h): the fill's minor faults per transaction
	 * per run, the segment, and what the same run measured at the other
	 * page sizes (same clients and CPUs; 0: not measured) and its costbench. */
	double fpt[MX_MAX_RUNS];
	int nfpt;
	double segment_bytes;
	double faults_by_page[MI_PAGES];
	struct fault_costs costs;
	/*
	 * The channels besides holder descheduling (channels.h), from the fill
	 * census (docs/evidence.md), indexed by enum channel: per model the
	 * faulting holds the channel stalled (k) of those that could be (n:
	 * the faulting holds of runs whose census traced it); pooled, the
	 * stalls' time (ns) and how many stalls it covers (timed).
	 *   blocked_in_fault: holders switched out blocked inside the fault
	 *     (q's route), their off-CPU time;
	 *   wakeup_latency: holders that slept inside the fault, and the time
	 *     from their wakeup to running again (local and remote);
	 *   tick_span: faulting holds with a tick inside the fault (lazy's
	 *     upgrade; the stall it makes is q's in_fault route, not timed);
	 *   emulator_freeze: frozen holds (no switch: no fault and over 10x
	 *     the median hold, or a fault and over 2x the costbench fault),
	 *     fz_faulted of them with a fault.
	 */
	struct extract_channel {
		double k[PM_COUNT], n[PM_COUNT];
		double ns, timed;
	} ch[CH_COUNT];
	double fz_faulted;
};

struct extract_set {
	int ngroups;
	struct extract_group g[MX_MAX_GROUPS];
	int skipped;			/* documents that are not bufbench EVIDENCE runs */
	int mitigated;			/* cells of a mitigation other than none: left out */
	int twinned;			/* runs whose tps came from their bare twin (CONTROLS) */
	int bare;			/* runs without evidence, counted for tps only (extract_scan_timed) */
};

/*
 * Read every JSON document in RUN/runs.  MX_IN_HOLD (with err naming the document and
 * its instrument) when any run had an instrument inside the hold: its q and
 * T would describe the instrument.  MX_ERR when nothing usable was found.
 */
int extract_scan(const char *rundir, struct extract_set *s, char *err, size_t errlen);

/*
 * For validation, which needs a run's times more than its counts: extract_scan,
 * and where RUN has no evidence at all, its bare bufbench runs (fill tps,
 * acquisitions and faults per transaction; no p_f, q or T: s->bare counts
 * them).
 */
int extract_scan_timed(const char *rundir, struct extract_set *s, char *err, size_t errlen);

/* A group as model-inputs.json; MX_ERR with err when it has no none runs. */
int extract_write(FILE *f, const struct extract_group *g, const char *source, char *err, size_t errlen);

/*
 * The "channels" member (with its trailing comma): each channel some run's
 * census measured, or nothing where none did.  A channel none of whose
 * models saw it has p 0 with its Wilson bound and no t_us; a model with
 * more stalls than faulting holds leaves its channel out.
 */
void extract_write_channels(FILE *f, const struct extract_group *g);

/* The median of a log2-ns histogram in microseconds, and its bucket's edges. */
double extract_hist_median_us(const double *hist, int n, double *lo_us, double *hi_us);

#endif
