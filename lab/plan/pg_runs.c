/*
 * A pgbench cell's runs, expanded here so that scripts/pg-run.sh carries
 * out a list instead of deciding one (issue 38).  A cell is one cluster;
 * its runs are every repetition x model x builtin x client count, in
 * that order, numbered from the unit's first repetition, each with
 * pgbench's thread count, and the cluster's max_connections before them:
 *
 *   max_connections N
 *   run REP MODEL BUILTIN CLIENTS THREADS [warm]
 *
 * With PG_WARMUP=on the cluster's first run is a warm-up, run 0 of the
 * first model, builtin and client count, marked warm: pgsample names its
 * document -warm and the report leaves it out.  The first tpcb-like run
 * after pgbench -i was 30% slower than the rest under every model
 * (docs/measurements/2026-12-07-pgbench-lock-handoff.md); with the warm-up
 * the next runs were not, under none and lazy (under full one still was).
 *
 * The repetition is outermost so that a run cut short leaves every
 * model with about as many runs as the others, and the model next so
 * that the server switches model once per repetition, not once per run.
 * The plan writes these lines into the unit's plan file (write.c, under
 * the key pg_run and the cell's id); build/plan --pg-runs prints them for
 * a pg-run.sh run by hand.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lab_vocab.h"
#include "plan.h"

/* pgbench -j: a thread a CPU at most, and never more threads than
 * clients (pgbench refuses that). */
static long pg_threads(long clients, long cpus)
{
	return clients < cpus ? clients : cpus;
}

void pg_runs_write(FILE *f, const char *prefix, const struct pg_runs *r)
{
	long maxc = 1;
	for (int i = 0; i < r->clients->n; i++) {
		long c = atol(r->clients->item[i]);
		if (c > maxc)
			maxc = c;
	}
	fprintf(f, "%smax_connections %ld\n", prefix, maxc + r->headroom);
	if (r->warmup) {
		long n = atol(r->clients->item[0]);
		fprintf(f, "%srun 0 %s %s %ld %ld warm\n", prefix, r->models->item[0],
			r->builtins->item[0], n, pg_threads(n, r->cpus));
	}
	for (long rep = r->first_rep; rep < r->first_rep + r->repeat; rep++)
		for (int m = 0; m < r->models->n; m++)
			for (int b = 0; b < r->builtins->n; b++)
				for (int c = 0; c < r->clients->n; c++) {
					long n = atol(r->clients->item[c]);
					fprintf(f, "%srun %ld %s %s %ld %ld\n", prefix, rep,
						r->models->item[m], r->builtins->item[b], n,
						pg_threads(n, r->cpus));
				}
}

/* How many "run" lines pg_runs_write writes: the estimate and the
 * runner's pgbench limit count them from here. */
size_t pg_runs_count(const struct pg_runs *r)
{
	return (size_t)(r->models->n * r->builtins->n * r->clients->n) * (size_t)r->repeat +
	       (r->warmup ? 1 : 0);
}

/* The CPUs this process may run on, as nproc counts them. */
long pg_runs_cpus_here(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

/*
 * build/plan --pg-runs MODELS BUILTINS CLIENTS REPEAT FIRST_REP: the runs
 * of a cell on this machine, for scripts/pg-run.sh run by hand.  Each
 * list is checked against its vocabulary, so a typo is refused before a
 * cluster is made.
 */
int info_pg_runs(const char *models, const char *builtins, const char *clients,
		 const char *repeat, const char *first_rep)
{
	static struct list m, b, c;
	list_split(&m, "--models", models);
	list_split(&b, "--builtins", builtins);
	list_split(&c, "--clients", clients);
	if (!m.n || !b.n || !c.n)
		plan_die("--pg-runs: models, builtins and clients each need at least one value");
	list_canonical(&m, &vocab_models, "--models");
	list_canonical(&b, &vocab_pg_builtins, "--builtins");
	for (int i = 0; i < c.n; i++)
		parse_count("--clients", c.item[i], 1, 100000);
	struct pg_runs r = {
		.models = &m, .builtins = &b, .clients = &c,
		.repeat = parse_count("--repeat", repeat, 1, 100000),
		.first_rep = parse_count("--first-rep", first_rep, 1, 1000000),
		.cpus = pg_runs_cpus_here(),
		.headroom = runner_policy_value("pg_connection_headroom"),
	};
	pg_runs_write(stdout, "", &r);
	return 0;
}
