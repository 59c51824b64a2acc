/*
 * What the runner does around the cells, decided here so that
 * the cell runner (lab/runner/) and scripts/run-plan.sh carry no number of their own
 * (issue 38): repro-min's pool and the huge pages it and costbench are
 * given after the cells, how long perf script may take to render a
 * profile, how long a guest that has said DONE gets to power off, and
 * scripts/pg-run.sh's server wait and connection headroom.
 * The values are the ones the scripts held; each one's reason is here.
 */
#include <stdio.h>
#include <string.h>

#include "plan.h"

/* repro/repro-min.c: 64-byte descriptors, 131072 of them by default. */
#define REPRO_MIN_DESC_BYTES 64
#define REPRO_MIN_DEFAULT_DESCRIPTORS 131072
/* Under TCG a quarter of the pool, still 32 fault-around windows a
 * backend: the default's fill costs ~15 s of emulation per unit. */
#define REPRO_MIN_TCG_DESCRIPTORS 32768
#define HUGE_2M_BYTES (2L << 20)
/* costbench's 2 MB op maps --hp-pages pages (its default 2); the runner
 * has always reserved twice that, and less is untested. */
#define COSTBENCH_HP_PAGES 2
/* perf script reads kernel symbols from /proc/kallsyms; the bound stops
 * a hang, since the host's cell timer stopped with the cell's JSON. */
#define PERF_SCRIPT_TIMEOUT_S 300
/* A guest that said DONE syncs and powers off in a few seconds under
 * icount; past this the host stops it (scripts/run-plan.sh). */
#define POWEROFF_GRACE_S 30
/* A unit stopped (SIGTERM to QEMU, or to the host runner's group) gets
 * this long to exit before SIGKILL: QEMU exits at once; a host runner
 * stops pgbench and the server through pg-run.sh's traps, which pg_ctl
 * stop -m fast does in a few seconds. */
#define STOP_GRACE_S 10

/* costbench --wake-in-fault's trials an arm: a wake lands inside the
 * fault in two thirds of them (wake.c draws it from a quarter fault before
 * to a quarter after), so ~80 in-fault trials, where 0 off CPU has a 95%
 * Wilson upper bound of 4.6%: enough to tell "always" from "never". */
#define WAKE_IN_FAULT_TRIALS 120

/* ... and with the waker reading the holder's page (--contend-page): a
 * wake inside the fault finds the folio locked in the share of the fault
 * that holds it, so the 120 trials' ~80 in-fault wakes count that share;
 * its traced twin keeps the trace that joins each folio wait to its holder
 * (30 trials: ~20 in-fault wakes, the tracepoints inside the timed fault). */
#define WAKE_FOLIO_TRACED_TRIALS 30

/* costbench --remote-wake's trials an arm: 0 late of 100 has a 95%
 * Wilson upper bound of 3.7%, and a lazy that waits for the tick is late
 * in ~90% (docs/measurements/2026-12-07-remote-wake-ipi.md). */
#define REMOTE_WAKE_TRIALS 100
/* ... and its traced twin, which names the senders of the target's
 * interrupts (the tracepoints' cost keeps it apart from the timed run). */
#define REMOTE_WAKE_TRACED_TRIALS 30

/* COSTBENCH=on: costbench's runs, once per model after the cells, each
 * "costbench_run TAB NAME ARGS" (its document logs/NAME-LABEL-MODEL.json):
 * the model's own costs, the wakeup-inside-a-fault test with an RT waker
 * and with a fair one (whose wakeup lazy leaves to the tick or the exit),
 * with the waker reading the holder's page (RT, fair, RT on a page the
 * fault only maps, and RT traced),
 * then the remote wakeup test (which needs two CPUs and says so on one)
 * and its traced twin. */
