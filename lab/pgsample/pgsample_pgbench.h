/*
 * Reading pgbench's own report.  pgbench prints its summary on stdout and,
 * with -P 1, one progress line per second on stderr; the lab keeps both
 * files as they were written and reads the numbers back from them, so the
 * numbers in the JSON are exactly those pgbench printed.
 */
#ifndef PREEMPTLAB_PGSAMPLE_PGBENCH_H
#define PREEMPTLAB_PGSAMPLE_PGBENCH_H

#include <stddef.h>
#include <stdio.h>

struct pgbench_result {
	int have_tps;               /* the "tps = " line was found */
	long scale;                 /* "scaling factor:", -1 if absent */
	long clients, threads;      /* as pgbench reported them, -1 if absent */
	char query_mode[32];
	long long transactions;
	long long failed;           /* 0 on pgbench versions without the line */
	double latency_ms_avg;
	double latency_ms_stddev;   /* -1 when pgbench did not print it */
	double initial_connection_ms;
	double tps;
	double *progress_tps;       /* one per "progress:" line */
	size_t nprogress;
	size_t progress_cap;
};

void pgbench_result_init(struct pgbench_result *r);
void pgbench_result_free(struct pgbench_result *r);

/* Parse one line of either stream; unknown lines are ignored. */
void pgbench_parse_line(struct pgbench_result *r, const char *line);

/* Parse a whole file (both streams may be fed to the same result). */
int pgbench_parse_file(struct pgbench_result *r, FILE *f);

#endif
