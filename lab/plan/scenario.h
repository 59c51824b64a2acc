/*
 * Scenarios: named sets of defaults for the make variables, computed from
 * the machine the bench will run on.  A variable the user sets always wins;
 * a scenario only fills in what was not asked.
 *
 * seed: the regression report's ratios (PostgreSQL 17, shared_buffers
 * about 120 GB of 384 GB, tables of 127 GB, 1024 clients on 96 vCPUs,
 * simple-update), scaled to this machine or guest, so that the measured
 * interval covers the fill of a cold pool, where the mechanism lives.
 */
#ifndef PREEMPTLAB_PLAN_SCENARIO_H
#define PREEMPTLAB_PLAN_SCENARIO_H

#include <stdbool.h>

/* The report's ratios. */
#define SEED_CLIENTS_PER_CPU 10.7	/* 1024 clients / 96 vCPUs */
#define SEED_POOL_SHARE 0.30		/* shared_buffers / RAM */
#define SEED_RELATION_OVER_POOL 1.06	/* 127 GB of tables / 120 GB */
#define SEED_GUEST_POOL_MB 384		/* a TCG guest's pool unless MEM_MB is given */
#define PG_MB_PER_SCALE 15.0		/* pgbench tables per scale unit at fillfactor 90 */
/*
 * The freelist order: PostgreSQL's.  A stride did not raise the share of
 * pops that fault (measured, docs/scenarios.md): backends do.
 */
#define SEED_FREELIST_STRIDE "1"
/* SCENARIO=mitigations: every mitigation (docs/mitigations.md). */
#define SCENARIO_MITIGATIONS \
	"none,prefault,touch-before-lock,rseq:5,rseq:20,rseq:50,hugepages,pg19,partitioned:8"

/*
 * hot-lock (issue 36): the report's regime in miniature, a strategy lock
 * busy most of the fill.  Every access misses (the relation 8x the pool),
 * every first touch of a descriptor page faults inside the hold (no
 * fault-around), enough backends that one always wants the lock, and
 * waiters that spin as on a many-CPU machine instead of sleeping.
 */
#define HOT_CLIENTS_PER_CPU 32		/* the 32 a CPU (64 on 2 vCPUs) */
#define HOT_RELATION_OVER_POOL 8	/* hit share during the fill <= 1/8 */
#define HOT_FILL_S 20			/* the fill lasts this long at least */
#define HOT_FAULT_AROUND "4K"		/* one descriptor page per fault */
/*
 * Waiters spin as on a many-CPU machine: PostgreSQL's most, 1000, on the
 * host.  Under icount one spin costs one instruction's time (48 ns at
 * shift 3) while a fault costs 55 us, so 1000 spins cover one fault where
 * hardware's 40-140-cycle PAUSE covers dozens: guests spin 20,000, about
 * a millisecond, as long as the first backoff sleep.  Measured on 7.0
 * (docs/scenarios.md): 20,000 gave rho 0.37, 100,000 made the fill too
 * slow to finish within the cell's limit.
 */
#define HOT_HOST_SPINS "fixed:1000"
#define HOT_GUEST_SPINS "fixed:20000"
/*
 * The freelist strided by one fault window's descriptors (64 to a 4 KB
 * page): consecutive pops touch a new window, as 1024 backends on 96 CPUs
 * do, where on 2 CPUs one backend pops a run of neighbours in its slice.
 * Guests: FAULT_AROUND_BYTES=4K, one page; the host: its kernel's default
 * fault-around, 64 KB.
 */
#define HOT_GUEST_STRIDE "64"
#define HOT_HOST_STRIDE "1024"
/*
 * Buffers taken in per second of the fill, measured in the hot cell
 * (docs/scenarios.md, hot-lock): a 2-vCPU 7.0 guest under icount
 * (shift 3, guest time) and this project's host.  The pool is sized from
 * them for HOT_FILL_S seconds.
 */
#define HOT_GUEST_FILL_RATE 1700.0
#define HOT_HOST_FILL_RATE 30000.0

struct hot_sizing {
	/* In. */
	long cpus;
	long ram_mb;		/* the host's MemTotal; 0 unknown (guests: unused) */
	bool guest;
	/* Out. */
	long clients;
	long pool_mb, relation_mb;
	long duration_s, steady_s, repeat;
	bool pool_capped;	/* host: 30% of RAM is less than HOT_FILL_S seconds need */
};

void hot_size(struct hot_sizing *s);

struct seed_sizing {
	/* In: the machine the cells run on. */
	long cpus;
	long ram_mb;		/* the host's MemTotal, or the guest's MEM_MB; 0 unknown */
	bool guest;
	/* Out. */
	long clients;
	long pool_mb, relation_mb;
	long pg_shared_buffers_mb, pg_scale;
	long duration_s;	/* the limit: --steady ends a run after its fill */
	long steady_s;
	long pg_duration_s;
	long repeat;
	long guest_mem_mb;	/* RAM the pool is 30% of (guests), 0 on a host */
};

/* The scaling arithmetic alone, for the planner and its unit test. */
void seed_size(struct seed_sizing *s);

/* "default", "seed", "overhead", "mitigations" or "hot-lock"; dies on anything else, naming the valid ones. */
void scenario_select(const char *name, long cpus, long ram_mb, bool guest);
/* The scenario's value for a make variable, or NULL: the planner's default. */
const char *scenario_default(const char *var);
const char *scenario_name(void);
const struct seed_sizing *scenario_seed(void);	/* NULL unless seed */
const struct hot_sizing *scenario_hot(void);	/* NULL unless hot-lock */

#endif
