/*
 * bufbench: the process-per-client driver of the miniature buffer pool.
 */
#ifndef PREEMPTLAB_BUFBENCH_H
#define PREEMPTLAB_BUFBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "freelist.h"
#include "lab_lock.h"
#include "pool.h"
#include "provenance.h"
#include "shmem.h"
#include "vocab.h"


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
	int stuck_limit;
	bool print_segment_size;
	bool hold_events;
};

/* Exit codes: documented in --help and docs/bufbench.md. */
#define EXIT_BAD_OPTION 2
#define EXIT_NO_PAGES 3
#define EXIT_RUN_FAILED 4
#define EXIT_RSEQ 5		/* --lock rseq: no time-slice extension here */
#define EXIT_HOLD_EVENTS 6	/* --hold-events: no perf software counters here */
/* A client that ends itself to be re-forked (--reconnect). */
#define EXIT_RECONNECT 10

const char *workload_name(enum workload w);
/* Parse argv; on error prints one line and exits EXIT_BAD_OPTION. */
void bench_parse_args(struct bench_opts *o, int argc, char **argv);

/* The body of one client process; never returns. */
_Noreturn void bench_client(struct pool *p, const struct bench_opts *o, uint32_t slot,
			    uint32_t incarnation);

struct bench_result {
	struct backend_stats sum;
	double elapsed_s;
	bool interrupted;
	uint32_t complete_passes;
	char error[256];
};

void bench_write_json(FILE *out, const struct bench_opts *o, const struct provenance *prov,
		      const struct shmem_seg *seg, const struct pool_config *cfg,
		      const struct bench_result *r);

#endif
