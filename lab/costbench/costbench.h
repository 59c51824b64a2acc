/*
 * costbench: what one page fault and one system call cost under the
 * running preemption model, in one process with nothing to contend with
 * (issue 24).  Run once per model in the same boot, it separates the
 * model's own cost per operation from its scheduling effect: a model that
 * adds instructions to the fault or syscall path loses throughput under
 * icount (where virtual time is instructions) whether or not it ever
 * preempts a lock holder.
 */
#ifndef PREEMPTLAB_COSTBENCH_H
#define PREEMPTLAB_COSTBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "census.h"
#include "interrupts.h"

#define CB_MAX_BATCHES 256

/* Where the instruction counts come from (docs/json-costbench.md). */
enum costbench_instr_source {
	CB_INSTR_NONE,		/* clock only */
	CB_INSTR_PERF,		/* perf_event PERF_COUNT_HW_INSTRUCTIONS, user and kernel */
	CB_INSTR_ICOUNT,	/* QEMU icount: virtual ns >> shift */
};

struct costbench_counter {
	enum costbench_instr_source source;
	int fd;			/* perf: the counter */
	int icount_shift;	/* icount: one instruction is 2^shift ns */
	char why[160];		/* why perf is not the source */
};

/* One operation's batches: per-operation ns and instructions in each. */
struct costbench_op {
	const char *name;
	bool available;
	char why[160];		/* when not available */
	long per_batch;		/* operations timed per batch */
	int nbatches;
	double ns[CB_MAX_BATCHES];
	double instr[CB_MAX_BATCHES];	/* -1 when the counter has none */
	/* Minor faults per operation, over all batches (getrusage). */
	double minflt_per_op;
	bool each_faulted;	/* fault ops: every touch took exactly one fault */
};

struct costbench_summary {
	double median, p25, p75, min, max;
};

/* Order statistics of n values (n >= 1); values are left sorted. */
void costbench_summarize(double *v, int n, struct costbench_summary *s);

void costbench_counter_open(struct costbench_counter *c);
/* Instructions so far on this counter (perf) or -1; icount derives from ns. */
int64_t costbench_counter_read(const struct costbench_counter *c);

struct costbench_config {
	int batches;
	long fault_pages;	/* 4 KB faults per batch */
	long hp_pages;		/* 2 MB faults per batch */
	long syscalls;		/* system calls per batch */
};