void plan_write_costbench_runs(FILE *f)
{
	fprintf(f, "costbench_run\tcostbench\n");
	fprintf(f, "costbench_run\twakefault --wake-in-fault %d\n", WAKE_IN_FAULT_TRIALS);
	fprintf(f, "costbench_run\twakefair --wake-in-fault %d --competitor fair\n", WAKE_IN_FAULT_TRIALS);
	fprintf(f, "costbench_run\twakefolio --wake-in-fault %d --contend-page alloc\n", WAKE_IN_FAULT_TRIALS);
	fprintf(f, "costbench_run\twakefoliofair --wake-in-fault %d --competitor fair --contend-page alloc\n",
		WAKE_IN_FAULT_TRIALS);
	fprintf(f, "costbench_run\twakefoliomap --wake-in-fault %d --contend-page map\n", WAKE_IN_FAULT_TRIALS);
	fprintf(f, "costbench_run\twakefoliotrace --wake-in-fault %d --contend-page alloc --trace on\n",
		WAKE_FOLIO_TRACED_TRIALS);
	fprintf(f, "costbench_run\tremotewake --remote-wake %d\n", REMOTE_WAKE_TRIALS);
	fprintf(f, "costbench_run\tipisenders --remote-wake %d --trace-ipis on\n", REMOTE_WAKE_TRACED_TRIALS);
}

static long repro_min_descriptors(const struct plan *p)
{
	return strcmp(p->accel, "kvm") ? REPRO_MIN_TCG_DESCRIPTORS :
		REPRO_MIN_DEFAULT_DESCRIPTORS;
}

/*
 * scripts/pg-run.sh's numbers, which need no plan: it also runs by hand,
 * and then asks build/plan --runner-policy for them.
 *   pg_ctl_timeout_s: pg_ctl start and restart wait this long for the
 *   server (-t): a guest under TCG recovering a cluster whose
 *   shared_buffers is gigabytes takes minutes, not pg_ctl's default 60 s.
 *   pg_connection_headroom: max_connections beyond the most clients a
 *   cell runs: PostgreSQL's superuser_reserved_connections (3), pgbench
 *   -i's and the warm-up's connections and pgsample's pg_buffercache
 *   sampler, with room to spare.  The planner adds it (pg_runs.c): only
 *   pg_ctl_timeout_s goes into a unit's plan file.
 */
static const struct {
	const char *key;
	long value;
	bool unit_conf;		/* the runner reads it from the unit's plan file */
} pg_policy[] = {
	{ "pg_ctl_timeout_s", 300, true },
	{ "pg_connection_headroom", 10, false },
};

static void write_pg_policy(FILE *f, bool all)
{
	for (size_t i = 0; i < sizeof(pg_policy) / sizeof(pg_policy[0]); i++)
		if (all || pg_policy[i].unit_conf)
			fprintf(f, "%s\t%ld\n", pg_policy[i].key, pg_policy[i].value);
}

/* KEY's row, or -1. */
static int pg_policy_row(const char *key)
{
	for (size_t i = 0; i < sizeof(pg_policy) / sizeof(pg_policy[0]); i++)
		if (!strcmp(key, pg_policy[i].key))
			return (int)i;
	return -1;
}

long runner_policy_value(const char *key)
{
	int i = pg_policy_row(key);
	if (i < 0)
		plan_die("no runner policy %s (lab/plan/runner_policy.c)", key);
	return pg_policy[i].value;
}

/* build/plan --runner-policy [KEY]: the lines a plan writes, or KEY's value. */
int info_runner_policy(const char *key)
{
	if (!key) {
		write_pg_policy(stdout, true);
		return 0;
	}
	int i = pg_policy_row(key);
	if (i < 0)
		return 1;
	printf("%ld\n", pg_policy[i].value);
	return 0;
}

void plan_write_runner_policy(FILE *f, const struct plan *p, bool guest)
{
	fprintf(f, "perf_script_timeout_s\t%d\n", PERF_SCRIPT_TIMEOUT_S);
	if (p->pgbench)
		write_pg_policy(f, false);
	if (!guest)
		return;
	long n = repro_min_descriptors(p);
	long bytes = n * REPRO_MIN_DESC_BYTES;
	/* The pages its 2 MB pool rounds up to, and one spare, as the runner
	 * reserved for the default pool (4 + 1). */
	fprintf(f, "repro_min_descriptors\t%ld\nrepro_min_hp2m\t%ld\n", n,
		(bytes + HUGE_2M_BYTES - 1) / HUGE_2M_BYTES + 1);
	fprintf(f, "costbench_hp2m\t%d\n", 2 * COSTBENCH_HP_PAGES);
}

void plan_write_poweroff_grace(FILE *f)
{
	fprintf(f, "poweroff_grace_s\t%d\nstop_grace_s\t%d\n", POWEROFF_GRACE_S, STOP_GRACE_S);
}
