/*
 * bufbench: the process-per-client driver of the miniature buffer pool.
 */
#ifndef PREEMPTLAB_BUFBENCH_H
#define PREEMPTLAB_BUFBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "freelist.h"
#include "hold_tail.h"
#include "lab_lock.h"
#include "lock_util.h"
#include "mitigation.h"
#include "pool.h"
#include "provenance.h"
#include "rseq_kstats.h"
#include "trace_join.h"
#include "shmem.h"
#include "lab_vocab.h"


struct bench_opts {
	int clients;
	double duration_s, warmup_s;
	enum workload workload;
	uint64_t relation_bytes, pool_bytes;
	enum page_policy pages;
	enum lab_lock_kind lock;
	enum strategy_kind strategy;
	uint32_t strategy_parts;
	char numa[32];
	long reconnect;
	uint64_t seed;
	const char *json;
	bool instrument;
	bool print_segment_size;
	enum hold_events_mode hold_events;
	uint32_t trace_holds;	/* hold records per client; 0 off */
	bool trace_kernel;	/* --trace-holds: join the records with tracefs */
	const char *trace_dump;	/* --trace-dump PREFIX */
	const char *fault_event;	/* --fault-event: tracepoint | kprobe; NULL: the kernel's best */
	bool trace_channel;	/* --trace-channel: sched_waking and the folio-lock kprobes too */
	uint64_t freeze_fault_ns;	/* --freeze-fault-ns; 0: the run's own reference */
	void *hold_rings;	/* set before fork: clients * hold_ring_bytes(trace_holds) */
	uint32_t freelist_stride;
	double steady_s;	/* 0: run the whole duration */
	double lock_timeout_ms;	/* resilient kinds */
	int fixed_spins_per_delay;	/* --spins-per-delay fixed:N; 0 adaptive */
	long reentrant_hz;	/* SIGPROF rate of the reentrant acquisitions; 0 off */
	struct mitigation mitigation;	/* --mitigation (docs/mitigations.md) */
	char mitigation_name[32];
};

/* Exit codes: documented in --help and docs/bufbench.md. */
#define EXIT_BAD_OPTION 2
#define EXIT_NO_PAGES 3
#define EXIT_RUN_FAILED 4
#define EXIT_RSEQ 5		/* --lock rseq: no time-slice extension here */
#define EXIT_HOLD_EVENTS 6	/* --hold-events: no perf software counters here */
#define EXIT_TRACE_HOLDS 8	/* --trace-holds: no writable tracefs here */
#define EXIT_MITIGATION 9	/* --mitigation: it cannot be had here (prefault, rseq:N's length) */
/* A client's SIGPROF handler needed the lock its interrupted code held (tas). */
#define EXIT_SELF_DEADLOCK 7
/* A client that ends itself to be re-forked (--reconnect). */
#define EXIT_RECONNECT 10

const char *workload_name(enum workload w);
/* Parse argv; on error prints one line and exits EXIT_BAD_OPTION. */
void bench_parse_args(struct bench_opts *o, int argc, char **argv);

/*
 * --mitigation rseq:N: set the slice extension's grant to N us for the run
 * (debugfs rseq/slice_ext_nsec, read back); the old value goes back at
 * exit.  Returns 0, or -1 with the reason in err.
 */
int mitigation_set_slice_ext(long us, char *err, size_t errlen);
void mitigation_restore_slice_ext(void);

/* The body of one client process; never returns. */
_Noreturn void bench_client(struct pool *p, const struct bench_opts *o, uint32_t slot,
			    uint32_t incarnation);

/* Where the measured interval stands relative to the pool's fill. */
enum fill_state {
	FILL_IN_INTERVAL,	/* both phases measured */
	FILL_NOT_REACHED,	/* the pool never filled: fill phase only */
	FILL_BEFORE_INTERVAL,	/* filled during warm-up: steady phase only */
};

enum { PHASE_FILL, PHASE_STEADY };

struct bench_phase {
	bool present;
	double start_s, duration_s;	/* within the measured interval */
	struct backend_stats sum;
	bool tail_valid;		/* hold records were kept (hold_tail.h) */
	struct hold_tail tail;
	struct lock_util util;		/* from the hold records; else json_out uses lockstats */
};

struct bench_result {
	struct backend_stats sum;	/* the whole measured interval */
	struct bench_phase phase[2];
	enum fill_state fill;
	double time_to_fill_s;		/* from the clients' start; < 0: not reached */
	double elapsed_s;
	bool interrupted;
	uint32_t complete_passes;
	double timeline_step_s;
	uint32_t timeline_len;
	uint64_t timeline[TIMELINE_MAX];	/* transactions per step, all backends */
	struct rseq_kstats kernel_rseq;	/* the kernel's slice counters over the interval */
	char error[256];
};

/* --trace-holds: the join of the hold records with the kernel's trace. */
struct bench_evidence {
	bool on;
	char tracefs[256];	/* the instance used */
	const char *fault_event; /* the faults' event (tracefs.h) */
	uint64_t holds_recorded, holds_dropped;
	uint64_t trace_events, trace_stacks, trace_lost;
	double window_s;
	struct evidence_phase phase[2];	/* fill, steady */
};

/*
 * After the clients have stopped: sum their slots per phase and over the
 * run, and place the fill boundary.  Times are CLOCK_MONOTONIC ns: the
 * clients' start, the measured interval's start and its end.
 */
void bench_collect(struct bench_result *r, struct pool *p, const struct bench_opts *o,
		   uint64_t run_start, uint64_t start, uint64_t stop);
const char *fill_state_name(enum fill_state f);

void bench_write_json(FILE *out, const struct bench_opts *o, const struct provenance *prov,
		      const struct shmem_seg *seg, const struct pool_config *cfg,
		      const struct bench_result *r, const struct bench_evidence *ev);

#endif