/* The operations; each fills op (name, batches, availability). */
void costbench_fault_4k_alloc(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_fault_4k_map(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_fault_2m_alloc(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_fault_2m_map(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_getppid(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_sched_yield(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);
void costbench_pread_4k(struct costbench_op *op, const struct costbench_config *cfg, const struct costbench_counter *c);

/* costbench --procs (procs.c): N processes faulting on one shared object at once. */
struct costbench_procs_q {
	double mean, p50, p90, p99, max;	/* ns per fault */
};
struct costbench_procs {
	int procs;
	long pages;		/* fault-around windows each process touches */
	long faults;		/* minor faults the processes took in their loops */
	int each_faulted;	/* every process: exactly one fault per touch */
	double wall_s;		/* from the barrier's go to the last exit */
	struct costbench_procs_q wall;	/* wall clock per touch: time off CPU included */
	struct costbench_procs_q cpu;	/* the thread's CPU clock: the fault's own cost */
	char why[160];
};
#define CB_PROCS_MAX 16
int costbench_procs_run(int nprocs, long pages, struct costbench_procs *out);

/* sync.c: what the two-process tests share. */
int64_t costbench_now_ns(void);
/* Sleeps while *W is VAL, at most TIMEOUT (NULL: no limit). */
struct timespec;
void costbench_futex_wait(_Atomic uint32_t *w, uint32_t val, const struct timespec *timeout);
void costbench_futex_wake(_Atomic uint32_t *w);
int costbench_pin_to(int cpu);
double costbench_uniform(uint64_t *x);	/* xorshift64*: [0, 1), the same sequence everywhere */
int costbench_cmp_i64(const void *a, const void *b);
/* The calling thread's context switches so far (getrusage RUSAGE_THREAD):
 * voluntary (it slept) or involuntary (it was preempted). */
long costbench_switches(bool voluntary);

/* costbench --wake-in-fault (wake.c): a wakeup timed into a holder's fault. */
#define CB_WAKE_MAX 1000
struct costbench_wake_trial {
	int64_t wake_after_touch_ns;	/* the competitor's timer, from the touch's start */
	int64_t touch_ns;		/* the touch as the holder timed it (time off CPU included) */
	bool off_cpu_before_release;	/* the competitor ran while the holder held */
	long involuntary_switches;	/* the holder's, over the trial */
	bool yielded;			/* granted an extension and gave it back in time */
	const char *outcome;		/* the extension: not_needed, granted, revoked */
	int64_t touch_at_ns, release_at_ns;	/* CLOCK_MONOTONIC: the hold, for a trace's census */
	/* --contend-page alloc|map: the competitor, woken, read the holder's page. */
	bool competitor_blocked;	/* it slept in that read (a voluntary switch) */
	int64_t competitor_read_ns;	/* the read, as the competitor timed it */
};
/* The competitor's class: an RT wakeup asks for the CPU with
 * resched_curr under every model; a fair one with resched_curr_lazy, which
 * lazy leaves to the tick or the return to user. */
enum wake_competitor { WAKE_FIFO, WAKE_FAIR };
/* --contend-page: the competitor, woken, reads the page the holder is
 * faulting on; a holder preempted while its fault holds that page's folio
 * lock makes it sleep on the lock (issue 36, item 5's folio channel).
 * alloc: the holder's fault allocates the page (its first touch anywhere);
 * map: the page exists and the fault maps it, as a backend's first touch
 * of a shared buffer page another process made. */
enum contend_page { CONTEND_OFF, CONTEND_ALLOC, CONTEND_MAP };
extern const char *const contend_page_name[3];
struct costbench_wake_opts {
	int trials;			/* an arm */
	enum wake_competitor competitor;
	enum contend_page contend_page;
	/* --trace on: trace the trials with the channel census's events, keep
	 * them as PREFIX.trace and PREFIX.holds, census them (wake_trace.c). */
	const char *trace_dump;
};
struct costbench_wake {
	char why[200];			/* costbench_wake_run's -1: why the test could not run */
	enum wake_competitor competitor;
	int cpu;
	int64_t fault_ns;		/* the touch's median alone: the fault's own length */
	bool request_available;		/* the slice-requested arm ran */
	char request_why[200];
	int ntrials[2];			/* plain, slice requested */
	struct costbench_wake_trial trial[2][CB_WAKE_MAX];
	enum contend_page contend_page;
	int holder_pid;
	/* --trace on: the trials' trace and its census (every trial, both arms). */
	bool traced;
	char trace_why[200];		/* why not, when asked */
	uint64_t trace_events, trace_lost;
	struct census_phase census;
};
int costbench_wake_run(const struct costbench_wake_opts *o, struct costbench_wake *w);
/* wake_trace.c: the instance around the trials, and what it saw. */
struct tracefs;
int costbench_wake_trace_open(struct tracefs *t, const char *lo, size_t len, struct costbench_wake *w);
void costbench_wake_trace_close(struct tracefs *t, const char *prefix, struct costbench_wake *w);
/* costbench --remote-wake (remote_wake.c): a wakeup from another CPU. */
#define CB_REMOTE_MAX 1000
#define CB_REMOTE_ARMS 4
/* An arm: what runs on the target, and what the waker does after its wake. */
struct costbench_remote_arm {
	const char *name;
	int spinner_policy;	/* SCHED_IDLE, SCHED_OTHER, or -1: the target idles */
	bool waker_sleeps;	/* blocks until the wakee ran, else busy-waits */
};
extern const struct costbench_remote_arm costbench_remote_arms[CB_REMOTE_ARMS];
/* cpu_facts.c: R's llc_shared and llc_source from the cache topology. */
struct costbench_remote;
void costbench_llc_shared(struct costbench_remote *r);
/* A wake is late past this: a tenth of the shortest tick period (HZ 1000). */
#define CB_REMOTE_LATE_NS 100000
struct costbench_remote_trial {
	int64_t delay_ns;		/* drawn wait between "asleep" and the wake */
	int64_t latency_ns;		/* from the waker's clock read to the wakee's */
	int cpu;			/* where the wakee ran */
	bool asleep;			/* it had switched out when woken: a wakeup, not a no-op */
};
/* ipi_sources.c: the senders of the target's interrupts over an arm. */
#define CB_IPI_SOURCES 16
/* Events counted by a pair of names (a sender's callsite and callback, an
 * entry's event and handler). */
struct costbench_tally {
	char what[96], detail[96];
	long n;
};
struct costbench_ipi_trace {
	bool traced;
	char why[200];
	int nsrc;
	struct costbench_tally src[CB_IPI_SOURCES];	/* callsite, callback */
	long other;			/* events past CB_IPI_SOURCES senders */
	uint64_t lost;			/* events the ring buffer lost */
	/* The target's own kernel entries: interrupt handlers by name, arm64's
	 * IPI reasons, x86's vectors (event, name). */
	int nentry;
	struct costbench_tally entry[CB_IPI_SOURCES];
	/* The wakee's sched_wakeup events by the CPU that did them. */
	long woken_on_target, woken_elsewhere;
};
int costbench_ipi_trace_open(char *err, size_t len);
void costbench_ipi_trace_on(bool on);
void costbench_ipi_trace_collect(int target_cpu, int wakee_pid, struct costbench_ipi_trace *out);
void costbench_ipi_trace_close(void);

struct costbench_remote {
	char why[200];			/* costbench_remote_run's -1: why the test could not run */
	bool trace_ipis;		/* asked: name the senders (--trace-ipis) */
	char trace_why[200];		/* why they could not be traced */
	int target_cpu, waker_cpu, wakee_pid;
	/* Do the two CPUs share a last-level cache (sysfs cache topology)? */
	const char *llc_shared;		/* yes, no, unknown */
	char llc_source[200];
	const char *hrtick;		/* sched/features HRTICK: on, off, unknown */
	int ntrials[CB_REMOTE_ARMS];
	struct irq_counts ipis[CB_REMOTE_ARMS];	/* the target's, over each arm */
	struct costbench_ipi_trace senders[CB_REMOTE_ARMS];
	char arm_why[CB_REMOTE_ARMS][160];	/* an arm that could not run */
	struct costbench_remote_trial trial[CB_REMOTE_ARMS][CB_REMOTE_MAX];
};
int costbench_remote_run(int trials, bool trace_ipis, struct costbench_remote *r);
int costbench_remote_main(int trials, bool trace_ipis, const char *out, int argc, char **argv);

/* doc.c: every document's provenance (PAGE_POLICY the pages it faults)
 * and its opening, tool, schema and provenance, to OUT (stdout if NULL);
 * NULL, said on stderr, when OUT cannot be written. */
struct provenance;
struct json;
void costbench_provenance(struct provenance *prov, int argc, char **argv, const char *page_policy);
FILE *costbench_doc_begin(struct json *j, const char *out, const struct provenance *prov);
/* A two-process test's document (4 KB pages): its opening, then mode and
 * available (why, when not NULL, says why not); costbench_doc_end closes it and
 * returns the mode's exit code (1 for a document that could not be
 * written, else rc != 0). */
FILE *costbench_mode_begin(struct json *j, const char *out, int argc, char **argv, const char *mode,
		    const char *why);
int costbench_doc_end(struct json *j, FILE *f, const char *out, int rc);

/* The mode's whole run: the test, then its document to OUT (wake_doc.c). */
int costbench_wake_main(const struct costbench_wake_opts *o, const char *out, int argc, char **argv);

#endif
